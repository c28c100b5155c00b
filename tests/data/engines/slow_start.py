"""A slow-starting engine for the tests: its first move takes the seconds given as its argument
(as an engine loading its search would), later ones none; it plays Nine Men's Morris
placements a1, a4, a7, ..."""

import sys
import time

POINTS = ["a1", "a4", "a7", "d7", "g7", "g4", "g1", "d1"]
moves = 0
for line in sys.stdin:
    if line.startswith("ludo"):
        print("id name slow_start\nludook", flush=True)
    elif line.startswith("position"):
        played = line.split(" moves ", 1)[1].split() if " moves " in line else []
    elif line.startswith("go"):
        if moves == 0:
            time.sleep(float(sys.argv[1]))
        moves += 1
        print("bestmove " + next(p for p in POINTS if p not in played), flush=True)
    elif line.startswith("quit"):
        break

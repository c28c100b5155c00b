"""A broken engine for the tests: completes the handshake, then never answers a move."""

import sys
import time

for line in sys.stdin:
    if line.startswith("ludo"):
        print("id name hang\nludook", flush=True)
    elif line.startswith("go"):
        time.sleep(3600)

"""A broken engine for the tests: completes the handshake, then exits when asked to move."""

import sys

for line in sys.stdin:
    if line.startswith("ludo"):
        print("id name crash\nludook", flush=True)
    elif line.startswith("go"):
        sys.exit(3)

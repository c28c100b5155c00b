"""The solved start values the docs state, checked on full builds: each ``ludoteca solve`` run
in a fresh process with an empty cache, its start value and plies compared with docs/rules.md.
Not a test (the Mullah table takes about 5 minutes of one core and 0.6 GB; the rest take a minute
together, and ``tests/solve/test_solved_values.py`` checks those in the suite).

    .venv/bin/python -m bench.solved_values --out bench/results/solved_values.txt
    .venv/bin/python -m bench.solved_values felli felli:forced_capture    # some of them

Prints one line a rule set: the value found, the documented one, whether they agree, seconds;
exits 1 when one disagrees.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = "import sys; from ludoteca.cli import main; sys.exit(main())"
#: rule set -> (game, documented value at the start, documented plies)
DOCUMENTED = {
    "felli": ("felli", "draw", None),
    "felli:forced_capture": ("felli", "win", 31),
    "felli:multi_capture": ("felli", "draw", None),
    "felli:forced_capture,multi_capture": ("felli", "win", 31),
    "morris-6": ("morris", "draw", None),
    "felli-mullah": ("felli", "win", 25),
}


def said(value: str, plies: int | None) -> str:
    return value if plies is None else f"{value} in {plies}"


def check(rules: str) -> tuple[bool, str]:
    game, value, plies = DOCUMENTED[rules]
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CLI, "solve", game, "--rules", rules],
            env=dict(os.environ, LUDOTECA_CACHE=cache),
            capture_output=True,
            text=True,
            check=True,
        )
        seconds = time.perf_counter() - started
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    found = (lines["value"].split()[0], int(lines["plies"]) if "plies" in lines else None)
    agrees = found == (value, plies)

    return agrees, (
        f"{rules}: {said(*found)} ({lines['value']}), documented {said(value, plies)}: "
        f"{'agrees' if agrees else 'DIFFERS'}, {seconds:.0f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", default=list(DOCUMENTED), choices=list(DOCUMENTED))
    parser.add_argument("--out", type=Path, help="append the lines to this file too")
    args = parser.parse_args()
    failed = False
    for rules in args.rules:
        agrees, line = check(rules)
        failed |= not agrees
        print(line, flush=True)
        if args.out:
            with args.out.open("a") as out:
                out.write(line + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

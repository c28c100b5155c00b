"""Table builds, measured: each ``ludoteca solve`` run in a fresh process with an empty cache,
reporting wall time, CPU time, peak memory and the size of the cached table, next to the
issue's goals.  Not a test: run it by hand (a full run takes about a quarter of an hour).

    .venv/bin/python -m bench.solve_bench --out bench/results/solve.txt
    .venv/bin/python -m bench.solve_bench --threads 1 felli-mullah      # one core

Builds: ``felli-mullah`` (every position, goal 5 minutes on one core and 8 GB), ``morris-6``
(Six Men's Morris outright), ``morris-N`` for N = 3, 4, 5 and ``morris-6men`` (Nine Men's
endgame tables up to N men a side, goal 30 minutes for N = 5 on this 2-core machine),
``morris-12-5`` (Twelve Men's Morris and Morabaraba to five men a side: one table, the two rule
sets sharing the board and the flying rule).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = "import sys; from ludoteca.cli import main; sys.exit(main())"
BUILDS = {  # smallest first: the peak memory reported is the largest so far
    "morris-6": (["morris", "--rules", "morris-6"], "(small: solved outright)"),
    "morris-3": (["morris", "--men", "3", "--stats"], ""),
    "morris-4": (["morris", "--men", "4", "--stats"], ""),
    "morris-5": (["morris", "--men", "5", "--stats"], "30 min on 2 cores, all up to 5 men"),
    "morris-12-5": (
        ["morris", "--rules", "morris-12", "--men", "5", "--stats"],
        "Twelve Men's Morris and Morabaraba (one table: the same board and flying), 5 men",
    ),
    "morris-6men": (["morris", "--men", "6", "--stats"], "Nine Men's Morris to 6 men a side"),
    "felli-mullah": (["felli", "--rules", "felli-mullah"], "5 min on one core, 8 GB"),
}


def run(name: str, threads: int | None, keep: Path | None = None) -> list[str]:
    args, goal = BUILDS[name]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, LUDOTECA_CACHE=cache)
        if threads:
            env["NUMBA_NUM_THREADS"] = str(threads)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CLI, "solve", *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        size = sum(p.stat().st_size for p in Path(cache).iterdir())
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
            for built in Path(cache).iterdir():
                shutil.copy2(built, keep / built.name)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    head = (
        f"{name}: wall {wall:.0f} s, cpu {cpu:.0f} s, peak memory "
        f"{after.ru_maxrss / 1024:.0f} MB (largest build so far in this run), table "
        f"{size / 1e6:.1f} MB on disk, threads {threads or 'all'}; goal: {goal or '-'}"
    )
    return [head, *("    " + line for line in done.stdout.splitlines())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "builds",
        nargs="*",
        default=[b for b in BUILDS if b != "morris-6men"],  # half an hour more: asked for by name
        choices=list(BUILDS),
    )
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default all)")
    parser.add_argument("--out", type=Path, default=None, help="also append the lines here")
    parser.add_argument(
        "--keep", type=Path, default=None, help="copy the tables built into this folder"
    )
    args = parser.parse_args()
    for name in args.builds:
        lines = run(name, args.threads, args.keep)
        print("\n".join(lines), flush=True)
        if args.out:
            with args.out.open("a", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

"""How long a new worker process takes to be ready and to play its first move: spawned (each
process imports Ludoteca and loads the compiled search itself) against forked from the fork
server that loaded the search once (:mod:`ludoteca.server.computer.preloaded`), side by side.

    .venv/bin/python -m bench.worker_start --rounds 8 --out bench/results/worker_start.txt

Each round builds a one-process :class:`~ludoteca.server.computer.pool.WorkerPool` of each kind
in turn (the order alternating): the time to its first (empty) job, the time its first move of
Nine Men's Morris at level 1 then takes (the search loaded, or not yet), and the time to close
the pool; then the median and the range of each over the rounds.  The fork server itself starts
once, before the rounds (its start, the search loaded once, is printed apart).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import subprocess
import time
from collections.abc import Callable
from multiprocessing.context import BaseContext

import ludoteca
from ludoteca.server.computer import pool as pools
from ludoteca.server.computer import workers

KINDS: dict[str, Callable[[], BaseContext]] = {
    "spawned": lambda: multiprocessing.get_context("spawn"),
    "forked": pools._context,
}


async def once(kind: str) -> tuple[float, float, float]:
    """(first job, first move, close) in seconds for a new pool of ``kind``."""
    pools._context = KINDS[kind]  # (the module's own choice, swapped)
    start = ludoteca.load("morris").new().position_code()
    began = time.perf_counter()
    pool = pools.WorkerPool(1, workers.die_with_parent, (os.getpid(),))
    await pool.run(60.0, os.getpid)
    ready = time.perf_counter()
    spec = "search:depth=1,noise=1500"
    await pool.run(60.0, workers.computer_move, "morris", "morris", start, [], spec, 1)
    moved = time.perf_counter()
    pool.close()
    return ready - began, moved - ready, time.perf_counter() - moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--out", help="append the results to this file")
    args = parser.parse_args()
    began = time.perf_counter()
    asyncio.run(once("forked"))
    lines = [
        f"fork server started (search loaded) and first pool: {time.perf_counter() - began:.2f} s"
    ]
    times: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in KINDS}
    for round_ in range(args.rounds):
        for kind in list(KINDS)[:: 1 if round_ % 2 else -1]:
            times[kind].append(asyncio.run(once(kind)))
    lines.append(f"{args.rounds} rounds; median (min-max) in seconds")
    lines.append(f"{'':8} {'first job':>18} {'first move':>18} {'close':>18}")
    for kind, runs in times.items():
        cells = []
        for column in zip(*runs, strict=True):
            cells.append(f"{statistics.median(column):.3f} ({min(column):.2f}-{max(column):.2f})")
        lines.append(f"{kind:8} " + " ".join(f"{cell:>18}" for cell in cells))
    text = "\n".join(lines)
    print(text)
    if args.out:
        load = os.getloadavg()
        revision = subprocess.run(
            ["git", "describe", "--always", "--dirty"], capture_output=True, text=True
        ).stdout.strip()
        with open(args.out, "a") as out:
            out.write(
                f"$ python -m bench.worker_start --rounds {args.rounds}\n"
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, revision {revision}, "
                f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n{text}\n\n"
            )


if __name__ == "__main__":
    main()

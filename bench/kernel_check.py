"""The compiled kernels against the readable engines on thousands of games a rule set.

    python -m bench.kernel_check [--games N] [--perft P] [--budget B] [--rules R ...] [--jobs J]

For every rule set with a kernel: N seeded random games played by the engine, the kernel's legal
moves, tactical moves, whether it can move, ending, make, unmake and Zobrist key checked at
every position; then perft from P random positions still in play, by engine and kernel, as deep
as a walk of at most B inner nodes allows (``checks/kernel_check.py``; the test suite runs
the same checks on a few games).  Prints one line a rule set (games, positions, perft positions
and the move sequences they counted, seconds) and stops with the position at the first
difference.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from checks.kernel_check import compare_perft, follow_random_games
from ludoteca.games import family, game_names, load


def check(rules: str, games: int, perft: int, budget: int) -> str:
    started = time.perf_counter()
    positions = follow_random_games(rules, games)
    counted = compare_perft(rules, perft, budget)
    sequences = sum(sum(counts) for _, counts in counted)
    depths = sorted({len(counts) for _, counts in counted}) or [0]
    return (
        f"{rules:14} {games:6} games {positions:9,} positions  perft from {len(counted)} "
        f"positions (depth {depths[0]}-{depths[-1]}): {sequences:12,} sequences  "
        f"{time.perf_counter() - started:7.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="random games a rule set")
    parser.add_argument("--perft", type=int, default=100, help="perft positions a rule set")
    parser.add_argument("--budget", type=int, default=20_000, help="inner nodes a perft walk")
    parser.add_argument("--rules", nargs="+", default=None, help="rule sets (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    rule_sets = args.rules or [
        d.name for g in game_names() for d in family(g).rule_sets if load(d.name).kernel is not None
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(
            check,
            rule_sets,
            [args.games] * len(rule_sets),
            [args.perft] * len(rule_sets),
            [args.budget] * len(rule_sets),
        ):
            print(line, flush=True)


if __name__ == "__main__":
    main()

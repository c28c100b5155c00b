"""The batched environments against the readable engine on thousands of games a rule set.

    python -m bench.vector_check [--games N] [--envs E] [--rules R ...] [--jobs J]

For every rule set with a kernel: a ``VectorEnv`` of E games stepped by its own seeded random
actions until N games have ended, every step checked against the engine
(``checks/vector_check.py``: each game's mask, observation, side to act, ending,
rewards and next setup; the test suite runs the same checks on a few games).  Prints one line
a rule set (games, how they ended, steps, seconds) and stops at the first difference.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from checks.vector_check import follow
from ludoteca.games import family, game_names, load


def check(rules: str, games: int, envs: int) -> str:
    started = time.perf_counter()
    ended, steps = follow(rules, games, envs=envs, seed=len(rules))
    endings = ", ".join(f"{name.lower()} {n}" for name, n in ended.most_common())
    return (
        f"{rules:14} {ended.total():6} games {steps * envs:10,} actions  ({endings})  "
        f"{time.perf_counter() - started:7.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games a rule set")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--rules", nargs="+", default=None, help="rule sets (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    rule_sets = args.rules or [
        d.name for g in game_names() for d in family(g).rule_sets if load(d.name).kernel is not None
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(
            check, rule_sets, [args.games] * len(rule_sets), [args.envs] * len(rule_sets)
        ):
            print(line, flush=True)


if __name__ == "__main__":
    main()

"""Search speed, side by side in one run: the compiled search against the readable Python
search, on the same positions, with the same time per position.

For each rule set: its start and the positions after 8, 16 and 24 plies of a seeded random game.
Prints, per rule set, the nodes per second and the depth completed by each search, and the
speed-up; ``--out`` also writes the rows as JSON lines.  Not a test: run it by hand.

    .venv/bin/python bench/search_bench.py --seconds 1 --out bench/results/search.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.search import SearchAgent

RULE_SETS = ["morris", "morris-12", "felli", "felli-mullah", "morelli", "morelli-9"]


def positions(rules: str) -> list[ludoteca.State]:
    rng = random.Random(rules)
    state = ludoteca.new_game(rules, seed=1)
    out = [state.copy()]
    for ply in range(1, 25):
        codes = state.legal_codes()
        if not codes:
            break
        state.push_code(rng.choice(codes))
        if ply % 8 == 0 and state.outcome() is None:
            out.append(state.copy())
    return out


def measure(agent: SearchAgent, state: ludoteca.State, seconds: float) -> tuple[int, int, float]:
    result = agent.analyse(state, Limit(seconds=seconds))
    return result.nodes, result.depth, result.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rules", nargs="*", default=RULE_SETS)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    warm = SearchAgent(0)
    for rules in args.rules:  # compile (or load) the kernels before timing anything
        warm.analyse(ludoteca.new_game(rules, seed=1), Limit(depth=1))
    print(f"{'rule set':<14} {'python nps':>11} {'depth':>5} {'compiled nps':>13} {'depth':>5} "
          f"{'speed-up':>8}")
    for rules in args.rules:
        slow_nps, fast_nps, slow_depth, fast_depth = [], [], [], []
        for state in positions(rules):
            slow = measure(SearchAgent(0, compiled=False), state, args.seconds)
            fast = measure(SearchAgent(0), state, args.seconds)
            slow_nps.append(slow[0] / slow[2])
            fast_nps.append(fast[0] / fast[2])
            slow_depth.append(slow[1])
            fast_depth.append(fast[1])
            rows.append({"rules": rules, "position": state.position_code(),
                         "python": {"nodes": slow[0], "depth": slow[1], "seconds": slow[2]},
                         "compiled": {"nodes": fast[0], "depth": fast[1], "seconds": fast[2]}})
        a, b = statistics.mean(slow_nps), statistics.mean(fast_nps)
        print(f"{rules:<14} {a:>11,.0f} {statistics.mean(slow_depth):>5.1f} {b:>13,.0f} "
              f"{statistics.mean(fast_depth):>5.1f} {b / a:>7.0f}x", flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()

"""How long each level of each game's ladder takes to answer, on positions from seeded random
games (the levels' agents as the web app builds them, warmed up first).

Prints, per game and level: the agent, the median, the 95th percentile and the slowest answer.
Not a test: run it by hand on a quiet machine.

    .venv/bin/python -m bench.levels_bench --positions 60 --out bench/results/levels.txt
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import ludoteca
from ludoteca.ai import make_agent
from ludoteca.ai.levels import levels


def positions(game: str, count: int, seed: int) -> list[ludoteca.State]:
    """``count`` positions in play, after 0 to 60 random plies of seeded games."""
    rng = random.Random(seed)
    out: list[ludoteca.State] = []
    while len(out) < count:
        state = ludoteca.new_game(game, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 60)):
            codes = state.legal_codes()
            if not codes:
                break
            state.push_code(rng.choice(codes))
        if state.outcome() is None:
            out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=ludoteca.game_names())
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    lines = [
        f"{'game':<8} {'level':>5}  {'agent':<36} {'median s':>9} {'p95 s':>7} {'slowest s':>9}"
    ]
    print(lines[0], flush=True)
    for game in args.games:
        states = positions(game, args.positions, 7)
        for number, rung in enumerate(levels(states[0].rules), start=1):
            agent = make_agent(rung.spec, states[0].rules, number)
            agent.choose(states[0])  # compile or load the search first
            took = []
            for state in states:
                started = time.perf_counter()
                agent.choose(state)
                took.append(time.perf_counter() - started)
            took.sort()
            line = (
                f"{game:<8} {number:>5}  {rung.spec:<36} {statistics.median(took):>9.3f} "
                f"{took[int(0.95 * (len(took) - 1))]:>7.3f} {took[-1]:>9.3f}"
            )
            lines.append(line)
            print(line, flush=True)
    if args.out:
        command = "python -m bench.levels_bench " + " ".join(sys.argv[1:])
        with args.out.open("a") as out:
            out.write(
                f"# {time.strftime('%Y-%m-%d %H:%M')}  {command}\n" + "\n".join(lines) + "\n\n"
            )


if __name__ == "__main__":
    main()

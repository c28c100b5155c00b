"""Which search budget a game report needs: every searched position of report_bench.py's two
games (a 150-ply Morris game, a 100-ply Morelli game) analysed at a reference budget and at
the candidates, each a node budget searched from an empty table (``N``) or from the table of
the position before, in runs of ten as the server searches them (``N:keep``); for each
candidate, the time in this process, the mean depth reached and how often its verdict on a
move (inaccuracy, mistake, blunder or none: ludoteca.study.report.assess) agrees with the
reference's.

    .venv/bin/python -m bench.report_limits --reference 300000 \\
        --budgets 100000 50000 40000 40000:keep 100000:keep --out bench/results/report-limits.txt
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.report_bench import game_of
from ludoteca import record
from ludoteca.ai import Limit
from ludoteca.ai.search import SearchAgent
from ludoteca.core import Color, State
from ludoteca.study.report import PlyValue, assess

GAMES = (("morris", 150, "search:depth=2,noise=300"), ("morelli", 100, "random"))
RUN = 10  # as ludoteca.server.study.reports.RUN


def values(start: State, moves: list[int], budget: str) -> tuple[list[PlyValue], float, float]:
    """Every position's value for White (a search's at ``budget``; best and played moves as
    their codes); the seconds taken and the mean depth reached."""
    nodes, _, keep = budget.partition(":")
    agent = SearchAgent(0)
    state = start.copy()
    plies, depths = [], []
    started = time.monotonic()
    for ply in range(len(moves) + 1):
        played = str(moves[ply]) if ply < len(moves) else None
        turn = state.turn.name.lower()
        if state.outcome() is None:
            if not keep:
                agent = SearchAgent(0)
            limit = Limit(depth=12, nodes=int(nodes))
            found = agent.analyse(state, limit, keep=bool(keep) and ply % RUN != 0)
            white = found.score if state.turn is Color.WHITE else -found.score
            plies.append(PlyValue(white, False, turn, str(found.move.code), played=played))
            depths.append(found.depth)
        else:
            plies.append(PlyValue(0, True, turn, None, played=played))
        if ply < len(moves):
            state.push_code(moves[ply])
    return plies, time.monotonic() - started, sum(depths) / max(1, len(depths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default="300000")
    parser.add_argument("--budgets", nargs="+", default=["100000", "40000", "40000:keep"])
    parser.add_argument("--games", nargs="+", default=[name for name, _, _ in GAMES])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [f"# .venv/bin/python -m bench.report_limits {' '.join(sys.argv[1:])}"]
    lines.append(f"# {time.strftime('%Y-%m-%d %H:%M %Z')}")
    for name, count, spec in (g for g in GAMES if g[0] in args.games):
        game = record.loads(game_of(name, count, spec))
        start = game.start()
        moves = [move.code for move in game.state.moves]
        reference, took, depth = values(start, moves, args.reference)
        judged = [v.judgement for v in assess(reference)[0]]
        lines.append(
            f"{name} ({count} plies): reference {args.reference} nodes: {took:.1f} s, "
            f"mean depth {depth:.2f}, {sum(map(bool, judged))} moves marked"
        )
        print(lines[-1], flush=True)
        for budget in args.budgets:
            found, took, depth = values(start, moves, budget)
            verdicts = [v.judgement for v in assess(found)[0]]
            same = sum(a == b for a, b in zip(verdicts, judged, strict=True))
            lines.append(
                f"  {budget:>14s}: {took:6.1f} s, mean depth {depth:.2f}, "
                f"{sum(map(bool, verdicts))} marked, same verdict as the reference on "
                f"{same} of {len(judged)} moves"
            )
            print(lines[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

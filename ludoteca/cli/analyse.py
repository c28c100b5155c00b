"""``ludoteca analyse GAME [--rules R] [--setup S] [--position CODE] [--moves "M ..."]
[--time S | --depth D | --nodes N]``: the best move, evaluation and main line of a position.

Contract: searches the position (the start or ``--position``, after ``--moves``) for
``--time`` seconds (default 1), or to ``--depth`` or ``--nodes`` (deterministic), printing a
line for each iteration (depth, score, nodes, nodes a second, time, main line), then the best
move, the evaluation (White's share, and whether it is exact) and the main line.  A finished
position: its outcome instead.
"""

from __future__ import annotations

import argparse

from ..ai import Limit
from .options import add_start_options, start

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca analyse`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("analyse", help="best move, evaluation and main line of a position")
    p.add_argument("game")
    add_start_options(p)
    p.add_argument("--moves", default="", help="moves to play first")
    p.add_argument("--time", type=float, default=1.0, help="seconds to think")
    p.add_argument(
        "--depth", type=int, default=None, help="search this deep instead (deterministic)"
    )
    p.add_argument(
        "--nodes", type=int, default=None, help="search this many nodes instead (deterministic)"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Search the position and print what was found."""
    from ..ai.analysis import analyse
    from ..ai.search import SearchResult

    state = start(args)
    for word in args.moves.split():
        state.push(word)
    outcome = state.outcome()
    if outcome is not None:
        print(outcome.explain())
        return 0

    def report(result: SearchResult) -> None:
        print(
            f"depth {result.depth} score {result.score} nodes {result.nodes} "
            f"nps {result.nps} time {result.seconds:.3f} pv " + " ".join(str(m) for m in result.pv),
            flush=True,
        )

    limit = Limit(
        seconds=None if args.depth or args.nodes else args.time, depth=args.depth, nodes=args.nodes
    )
    found = analyse(state, limit, on_iteration=report)
    print(f"best move: {found.move}")
    print(
        f"evaluation: {found.text} (White's share {found.white_share:.2f}"
        f"{', exact' if found.exact else ''})"
    )
    print("main line: " + " ".join(str(m) for m in found.pv))
    return 0

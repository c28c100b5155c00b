"""``ludoteca perft GAME DEPTH [--rules R] [--setup S] [--position CODE] [--moves "M ..."]
[--compiled]``: count the move sequences of each length from a position.

Contract: from the start (or ``--position``), after ``--moves``, prints one line
``LENGTH COUNT`` for each length 1 to DEPTH, each as soon as it is counted.  With
``--compiled`` the game's compiled kernel counts (fast, but without repetition draws), at most
64 moves deep.  A DEPTH below 1, an illegal move, or ``--compiled`` for a game without a kernel
is an error (exit status 2).
"""

from __future__ import annotations

import argparse

from ..perft import perft_counts
from .options import add_start_options, fail, start

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca perft`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("perft", help="count move sequences of each length from a position")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    add_start_options(p)
    p.add_argument("--moves", default="", help='moves to play first, e.g. "d6 f4"')
    p.add_argument(
        "--compiled",
        action="store_true",
        help="count with the game's compiled kernel (fast; no repetition draws)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the counts."""
    if args.depth < 1:
        return fail("depth must be at least 1")
    state = start(args)
    for word in args.moves.split():
        state.push(word)
    if args.compiled:
        from ..compiled.drivers import perft_counts as compiled_counts

        if state.game.kernel is None:
            return fail(f"{state.game.title} has no compiled kernel")
        if args.depth > 64:
            return fail("a compiled perft goes at most 64 moves deep")
        for depth in range(1, args.depth + 1):  # one walk a depth, so each line comes when done
            print(f"{depth} {compiled_counts(state, depth)[-1]}", flush=True)
        return 0
    for depth, count in perft_counts(state, args.depth):
        print(f"{depth} {count}", flush=True)
    return 0

"""``ludoteca solve GAME [--rules R] [--men N] [--stats] [--ray [ADDRESS]]``: solve a rule set
outright, or build its endgame tables, where the game has a solver.

Contract: builds the table (a progress bar on standard error; on the ``--ray`` cluster if
given), or reads it from the cache when it was built before, then prints the table's summary,
each material class's win, loss and draw counts with ``--stats``, and whether it was solved or
read from the cache.  A rule set without a solver is an error (exit status 2).
"""

from __future__ import annotations

import argparse
import time

from ..games import load
from .options import add_ray_option, fail, pool

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca solve`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "solve",
        help="solve a rule set outright, or build its endgame tables (where the game has a solver)",
    )
    p.add_argument("game")
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument(
        "--men",
        type=int,
        default=None,
        help="the most men (pieces) a side in the table (default: the game's choice)",
    )
    p.add_argument(
        "--stats", action="store_true", help="print each material class's win, loss and draw counts"
    )
    add_ray_option(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build or read the table and print what it says."""
    from ..solve import progress_bar

    game = load(args.game, args.rules)
    rules = game.rules
    solver = game.solver(args.men)
    if solver is None:
        return fail(f"no solver for {rules}: {game.title} under these rules is not solved outright")
    started = time.perf_counter()
    report, bar = progress_bar()
    try:
        table, cached = solver.load(report, pool(args))
    finally:
        bar.close()
    for line in table.summary():
        print(line)
    if args.stats:
        for line in table.stats():
            print(line)
    how = "read from the cache" if cached else f"solved in {table.seconds:.1f}s and cached"
    print(f"table: {how} ({time.perf_counter() - started:.1f}s)")
    return 0

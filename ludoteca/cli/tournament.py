"""``ludoteca tournament GAME --agents SPEC SPEC... [--games N] [--jobs N] [--rules R]
[--seed N] [--time S] [--out FILE] [--store-ratings] [--adjacent] [--ray [ADDRESS]]``: a round
robin between agents, with Elo ratings.

Contract: each pair of agents (with ``--adjacent``, each agent and the next only) plays
``--games`` games, colours alternating, over ``--jobs`` processes or the ``--ray`` cluster,
with a progress bar; then prints the crosstable with the Elo ratings and each forfeit, and
writes the game records to ``--out`` (default ``tournament-GAME-DATE-TIME.txt``).  With
``--store-ratings`` the ratings of the ``level:N`` agents become the ladder's measured ratings
(``ludoteca levels``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..games import load
from .options import add_ray_option, pool

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca tournament`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("tournament", help="a round robin between agents, with Elo ratings")
    p.add_argument("game")
    p.add_argument(
        "--agents",
        nargs="+",
        required=True,
        help="agent specs: level:N, search:depth=D, mcts:sims=N, random, careless, perfect, "
        "engine:COMMAND",
    )
    p.add_argument("--games", type=int, default=10, help="games per pair (colours alternate)")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes")
    p.add_argument("--rules", default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=None, help="seconds per move for every agent")
    p.add_argument("--out", type=Path, default=None, help="file for the game records")
    p.add_argument(
        "--store-ratings",
        action="store_true",
        help="save the ratings of level:N agents as the ladder's measured ratings",
    )
    p.add_argument(
        "--adjacent",
        action="store_true",
        help="only neighbouring agents play each other (a ladder's next levels)",
    )
    add_ray_option(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the round robin and report it."""
    from ..ai.tournament import ProgressBar, run_tournament

    game = load(args.game, args.rules)
    rules = game.rules
    started = time.perf_counter()
    result = run_tournament(
        game.name,
        args.agents,
        args.games,
        pool(args),
        str(rules),
        args.seed,
        args.time,
        ProgressBar(),
        adjacent=args.adjacent,
    )
    print(
        f"{game.title} ({rules}), {len(result.results)} games, {time.perf_counter() - started:.0f}s"
    )
    print(result.crosstable())
    failures = [r.failure for r in result.results if r.failure]
    for failure in failures:
        print(f"forfeit: {failure}")
    out = args.out or Path(f"tournament-{game.name}-{time.strftime('%Y%m%d-%H%M%S')}.txt")
    out.write_text("\n".join(r.record_text for r in result.results), encoding="utf-8")
    print(f"records written to {out}")
    if args.store_ratings:
        from ..ai.levels import store_ratings

        store_ratings(rules, result.level_ratings())
        print("ratings stored for the levels")
    return 0

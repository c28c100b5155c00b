"""The operator's command line: ``ludoteca tournaments create ...`` and ``ludoteca
tournaments list``, on the server's database (``--db``, else ``LUDOTECA_DB``, else the
default SQLite file).  The server's modules are imported when a command runs, not when the
command line starts."""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import sys
from typing import Any

from ...i18n import _

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add ``ludoteca tournaments create`` and ``ludoteca tournaments list`` to the command
    line's subcommands ``sub``."""
    p = sub.add_parser("tournaments", help=_("create and list the server's tournaments"))
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    made = actions.add_parser("create", help=_("create a tournament"))
    made.add_argument("--name", required=True)
    made.add_argument("--game", required=True, help=_("the game, e.g. morris"))
    made.add_argument("--rules", default=None, help=_("the rule set (default: the usual)"))
    made.add_argument("--system", required=True, choices=["swiss", "roundrobin", "arena"])
    made.add_argument("--rounds", type=int, default=None, help=_("a Swiss's rounds"))
    made.add_argument("--minutes", type=int, default=None, help=_("an arena's length"))
    made.add_argument("--clock", required=True, help=_("minutes+seconds (3+2) or days (3d)"))
    made.add_argument("--start", required=True, help=_("e.g. 2026-12-24T18:00Z"))
    made.add_argument("--max-players", type=int, default=64)
    made.add_argument("--casual", action="store_true", help=_("not rated"))
    made.add_argument("--db", default=None)
    made.set_defaults(handler=_create)
    listed = actions.add_parser("list", help=_("list the tournaments"))
    listed.add_argument("--db", default=None)
    listed.set_defaults(handler=_list)


async def _on_store(url: str | None, work: Any) -> Any:
    """``work(store)`` on the database at ``url`` (opened, upgraded, closed after)."""
    from ..services import store_only

    async with store_only(url or os.environ.get("LUDOTECA_DB")) as store:
        return await work(store)


def _create(args: argparse.Namespace) -> int:
    """Create the tournament the flags describe; its id and address on standard output, or
    what is wrong on standard error (status 2)."""
    from pydantic import ValidationError

    from ..errors import ActionError
    from ..invalid import describe
    from ..play.clock import now_ms
    from . import catalogue
    from .schemas import TournamentBody

    try:
        body = TournamentBody(
            name=args.name,
            game=args.game,
            rules=args.rules,
            clock=args.clock,
            system=args.system,
            rounds=args.rounds,
            minutes=args.minutes,
            starts=datetime.datetime.fromisoformat(args.start.replace("Z", "+00:00")),
            rated=not args.casual,
            max_players=args.max_players,
        )
        made = asyncio.run(
            _on_store(args.db, lambda store: catalogue.create(store, body, None, now_ms()))
        )
    except ValidationError as error:
        print(f"ludoteca: {describe(error)}", file=sys.stderr)
        return 2
    except (ValueError, ActionError) as error:
        print(f"ludoteca: {error}", file=sys.stderr)
        return 2
    print(f"{made}\t/tournaments/{made}")
    return 0


def _list(args: argparse.Namespace) -> int:
    """One line a tournament: id, state, start (UTC), system, players, name."""
    from . import catalogue

    briefs = asyncio.run(_on_store(args.db, catalogue.listing))
    for brief in briefs:
        start = datetime.datetime.fromtimestamp(brief.starts / 1000, datetime.UTC)
        print(
            f"{brief.id}\t{brief.state}\t{start:%Y-%m-%dT%H:%MZ}\t{brief.system}\t"
            f"{brief.players}\t{brief.name}"
        )
    return 0

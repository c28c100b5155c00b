"""``ludoteca users``: list the accounts of the server's database, grant and revoke roles
(``moderator``; see ``docs/operating.md``), make an account a bot (``bot NAME``: prints its
API token once; see ``docs/web.md``).  Each grant and revoke is in the moderation log."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .server.store import Store

__all__ = ["register"]

T = TypeVar("T")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``ludoteca users list|grant|revoke`` to the command line's subcommands."""
    p = sub.add_parser("users", help="list the accounts; grant or revoke the moderator role")
    usub = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    listing = usub.add_parser("list", help="every account, with its roles, mutes and closures")
    for name in ("grant", "revoke"):
        rp = usub.add_parser(name, help=f"{name} a role (moderator)")
        rp.add_argument("name", help="the account's name")
        rp.add_argument("role", help="moderator")
        rp.set_defaults(handler=_set_role)
    listing.set_defaults(handler=_list)
    bot = usub.add_parser("bot", help="make an account a bot: prints its API token (once)")
    bot.add_argument("name", help="the account's name")
    bot.set_defaults(handler=_make_bot)
    for one in (listing, bot, *(usub.choices[name] for name in ("grant", "revoke"))):
        one.add_argument(
            "--db",
            default=None,
            metavar="URL",
            help="the database (default: the one `ludoteca serve` uses)",
        )


def _with_store(args: argparse.Namespace, work: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``work(store)`` on the database of ``--db``, opened (and migrated) first; an
    :class:`ActionError` becomes the command's one-line error."""
    from .backup import database_url
    from .core import LudotecaError
    from .server.errors import ActionError
    from .server.services import store_only

    async def run() -> T:
        async with store_only(database_url(args.db)) as store:
            return await work(store)

    try:
        return asyncio.run(run())
    except ActionError as error:
        raise LudotecaError(error.message) from None


def _set_role(args: argparse.Namespace) -> int:
    from .server.community.moderation import set_role

    held = args.action == "grant"
    changed = _with_store(args, lambda store: set_role(store, args.name, args.role, held))
    done = "granted" if held else "revoked"
    print(f"{args.role} {done}: {args.name}" if changed else f"nothing to do: {args.name}")
    return 0


def _make_bot(args: argparse.Namespace) -> int:
    from .server.community.bots import make_bot

    token = _with_store(args, lambda store: make_bot(store, args.name))
    print(f"{args.name} is a bot; its API token (shown only now): {token}")
    return 0


def _list(args: argparse.Namespace) -> int:
    from .server.community.moderation import account_lines

    for line in _with_store(args, account_lines):
        notes = [*line.roles]
        if line.muted_until:
            notes.append(f"muted until {line.muted_until}")
        if line.closed_until:
            notes.append(f"closed until {line.closed_until}")
        print(f"{line.name}\t{line.created}\t{', '.join(notes)}")
    return 0

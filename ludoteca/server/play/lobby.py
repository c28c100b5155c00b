"""What the lobby lists: the online games waiting for a second player, and the games in play worth
watching: a game of two people (online or at one screen) from its first move, a game against
the computer once it has :data:`WATCH_PLIES` plies (a guest's game against the computer left
after a move or two is never listed)."""

from __future__ import annotations

import datetime

from sqlalchemy import ColumnElement, or_

from ..community.people import bots_among
from ..schemas import Lobby, LobbyGame, Mode, Status
from ..store import GameRow, Store
from .catalogue import rules_title
from .seats import seat

__all__ = ["lobby"]

#: the plies a game against the computer has before it is listed to watch
WATCH_PLIES = 10


async def lobby(store: Store) -> Lobby:
    """The waiting games and those in play, the most recently active first (each seat's bot
    account marked)."""
    waiting = await store.listing(Status.WAITING)
    live = await store.listing(Status.LIVE, started=True, where=_worth_watching())
    bots = await bots_among(
        store, (seat(c).user_of(row) for row in [*waiting, *live] for c in ("white", "black"))
    )
    return Lobby(
        open=[_brief(row, bots) for row in waiting], live=[_brief(row, bots) for row in live]
    )


def _worth_watching() -> ColumnElement[bool]:
    """The games in play worth watching (see the module's docstring), as a condition on rows."""
    return or_(GameRow.mode != Mode.COMPUTER.value, GameRow.ply >= WATCH_PLIES)


def _brief(row: GameRow, bots: frozenset[int]) -> LobbyGame:
    white, black = seat("white"), seat("black")
    return LobbyGame(
        id=row.id,
        game=row.game,
        rules=row.rules,
        rules_title=rules_title(row.game, row.rules),
        mode=Mode(row.mode),
        ply=row.ply,
        white=white.kind_of(row),
        black=black.kind_of(row),
        free="white" if white.token_of(row) is None else "black",
        white_name=white.display_of(row),
        black_name=black.display_of(row),
        white_bot=white.user_of(row) in bots,
        black_bot=black.user_of(row) in bots,
        clock=row.clock,
        updated=row.updated.replace(tzinfo=row.updated.tzinfo or datetime.UTC).isoformat(),
    )

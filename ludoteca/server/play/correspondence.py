"""Correspondence games: days per move (the time control ``"Nd"``, see :mod:`.clock`).

Every move gives the mover's opponent a deadline N days away (stored in the game's row with the
side it is for, in the move's own write), so a game's time is in the database, not in a timer:
the server's :meth:`Correspondence.sweep` ends the games whose deadline passed (a loss on time
for the side to move, decided as a live clock's flag is, :func:`.conduct.flag`), at start-up
(games that ran out while the server was down) and every minute after.  It ends a game through
the hub's one write path, a store write conditional on the game's ply, so that of several
processes sweeping the same game one alone ends it.  Its clock (``now``) is injectable: tests
make days pass.  Also here: each player's "your turn" list, a game's deadline as its reader sees
it, and the planned moves (:mod:`.planned`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import select

from ...i18n import _
from ..community.people import bots_among
from ..errors import ActionError
from ..schemas import Status
from ..store import GameRow
from . import conduct
from .catalogue import rules_title
from .clock import DaysPerMove
from .conduct import Change, Context
from .correspondence_schemas import Deadline, YourTurn, YourTurnGame
from .live import LiveGame
from .planned import Plans, correspondence
from .seats import SWAP, colour_name, colour_named, seat

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["SWEEP_SECONDS", "Correspondence"]

log = logging.getLogger("ludoteca.server")

#: how often the deadlines are swept (a game ends at most this late after its time ran out)
SWEEP_SECONDS = 60.0
#: the most games a your-turn list shows
YOUR_TURN = 200


class Correspondence:
    """The correspondence games of ``hub``.  It attaches itself to the hub: every change of a
    game is shown to the planned moves, and with a ``clock`` (epoch ms; a test's, to make days
    pass) the hub's intents are timed by it as well as the deadlines here (``hub.clock``);
    without one, both read the real time."""

    def __init__(self, hub: Hub, clock: Callable[[], int] | None = None) -> None:
        self.hub = hub
        if clock is not None:
            hub.clock = clock
        self.now = hub.now
        self.plans = Plans(hub)
        hub.listeners.append(self.plans.game_changed)

    async def run(self, every: float = SWEEP_SECONDS) -> None:
        """Sweep now, then every ``every`` seconds, until cancelled (runs for the server); a
        sweep that fails is logged and the next one tries again."""
        while True:
            try:
                ended = await self.sweep()
                if ended:
                    log.info("%d correspondence games ended on time", len(ended))
            except Exception:
                log.exception("the correspondence sweep failed")
            await asyncio.sleep(every)

    async def sweep(self) -> list[str]:
        """End every game in play whose deadline has passed (the side to move loses on time);
        the ids of those this process ended (not those ended or moved elsewhere first).

        The event loop serves everyone else between two games: on a SQLite file the store's
        reads and writes run at once, so a sweep ending a thousand games (tens of ms each: the
        game loaded, ended, its ratings settled) would otherwise hold the loop for the whole
        sweep, every live game's moves waiting behind it."""
        at = self.now()
        timings = self.hub.timings
        with timings.sweep("correspondence"):  # (its pass timed for /metrics)
            async with self.hub.store.session() as session:
                due = list(
                    await session.scalars(
                        select(GameRow.id)
                        .where(GameRow.status == Status.LIVE.value, GameRow.deadline <= at)
                        .order_by(GameRow.deadline)
                    )
                )
            ended = []
            for game_id in due:
                if await self._flag(game_id, at):
                    ended.append(game_id)
                await asyncio.sleep(0)  # (the loop's other work between two games: see below)
        timings.sweep_ended.observe(len(ended))
        return ended

    async def _flag(self, game_id: str, at: int) -> bool:
        """End a game whose deadline passed by ``at``, if it still has; whether this did."""
        try:
            live = await self.hub.get(game_id)
        except ActionError:
            return False
        flagged: list[bool] = []

        def decide() -> Change | None:
            deadline = live.row.deadline
            if live.row.status != Status.LIVE or deadline is None or deadline > at:
                return None  # moved or ended since the query
            flagged.append(True)
            return conduct.flag(live, Context(at))

        try:
            await self.hub.carry_out(live, decide)
        except ActionError:
            return False  # ended or moved through another process first
        return bool(flagged)

    async def your_turn(self, user: int) -> YourTurn:
        """The account's correspondence games where it is its move, soonest deadline first
        (each opponent's bot account marked)."""
        mine = ((GameRow.white_user == user) & (GameRow.to_move == "white")) | (
            (GameRow.black_user == user) & (GameRow.to_move == "black")
        )
        async with self.hub.store.session() as session:
            rows = (
                await session.scalars(
                    select(GameRow)
                    .where(GameRow.status == Status.LIVE.value, GameRow.deadline.is_not(None), mine)
                    .order_by(GameRow.deadline)
                    .limit(YOUR_TURN)
                )
            ).all()
        at = self.now()
        opponents = (seat(SWAP[row.to_move or "white"]).user_of(row) for row in rows)
        bots = await bots_among(self.hub.store, opponents)
        return YourTurn(games=[_your_game(row, at, bots) for row in rows])

    async def deadline(self, live: LiveGame, seats: frozenset[str]) -> Deadline:
        """The game's days per move and running deadline, and the lines the holder of ``seats``
        planned; 409 for a game without days per move."""
        row = live.row
        if not correspondence(live) or row.clock is None:
            raise ActionError(409, _("this game has no days per move"))
        deadline = row.deadline if row.status == Status.LIVE else None
        colour = next(iter(seats)) if len(seats) == 1 else None
        can_plan = (
            deadline is not None and colour is not None and colour != colour_name(live.state.turn)
        )
        return Deadline(
            clock=row.clock,
            days=DaysPerMove.parse(row.clock).days,
            to_move=colour_named(row.to_move) if deadline is not None else None,
            deadline=deadline,
            left=None if deadline is None else max(0, deadline - self.now()),
            lines=await self.plans.lines(live, colour) if can_plan and colour else [],
            can_plan=can_plan,
        )


def _your_game(row: GameRow, at: int, bots: frozenset[int]) -> YourTurnGame:
    colour = colour_named(row.to_move)
    assert colour is not None and row.deadline is not None and row.clock is not None
    return YourTurnGame(
        id=row.id,
        url=f"/game/{row.id}",
        game=row.game,
        rules_title=rules_title(row.game, row.rules),
        clock=row.clock,
        colour=colour,
        opponent=seat(SWAP[colour]).display_of(row),
        opponent_bot=seat(SWAP[colour]).user_of(row) in bots,
        ply=row.ply,
        deadline=row.deadline,
        left=max(0, row.deadline - at),
    )

"""Planned moves in correspondence games (lichess's conditional premoves): while its opponent
is to move, a player stores lines of alternating moves, the opponent's first ("if they play X,
I answer Y, then if they play Z, I answer W").

Each line is checked by the engine when stored (an illegal one is refused with the engine's
sentence, and nothing is stored), as is the whole set (two lines may not answer the same moves
differently).  When the opponent's move is the first move of some lines, the server plays their
answer at once through the hub's one write path and keeps the rest of those lines; a move that
matches none discards them all.  The lines are stored (``planned_lines``), so the answer
follows across restarts, and taken in one transaction, so that in a cluster one process alone
plays it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import orjson
from sqlalchemy import (
    Connection,
    ForeignKey,
    Integer,
    String,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from ...core import LudotecaError
from ...i18n import _
from .. import logs
from ..errors import ActionError
from ..schemas import Status
from ..store import Base, GameRow, StaleError
from . import conduct
from .clock import ticking
from .conduct import Change, Context
from .live import LiveGame
from .seats import colour_name

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["PlannedRow", "Plans", "check_lines"]

log = logging.getLogger("ludoteca.server")


class PlannedRow(Base):
    """One planned line of a player (``colour``) in a game: its moves, the opponent's first,
    from the position at ``ply`` (where the opponent is to move)."""

    __tablename__ = "planned_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    colour: Mapped[str] = mapped_column(String(8))
    ply: Mapped[int] = mapped_column(Integer)
    moves: Mapped[str] = mapped_column(Text)  # JSON: a list of moves in the game's notation


def correspondence(live: LiveGame) -> bool:
    """Whether a game has days per move (planned moves are for such games only)."""
    return bool(live.row.clock) and not ticking(live.row.clock)


def check_lines(live: LiveGame, lines: Sequence[Sequence[str]]) -> list[list[str]]:
    """``lines`` read by the engine from the current position, each move written as the game
    writes it; :class:`ActionError` (400) naming the line and saying what is wrong: a move the
    engine refuses (its sentence), a line without an answer to its last move, or two lines
    answering the same moves differently."""
    checked: list[list[str]] = []
    for number, line in enumerate(lines, 1):
        if not line or len(line) % 2:
            raise ActionError(
                400,
                _(
                    "line %(number)s: each of your opponent's moves needs your answer",
                    number=number,
                ),
            )
        probe = live.state.copy()
        moves = []
        for text in line:
            try:
                move = probe.parse_move(text)
            except LudotecaError as error:
                raise ActionError(
                    400, _("line %(number)s: %(error)s", number=number, error=str(error))
                ) from None
            moves.append(str(move))
            probe.push_code(move.code)
        checked.append(moves)
    answers: dict[tuple[str, ...], str] = {}
    for number, moves in enumerate(checked, 1):
        for at in range(1, len(moves), 2):
            if answers.setdefault(tuple(moves[:at]), moves[at]) != moves[at]:
                raise ActionError(
                    400,
                    _(
                        "line %(number)s answers %(move)s differently from an earlier line",
                        number=number,
                        move=moves[at - 1],
                    ),
                )
    return checked


def _last_move(live: LiveGame) -> str:
    """The last move played, as the game writes it."""
    probe = live.state.copy()
    code = probe.pop_code()
    return str(probe.move_of(code))


class Plans:
    """The planned lines of the games of ``hub`` (their answers played at the hub's time)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def lines(self, live: LiveGame, colour: str) -> list[list[str]]:
        """The lines ``colour`` planned that are still to be tried (in the order stored)."""
        async with self.hub.store.session() as session:
            rows = await session.scalars(
                select(PlannedRow.moves)
                .where(
                    PlannedRow.game_id == live.row.id,
                    PlannedRow.colour == colour,
                    PlannedRow.ply >= live.ply,
                )
                .order_by(PlannedRow.id)
            )
            return [orjson.loads(moves) for moves in rows]

    async def plan(
        self, live: LiveGame, seats: frozenset[str], lines: Sequence[Sequence[str]]
    ) -> list[list[str]]:
        """Store the lines of the holder of ``seats`` (replacing its earlier ones; none: forget
        them), checked (:func:`check_lines`); the lines as stored.  403 without a seat, 409
        unless the game is a correspondence game in play with the opponent to move (or it
        moved meanwhile); nothing is stored when refused."""
        if not seats:
            raise ActionError(403, _("you do not hold a seat in this game (watching only)"))
        if not correspondence(live):
            raise ActionError(409, _("planned moves are for games with days per move"))
        async with live.lock:
            conduct.require_live(live)
            colour = next(iter(seats))
            if colour_name(live.state.turn) == colour:
                raise ActionError(409, _("plan moves while your opponent is to move"))
            checked = check_lines(live, lines)
            game_id, ply = live.row.id, live.ply

            def work(connection: Connection) -> None:
                # the game's row, locked and checked still at this ply (a move stored meanwhile
                # through another process would leave these lines waiting for a past move)
                still = connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.ply == ply, GameRow.status == "live")
                    .values(ply=ply)
                ).rowcount
                if still != 1:
                    raise StaleError(game_id)
                _forget(connection, game_id, colour)
                _insert(connection, game_id, colour, ply, checked)

            try:
                await self.hub.store.write(work)
            except StaleError:
                raise ActionError(409, _("the game changed elsewhere; reload it")) from None
        return checked

    def game_changed(self, live: LiveGame) -> None:
        """After a change of a correspondence game (a listener of the hub's): when a move was
        played, try the lines of the side to move now (see :meth:`follow`); when the game is
        over, forget every line."""
        if correspondence(live) and (live.row.status == Status.OVER or live.ply):
            self.hub.tasks.spawn(self._follow(live))

    async def follow(self, live: LiveGame) -> str | None:
        """Take the lines of the side to move that were waiting for the last move: the answer
        of those it matches is played (the rest of them kept), the others are dropped.  The
        answer played, or None."""
        game_id = live.row.id
        if live.row.status == Status.OVER:
            await self.hub.store.write(lambda c: _forget(c, game_id, None))
            return None
        if live.row.status != Status.LIVE:
            return None
        colour, ply, last = colour_name(live.state.turn), live.ply, _last_move(live)
        try:
            answer = await self.hub.store.write(lambda c: _take(c, game_id, colour, ply, last))
        except StaleError:
            return None  # taken by another process
        if answer is None:
            return None

        def decide() -> Change | None:
            if live.ply != ply or colour_name(live.state.turn) != colour:
                return None
            return conduct.play(live, answer, ply, Context(self.hub.now()))

        try:
            await self.hub.carry_out(live, decide)
        except ActionError as error:
            log.info(
                "game %s: the planned answer %s was not played: %s",
                *(game_id, answer, error.message),
                extra=logs.game(game_id),
            )
            await self.hub.store.write(lambda c: _forget(c, game_id, colour))
            return None
        return answer

    async def _follow(self, live: LiveGame) -> None:
        await self.follow(live)


def _forget(connection: Connection, game_id: str, colour: str | None) -> None:
    """Delete the lines of ``colour`` in a game (None: of both players)."""
    where = PlannedRow.game_id == game_id
    if colour is not None:
        where &= PlannedRow.colour == colour
    connection.execute(delete(PlannedRow).where(where))


def _insert(
    connection: Connection, game_id: str, colour: str, ply: int, lines: list[list[str]]
) -> None:
    if lines:
        connection.execute(
            insert(PlannedRow),
            [
                {
                    "game_id": game_id,
                    "colour": colour,
                    "ply": ply,
                    "moves": orjson.dumps(line).decode(),
                }
                for line in lines
            ],
        )


def _take(connection: Connection, game_id: str, colour: str, ply: int, last: str) -> str | None:
    """In one transaction: delete ``colour``'s lines that waited for the move ``last`` played
    to reach ``ply`` (or for an earlier one), keep the rest of those that begin with it (after
    their answer, for the opponent's move after it) and return their answer; None if none
    matched.  :class:`StaleError` if another process took them meanwhile."""
    rows = connection.execute(
        select(PlannedRow.id, PlannedRow.ply, PlannedRow.moves).where(
            PlannedRow.game_id == game_id, PlannedRow.colour == colour, PlannedRow.ply < ply
        )
    ).all()
    if not rows:
        return None
    ids = [row.id for row in rows]
    if connection.execute(delete(PlannedRow).where(PlannedRow.id.in_(ids))).rowcount != len(ids):
        raise StaleError(game_id)
    lines: list[list[str]] = [orjson.loads(row.moves) for row in rows if row.ply == ply - 1]
    matching = [moves for moves in lines if moves[0] == last]
    if not matching:
        return None
    answer = matching[0][1]
    # the answer is played at ``ply``: the opponent's next move is the one at ``ply + 1``
    _insert(connection, game_id, colour, ply + 1, [moves[2:] for moves in matching if moves[2:]])
    return answer

"""A player's own mistakes offered back as exercises ("find the better move"), as lichess's
"learn from your mistakes" does.

**Which**: every move a signed-in player made in their :data:`GAMES` most recent finished
games (a seat held by their account; a hot-seat game of theirs counts both sides) that the
game's stored report (:mod:`.reports`, once ready) judges a blunder
(:func:`~ludoteca.study.report.judge`: a win or draw given away by a solved table's values, or
a loss of expected score of :data:`~ludoteca.study.report.BLUNDER`).  The exercise is the
position before it, for the side that blundered.

**Judged**: a move is accepted when it is the report's best move there, or of equal value
when every legal move is valued at once (:func:`better_moves`, a job of the analysis pool):
by a solved table where one covers the position, any move keeping the best move's verdict (a
win, or a draw: the blunder gave the verdict away, and a slower win still wins); else by the
search within the report's own limit, every move whose score equals the best score.  The
move played in the game is never accepted.

**Done**: an exercise solved is stored per account as a counted attempt
(``puzzle_attempts``, migration 0008: its id, made from the game and ply, never one of a
shipped puzzle's) with the player's puzzle rating unchanged: no table of its own.  A wrong
move changes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib

from sqlalchemy import Connection, insert, or_, select
from sqlalchemy.exc import IntegrityError

from ...ai.analysis import move_values, table_values
from ...ai.base import Limit
from ...ai.perfect import PerfectAgent, covering_table
from ...core import LudotecaError, State
from ...i18n import _
from ...study.report import PlyValue, assess
from ..community import glicko2
from ..community.people import User
from ..computer.computer import Computer
from ..errors import ActionError
from ..limits import RateLimit
from ..play.catalogue import from_code, rule_set, start_of
from ..schemas import Status
from ..store import GameRow, Store, now
from .analysis import board_of, position_view
from .mistake_schemas import MistakeAnswer, MistakeBrief, MistakeList, MistakeView
from .reports import Ready, Reports
from .training import ANSWERS_PER_MINUTE, PuzzleAttemptRow, PuzzlePlayerRow

__all__ = ["GAMES", "Mistakes", "better_moves", "mistake_id"]

#: the most recent finished games of a player whose blunders are offered
GAMES = 50
#: the deadline of judging a move in the analysis pool (a search within the report's limit)
JUDGE_EXPECTED = 10.0


def mistake_id(game_id: str, ply: int) -> str:
    """The id of the exercise made of the move from position ``ply`` of a game: 16 hex digits,
    as a puzzle's, from another text than any puzzle's (a rule set and a position code)."""
    return hashlib.sha256(f"mistake {game_id} {ply}".encode()).hexdigest()[:16]


def better_moves(
    game: str, rules: str, code: str, best: str | None, limit: Limit
) -> tuple[list[str], bool]:
    """The moves accepted in the position ``code`` (see the module's text; run in the
    analysis pool), in legal order, and whether a table judged them."""
    state = from_code(game, rules, code)
    table = covering_table(state)
    if table is not None:
        values = table_values(PerfectAgent(state.rules, 0, table), state)
        top = max(values.values())
        sign = (top > 0) - (top < 0)
        good = [c for c, v in values.items() if (v > 0) - (v < 0) == sign]
    else:
        values, _best = move_values(state, limit)
        top = max(values.values())
        good = [c for c, v in values.items() if v == top]
    moves = [str(state.move_of(c)) for c in good]
    if best is not None and best not in moves:
        moves.append(best)
    return moves, table is not None


class Mistakes:
    """The exercises made of players' blunders: their games in ``store``, judged by
    ``reports``' stored reports, moves valued in ``computer``'s analysis pool."""

    def __init__(self, store: Store, reports: Reports, computer: Computer) -> None:
        self.store = store
        self.reports = reports
        self.computer = computer
        self.answers = RateLimit(ANSWERS_PER_MINUTE, 60.0)

    async def _games(self, user: User, game_id: str | None = None) -> list[GameRow]:
        """The player's finished games, newest first (at most :data:`GAMES`; or the one
        ``game_id``)."""
        mine = or_(GameRow.white_user == user.id, GameRow.black_user == user.id)
        query = select(GameRow).where(mine, GameRow.status == Status.OVER, GameRow.ply > 0)
        if game_id is not None:
            query = query.where(GameRow.id == game_id[:32])
        query = query.order_by(GameRow.updated.desc(), GameRow.id).limit(GAMES)
        async with self.store.session() as session:
            return list(await session.scalars(query))

    async def _done(self, user: User) -> set[str]:
        async with self.store.session() as session:
            ids = await session.scalars(
                select(PuzzleAttemptRow.puzzle_id).where(
                    PuzzleAttemptRow.user_id == user.id, PuzzleAttemptRow.solved.is_(True)
                )
            )
            return set(ids)

    def _blunders(self, user: User, row: GameRow, report: Ready) -> list[tuple[int, PlyValue]]:
        """The positions (ply, analysis) before the player's blunders in one game."""
        verdicts, _sides = assess(report.plies)
        sides = {c for c in ("white", "black") if getattr(row, f"{c}_user") == user.id}
        return [
            (v.index, report.plies[v.index])
            for v in verdicts
            if v.judgement == "blunder" and v.side in sides
        ]

    async def exercises(self, user: User) -> MistakeList:
        """The player's exercises, newest game first (each game's in the order played)."""
        games = await self._games(user)
        ready = await self.reports.finished_of_games([row.id for row in games])
        done = await self._done(user)
        found = []
        for row in games:
            report = ready.get(row.id)
            if report is None:
                continue
            for ply, value in self._blunders(user, row, report):
                found.append(_brief(row, ply, value, done))
        return MistakeList(exercises=found, done=sum(e.done for e in found))

    async def _exercise(
        self, user: User, game_id: str, ply: int
    ) -> tuple[GameRow, PlyValue, Ready]:
        """One of the player's exercises; 404 if it is not one."""
        rows = await self._games(user, game_id)
        report = (await self.reports.finished_of_games([r.id for r in rows])).get(game_id)
        if rows and report is not None:
            for at, value in self._blunders(user, rows[0], report):
                if at == ply:
                    return rows[0], value, report
        raise ActionError(
            404, _("there is no such exercise of yours: it is made of a blunder of yours in a game")
        )

    async def view(self, user: User, game_id: str, ply: int) -> MistakeView:
        """An exercise to play: the position before the blunder, with its legal moves."""
        row, value, report = await self._exercise(user, game_id, ply)
        state = _position(row, report, ply)
        done = mistake_id(row.id, ply) in await self._done(user)
        return MistakeView(
            **dict(_brief(row, ply, value, {mistake_id(row.id, ply)} if done else set())),
            **dict(board_of(state)),
            position=position_view(state),
        )

    async def answer(
        self, user: User, address: str, game_id: str, ply: int, move: str
    ) -> MistakeAnswer:
        """Judge a move tried in an exercise: solved (stored as done) or wrong (nothing
        stored); 400 for a move that is not legal there, 429 for a flood."""
        if not self.answers.allow(address):
            raise ActionError(
                429,
                _(
                    "too many answers: at most %(count)s a minute; this one is not counted, "
                    "try again in a moment",
                    count=ANSWERS_PER_MINUTE,
                ),
            )
        row, value, report = await self._exercise(user, game_id, ply)
        state = _position(row, report, ply)
        try:
            tried = str(state.parse_move(move))
        except LudotecaError as error:
            raise ActionError(
                400,
                _(
                    "%(move)s is not a move of this position: %(why)s",
                    move=repr(move),
                    why=str(error),
                ),
            ) from None
        better, exact = await self.computer.advisers.run(
            JUDGE_EXPECTED,
            better_moves,
            *(state.game.name, str(state.rules), state.position_code(), value.best),
            self.computer.report_limit,
        )
        better = [m for m in better if m != value.played]
        exercise = mistake_id(row.id, ply)
        if tried not in better:
            done = exercise in await self._done(user)
            return MistakeAnswer(verdict="wrong", done=done, better=[], exact=exact)
        await self._mark_done(user, exercise, row.rules)
        return MistakeAnswer(verdict="solved", done=True, better=better, exact=exact)

    async def _mark_done(self, user: User, exercise: str, rules: str) -> None:
        async with self.store.session() as session:
            player = await session.get(PuzzlePlayerRow, user.id)
        rating = glicko2.NEW.rating if player is None else player.rating
        values = {
            "user_id": user.id,
            "puzzle_id": exercise,
            "rules": rules,
            "solved": True,
            "rating": rating,
            "change": 0.0,
            "at": now(),
        }
        with contextlib.suppress(IntegrityError):  # done before (another request, or again)
            await self.store.write(functools.partial(_insert_attempt, values=values))


def _insert_attempt(connection: Connection, values: dict[str, object]) -> None:
    connection.execute(insert(PuzzleAttemptRow).values(**values))


def _position(row: GameRow, report: Ready, ply: int) -> State:
    """The game's position ``ply`` (its moves replayed from its start, as the report has
    them)."""
    state = start_of(row)
    for value in report.plies[:ply]:
        assert value.played is not None
        state.push(value.played)
    return state


def _brief(row: GameRow, ply: int, value: PlyValue, done: set[str]) -> MistakeBrief:
    exercise = mistake_id(row.id, ply)
    assert value.played is not None
    return MistakeBrief(
        id=exercise,
        game_id=row.id,
        game=row.game,
        rules=row.rules,
        rules_title=_(rule_set(row.game, row.rules).rules_title),
        ply=ply,
        player="white" if value.turn == "white" else "black",
        played=value.played,
        done=exercise in done,
    )

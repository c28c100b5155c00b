"""The opening explorer: for a position of a rule set, every move played from it in the finished
games of the database, with how many games played it and how they ended, and the engine's (or a
solved table's) value of each move.

Which games count: every game that ended with a result (won, lost or drawn by the rules, by
resignation, on time or by agreement) with at least one move, from its rule set's usual start
(any random setup); rated or casual, between people or against the computer.  Abandoned games
(ended without a result) and games started from a set-up position do not count.

Positions are matched by the game's position key (:meth:`~ludoteca.core.State.position_key`: the
board, the side to move and what the rules track), so transpositions merge; a game that comes
back to a position counts once for it, and once for each different move it played there.

The index lives in memory, built from the games table: when the server starts, and afterwards
from the games finished since the last look (a game ending in this process marks the index
stale; the games other processes sharing the database finished are picked up at the latest
:data:`REFRESH` seconds later), each batch of games replayed in a thread.  The moves' values
are one job of the analysis pool per position (:func:`move_scores`), kept for the
:data:`VALUES_KEPT` positions asked for last; an answer waits for them at most
:data:`VALUE_WAIT` seconds, and says when they are still to come.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import select

from ...ai.analysis import move_values
from ...ai.base import Limit
from ...ai.perfect import covering_table
from ...ai.search import describe
from ...core import Color, LudotecaError
from ...i18n import _
from ..computer.computer import Computer
from ..errors import ActionError
from ..play.catalogue import from_code, new_state, rule_set
from ..schemas import Status
from ..store import GameRow, MoveRow, Store
from .analysis import bar_text
from .schemas import ExplorerMove, ExplorerView, MoveScore, MoveValue

if TYPE_CHECKING:
    from ..play.live import LiveGame
    from ..play.tasks import Tasks

__all__ = ["REFRESH", "VALUE_LIMIT", "Explorer", "game_positions", "move_scores", "worded"]

log = logging.getLogger("ludoteca.server")

#: the most seconds the index lags behind games finished by other server processes
REFRESH = 30.0
#: the search limit of a move's value where no solved table covers the position (a depth and
#: node limit: the same position always gets the same values)
VALUE_LIMIT = Limit(depth=8, nodes=40_000)
#: the expected seconds of a position's values job (after hints, live analysis and report
#: positions; a fresh worker process first loads the compiled search)
VALUES_EXPECTED = 10.0
#: games replayed in one job
BATCH = 200
#: the most seconds an answer waits for its moves' values
VALUE_WAIT = 2.0
#: positions whose values are worked out at once, at most (the others wait for their turn:
#: their answers come without values), so that no one floods the analysis pool
VALUING = 4
#: positions whose values are kept
VALUES_KEPT = 512
#: a game's row may be committed this long after the time it carries (``updated``): each look
#: reads the games table back this far
SLACK = datetime.timedelta(seconds=60)
RESULTS = ("1-0", "1/2-1/2", "0-1")

#: a game to index: (game, rule set, its setup where the game has one or None, moves, result)
Played = tuple[str, str, str | None, list[str], str]


def game_positions(games: list[Played]) -> list[list[tuple[Hashable, str | None]]]:
    """For each game, each position it went through (its key) with the move played from it
    (``None`` after the last move), run in a thread (moves are replayed, never searched).  A
    game the engine no longer replays gives the positions up to its first refused move."""
    found = []
    for game, rules, setup, moves, _result in games:
        state = new_state(game, rules, setup=setup)
        seen: list[tuple[Hashable, str | None]] = []
        for move in moves:
            try:
                code = state.parse_move(move).code
            except LudotecaError:
                break
            seen.append((state.position_key(), move))
            state.push_code(code)
        else:
            seen.append((state.position_key(), None))
        found.append(seen)
    return found


def move_scores(game: str, rules: str, code: str, limit: Limit) -> dict[str, MoveScore]:
    """Every legal move's value in the position ``code``, by notation (run in the analysis
    pool, in no reader's language): ``score`` for the mover after it and ``exact`` (from a
    solved table); :func:`worded` says it in words."""
    state = from_code(game, rules, code)
    if state.outcome() is not None:
        return {}
    exact = covering_table(state) is not None
    values, _found = move_values(state, limit)
    return {
        str(state.move_of(move)): {"score": score, "exact": exact} for move, score in values.items()
    }


def worded(value: MoveScore, turn: Color) -> MoveValue:
    """A move's value (:func:`move_scores`) for ``turn``, the side that plays it, with ``bar``
    (the evaluation bar's text for White) and ``text`` (in words), in the current language."""
    score, exact = value["score"], value["exact"]
    text = describe(score, turn) if score or not exact else _("a draw with best play")
    return MoveValue(score=score, bar=bar_text(score, turn, exact), text=text, exact=exact)


@dataclass
class Tally:
    """The games that reached a position, or played a move from it, by result."""

    white: int = 0
    draws: int = 0
    black: int = 0

    def add(self, result: str) -> None:
        if result == "1-0":
            self.white += 1
        elif result == "0-1":
            self.black += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.white + self.draws + self.black


@dataclass
class Node:
    """A position of the index: its games, and the moves played from it."""

    reached: Tally = field(default_factory=Tally)
    moves: dict[str, Tally] = field(default_factory=dict)


class Explorer:
    """The explorer's index of the games in ``store``; moves are valued in ``computer``'s
    analysis pool, each position's job one of ``tasks`` while it runs (cancelled when the
    server stops)."""

    def __init__(self, store: Store, computer: Computer, tasks: Tasks) -> None:
        self.store = store
        self.computer = computer
        self.tasks = tasks
        self.nodes: dict[tuple[str, Hashable], Node] = {}
        self.indexed: set[str] = set()  # the ids of the games counted
        self.games = 0
        self._since: datetime.datetime | None = None  # games updated before are all looked at
        self._looked = -REFRESH  # when (monotonic) the games table was last looked at
        self._stale = True
        self._lock = asyncio.Lock()
        self._values: OrderedDict[tuple[str, Hashable], dict[str, MoveScore]] = OrderedDict()
        self._valuing: dict[tuple[str, Hashable], asyncio.Task[dict[str, MoveScore]]] = {}

    def game_changed(self, live: LiveGame) -> None:
        """A game changed: once it is over, the index is looked at again when next asked."""
        if live.row.status == Status.OVER and live.row.id not in self.indexed:
            self._stale = True

    async def refresh(self) -> None:
        """Count the games finished since the last look, when the index is stale (as it is
        when the server starts) or was last brought up to date :data:`REFRESH` seconds ago or
        more."""
        async with self._lock:
            if not (self._stale or time.monotonic() - self._looked >= REFRESH):
                return
            self._stale = False
            self._looked = time.monotonic()
            rows, moves = await self._finished()
            for start in range(0, len(rows), BATCH):
                batch = rows[start : start + BATCH]
                games: list[Played] = [
                    (row.game, row.rules, row.setup, moves.get(row.id, []), row.result)
                    for row in batch
                ]
                seen = await asyncio.to_thread(game_positions, games)
                for row, played, positions in zip(batch, games, seen, strict=True):
                    self._count(row.id, row.rules, played[4], positions)

    async def _finished(self) -> tuple[list[GameRow], dict[str, list[str]]]:
        """The games that count updated since the last look, not yet indexed, and their
        moves."""
        began = datetime.datetime.now(datetime.UTC)
        query = select(GameRow).where(
            GameRow.status == Status.OVER,
            GameRow.ply > 0,
            GameRow.result.in_(RESULTS),
            GameRow.position.is_(None),
        )
        if self._since is not None:
            query = query.where(GameRow.updated >= self._since - SLACK)
        async with self.store.session() as session:
            rows = [row for row in await session.scalars(query) if row.id not in self.indexed]
            moves: dict[str, list[str]] = {}
            for start in range(0, len(rows), BATCH):
                ids = [row.id for row in rows[start : start + BATCH]]
                found = await session.execute(
                    select(MoveRow.game_id, MoveRow.move)
                    .where(MoveRow.game_id.in_(ids))
                    .order_by(MoveRow.game_id, MoveRow.ply)
                )
                for game_id, move in found:
                    moves.setdefault(game_id, []).append(move)
        self._since = began
        return rows, moves

    def _count(
        self, game_id: str, rules: str, result: str, positions: list[tuple[Hashable, str | None]]
    ) -> None:
        if game_id in self.indexed:
            return
        self.indexed.add(game_id)
        self.games += 1
        reached: set[Hashable] = set()
        played: set[tuple[Hashable, str]] = set()
        for key, move in positions:
            node = self.nodes.setdefault((rules, key), Node())
            if key not in reached:
                reached.add(key)
                node.reached.add(result)
            if move is not None and (key, move) not in played:
                played.add((key, move))
                node.moves.setdefault(move, Tally()).add(result)

    async def view(self, game: str, rules: str | None, position: str | None) -> ExplorerView:
        """The explorer's answer for a position code (``None``: the rule set's usual start) of
        a rule set: its games and results, and each move played from it (most played first)
        with its games, results and value (``valued`` false, and no value, while the values
        are still worked out: ask again); 400 with the reason if the rule set or position is
        not one."""
        try:
            bound = rule_set(game, rules)
            state = bound.from_position_code(position) if position else bound.new(seed=0)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        await self.refresh()
        spec = str(bound.rules)
        key = (spec, state.position_key())
        node = self.nodes.get(key, Node())
        code = state.position_code()
        values = await self._valued(key, bound.name, spec, code) if node.moves else {}
        moves = [
            ExplorerMove(
                move=move,
                **_tally(tally),
                value=worded(values[move], state.turn) if values and move in values else None,
            )
            for move, tally in sorted(node.moves.items(), key=lambda item: -item[1].games)
        ]
        return ExplorerView(
            game=bound.name,
            rules=spec,
            position=code,
            **_tally(node.reached),
            moves=moves,
            valued=values is not None,
        )

    async def _valued(
        self, key: tuple[str, Hashable], game: str, rules: str, code: str
    ) -> dict[str, MoveScore] | None:
        """The moves' values of a position, waiting for them at most :data:`VALUE_WAIT`
        seconds (``None`` then: they are still worked out, and kept when found; or, with
        :data:`VALUING` positions under way already, not yet asked for)."""
        values = self._values.get(key)
        if values is not None:
            self._values.move_to_end(key)
            return values
        task = self._valuing.get(key)
        if task is None:
            if len(self._valuing) >= VALUING:
                return None
            task = asyncio.get_running_loop().create_task(
                self.computer.advisers.run(
                    VALUES_EXPECTED, move_scores, game, rules, code, VALUE_LIMIT
                )
            )
            self._valuing[key] = task
            self.tasks.track(task)
            task.add_done_callback(lambda done: self._valued_now(key, done))
        try:
            return await asyncio.wait_for(asyncio.shield(task), VALUE_WAIT)
        except TimeoutError:
            return None

    def _valued_now(
        self, key: tuple[str, Hashable], task: asyncio.Task[dict[str, MoveScore]]
    ) -> None:
        """Keep a position's values once found (a failed job is asked again next time)."""
        del self._valuing[key]
        if task.cancelled():
            return
        if task.exception() is not None:
            log.warning("the explorer's values of a position failed: %s", task.exception())
            return
        self._values[key] = task.result()
        while len(self._values) > VALUES_KEPT:
            self._values.popitem(last=False)


def _tally(tally: Tally) -> dict[str, int]:
    return {"games": tally.games, "white": tally.white, "draws": tally.draws, "black": tally.black}

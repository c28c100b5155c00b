"""The computer's work for live games: its moves, players' hints and game reviews, each in
worker processes through a :class:`~.scheduler.Scheduler` (moves in their own pool; hints,
reviews and record replays in another), with the answers that never change kept."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Any

from prometheus_client import CollectorRegistry

from ...ai.agents import Limit, parse_spec
from ...ai.levels import levels
from ...core import RuleSet
from .. import logs
from ..errors import ActionError
from ..play.live import LiveGame
from ..play.seats import colour_name
from ..schemas import Mode, Status
from . import workers
from .queue import JobQueue
from .scheduler import JobMetrics, Scheduler

__all__ = ["HINT_SECONDS", "REVIEW_LIMIT", "Computer"]

log = logging.getLogger("ludoteca.server")

HINT_SECONDS = 1.0
REVIEW_LIMIT = Limit(seconds=0.2)  # per position
REVIEWS_KEPT = 512  # reviews of finished games kept in memory
REVIEW_EXPECTED = 5.0  # seconds added to a review's deadline, so that hints go first
REPLAY_EXPECTED = 0.5  # seconds: a record replay goes after hints, before reviews
QUICK_MOVE = 0.1  # the expected thinking time of a level without a time limit


class Computer:
    """The computer's moves in ``pool`` (``slots`` processes), or on the Redis ``queue`` for
    ``ludoteca worker`` processes when given; hints, reviews (each position analysed within
    ``review_limit``) and replays in ``analysis`` (one process; default: ``pool``), so that
    what people ask for never queues in front of a computer move.  Metrics go to
    ``registry``."""

    def __init__(
        self,
        pool: Executor,
        slots: int = 1,
        analysis: Executor | None = None,
        review_limit: Limit = REVIEW_LIMIT,
        registry: CollectorRegistry | None = None,
        queue: JobQueue | None = None,
    ) -> None:
        jobs = JobMetrics(registry or CollectorRegistry())
        self.thinkers: Scheduler | JobQueue = queue or Scheduler(pool, slots, "moves", jobs)
        self.advisers = Scheduler(analysis or pool, 1, "analysis", jobs)
        self.review_limit = review_limit
        #: the reviews of finished games, newest last (they never change)
        self._reviews: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    async def move(self, live: LiveGame) -> str:
        """The move (its notation) of the computer player whose turn it is."""
        row = live.row
        moves = [str(live.state.move_of(c)) for c in live.state.move_stack]
        spec = live.kind(live.state.turn)
        return await self.thinkers.run(
            think_time(spec, live.state.rules),
            workers.computer_move,
            row.game,
            row.rules,
            live.state.start,
            moves,
            spec,
            secrets.randbits(31),
        )

    async def hint(self, live: LiveGame, seats: frozenset[str]) -> dict[str, Any]:
        """The computer's advice for the side to move, for the holder of ``seats`` in a
        computer game."""
        if live.row.mode != Mode.COMPUTER or not seats:
            raise ActionError(403, "hints are for the player of a game against the computer")
        if live.row.status != Status.LIVE or colour_name(live.state.turn) not in seats:
            raise ActionError(409, "a hint is for your own turn in a game in play")
        pending = live.hint
        if (
            pending is None
            or pending[0] != live.version
            or (pending[1].done() and pending[1].exception() is not None)
        ):
            # one hint a position: asking again while it is worked out waits for the same one;
            # one hint a game: a hint still waiting for an older position is dropped
            if pending is not None and not pending[1].done():
                pending[1].cancel()
            row = live.row
            moves = [str(live.state.move_of(c)) for c in live.state.move_stack]
            pending = (
                live.version,
                asyncio.ensure_future(
                    self.advisers.run(
                        HINT_SECONDS,
                        workers.hint,
                        row.game,
                        row.rules,
                        live.state.start,
                        moves,
                        HINT_SECONDS,
                    )
                ),
            )
            live.hint = pending
        return await asyncio.shield(pending[1])

    async def replay(self, text: str) -> dict[str, Any]:
        """Every position of a text record from its start, for stepping through it (worked out
        in the analysis process: a long record never holds up the server); 400 if the record is
        malformed or illegal."""
        answer = await self.advisers.run(REPLAY_EXPECTED, workers.replay_record, text)
        if "error" in answer:
            raise ActionError(400, answer["error"])
        return answer

    async def review(self, live: LiveGame) -> list[dict[str, Any]]:
        """The mistakes of a finished game (worked out once)."""
        game_id = live.row.id
        if live.row.status != Status.OVER:
            raise ActionError(409, "games are analysed once they are over")
        if game_id in self._reviews:
            self._reviews.move_to_end(game_id)
            return self._reviews[game_id]
        if live.review is None:
            row = live.row
            moves = [str(live.state.move_of(c)) for c in live.state.move_stack]
            # after hints: a review's deadline is set by its length
            expected = REVIEW_EXPECTED + len(moves) * (self.review_limit.seconds or 0.2)
            live.review = asyncio.ensure_future(
                self.advisers.run(
                    expected,
                    workers.review_game,
                    row.game,
                    row.rules,
                    live.state.start,
                    moves,
                    self.review_limit,
                )
            )
        try:
            mistakes = await asyncio.shield(live.review)
        except Exception:
            live.review = None
            log.exception("review of game %s failed", game_id, extra=logs.game(game_id))
            raise ActionError(500, "the analysis failed; try again") from None
        self._reviews[game_id] = mistakes
        while len(self._reviews) > REVIEWS_KEPT:
            self._reviews.popitem(last=False)
        return mistakes


def think_time(spec: str, rules: RuleSet) -> float:
    """How long the computer player ``spec`` ("level:N") is expected to think on a move."""
    kind, options = parse_spec(spec)
    if kind == "level":
        kind, options = parse_spec(levels(rules)[int(options["level"]) - 1].spec)
    return float(options.get("time", QUICK_MOVE))

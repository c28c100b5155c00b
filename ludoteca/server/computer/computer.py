"""The computer's work for live games: its moves, players' hints and the positions of game
reports, each in worker processes through a :class:`~.scheduler.Scheduler` (moves in their own
pool; hints, the analysis board and record replays in another; report positions in a third)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures import Executor

from prometheus_client import CollectorRegistry

from ...ai.base import Limit, parse_spec
from ...ai.levels import levels, within
from ...core import RuleSet
from ...i18n import _, current
from ...study.report import REPORT_LIMIT
from .. import logs
from ..errors import ActionError
from ..play.clock import TimeControl, now_ms
from ..play.live import LiveGame
from ..play.seats import colour_name
from ..schemas import HintView, Mode, Replay, Status
from . import workers
from .interrupt import Interrupts
from .pool import JobKilled
from .queue import JobQueue
from .scheduler import HARD_GRACE, JobMetrics, Scheduler

__all__ = ["HINT_SECONDS", "REPLAYS_PER_CLIENT", "REPLAY_EXPECTED", "Computer"]

log = logging.getLogger("ludoteca.server")

HINT_SECONDS = 1.0
REPLAY_EXPECTED = 0.5  # seconds: a record replay goes after hints, before report positions
REPLAYS_PER_CLIENT = 2  # record replays one client address may have worked out at once
QUICK_MOVE = 0.1  # the expected thinking time of a level without a time limit
#: on a clock, the computer thinks at most this share of its time left (plus most of the
#: increment) a move, and at least MIN_THINK seconds
CLOCK_SHARE, MIN_THINK = 30, 0.05


#: the player whose move replaces a killed one: a one-ply readable search, which answers at once
#: even in the fresh process that replaced the killed one (the compiled search would first be
#: loaded there, for seconds)
FALLBACK = "search:depth=1,python=1"


class Computer:
    """The computer's moves in ``pool`` (``slots`` processes), or on the Redis ``queue`` for
    ``ludoteca worker`` processes when given; hints, the analysis board and replays in
    ``analysis`` (one process; default: ``pool``), so that what people ask for never queues in
    front of a computer move; the positions of game reports (each analysed within
    ``report_limit``) in ``reports`` (``reporters``: one process, default: ``analysis``), so that
    a report never queues in front of a hint or an analysis-board depth.  Metrics go to
    ``registry``; ``interrupts`` stop the running analysis-board job of ``analysis`` when
    its asker goes (:mod:`.interrupt`)."""

    def __init__(
        self,
        pool: Executor,
        slots: int = 1,
        analysis: Executor | None = None,
        report_limit: Limit = REPORT_LIMIT,
        registry: CollectorRegistry | None = None,
        queue: JobQueue | None = None,
        grace: float = HARD_GRACE,
        reports: Executor | None = None,
        interrupts: Interrupts | None = None,
    ) -> None:
        jobs = JobMetrics(registry or CollectorRegistry())
        self.thinkers: Scheduler | JobQueue = queue or Scheduler(pool, slots, "moves", jobs, grace)
        self.advisers = Scheduler(analysis or pool, 1, "analysis", jobs, grace)
        self.reporters = Scheduler(reports or analysis or pool, 1, "reports", jobs, grace)
        #: how to stop a running analysis-board job (None: ``analysis`` cannot be told)
        self.interrupts = interrupts
        self.report_limit = report_limit
        #: per client address, its record replays being worked out
        self._replays: dict[str, int] = {}

    async def move(self, live: LiveGame) -> str:
        """The move (its notation) of the computer player whose turn it is; if its job is
        killed at its hard deadline, the move of :data:`FALLBACK` instead (logged)."""
        spec = live.kind(live.state.turn)
        try:
            return await self._move(live, spec)
        except JobKilled as killed:
            log.warning(
                "game %s: the move of %s was killed (%s); playing %s instead",
                live.row.id,
                spec,
                killed,
                FALLBACK,
                extra=logs.game(live.row.id),
            )
            return await self._move(live, FALLBACK)

    async def _move(self, live: LiveGame, spec: str) -> str:
        row = live.row
        moves = [str(live.state.move_of(c)) for c in live.state.move_stack]
        if row.clock and row.clock_started is not None:  # its clock runs: it spends a share
            increment = TimeControl.parse(row.clock).increment_ms
            share = live.time_left(live.state.turn, now_ms()) / CLOCK_SHARE + increment * 0.8
            spec = within(spec, live.state.rules, max(MIN_THINK, share / 1000))
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

    async def hint(self, live: LiveGame, seats: frozenset[str]) -> HintView:
        """The computer's advice for the side to move, for the holder of ``seats`` in a
        computer game."""
        if live.row.mode != Mode.COMPUTER or not seats:
            raise ActionError(403, _("hints are for the player of a game against the computer"))
        if live.row.status != Status.LIVE or colour_name(live.state.turn) not in seats:
            raise ActionError(409, _("a hint is for your own turn in a game in play"))
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
                    self._advice(row.game, row.rules, live.state.start, moves, current())
                ),
            )
            live.hint = pending
        return await asyncio.shield(pending[1])

    async def _advice(
        self, game: str, rules: str, start: str, moves: list[str], language: str
    ) -> HintView:
        """A hint worked out by an adviser (see :func:`.workers.hint`), checked."""
        found = await self.advisers.run(
            HINT_SECONDS, workers.hint, game, rules, start, moves, HINT_SECONDS, language
        )
        return HintView.model_validate(found)

    async def replay(self, text: str, client: str) -> Replay:
        """Every position of a text record from its start, for stepping through it (worked out
        in the analysis process: a long record never holds up the server), for the address
        ``client``; 400 if the record is malformed or illegal, 429 if that address already has
        :data:`REPLAYS_PER_CLIENT` replays being worked out.  (Hints need no such cap: one a
        game at a time, for the player of a computer game, whose games an address may have
        only so many of.)"""
        if self._replays.get(client, 0) >= REPLAYS_PER_CLIENT:
            raise ActionError(429, _("too many records being replayed at once; wait for them"))
        self._replays[client] = self._replays.get(client, 0) + 1
        try:
            answer = await self.advisers.run(
                REPLAY_EXPECTED, workers.replay_record, text, current()
            )
        finally:
            self._replays[client] -= 1
            if not self._replays[client]:
                del self._replays[client]
        if "error" in answer:
            raise ActionError(400, str(answer["error"]))
        return Replay.model_validate(answer)


def think_time(spec: str, rules: RuleSet) -> float:
    """How long the computer player ``spec`` ("level:N") is expected to think on a move."""
    kind, options = parse_spec(spec)
    if kind == "level":
        kind, options = parse_spec(levels(rules)[int(options["level"]) - 1].spec)
    return float(options.get("time", QUICK_MOVE))

"""Game reports, computed once and stored: every position of a finished game (or of an imported
record) analysed in the computer's analysis pool, one stored row a position, served to everyone
who opens the game afterwards (see :mod:`ludoteca.study.report` for the figures).

A report is a row of ``reports`` (keyed ``game-ID`` for a game, ``record-SHA256`` of its rule
set, start and moves for a record) with its status: ``pending``, ``running`` (claimed by one
server process, whose claim lasts :data:`LEASE` after its last stored position), ``ready``, or
``failed`` (an analysis raised; tried again when next asked for, and at start-up).
A report somebody asks for (a record's, or a game's whose report is opened) is computed at
once; the reports made because a game ended (nobody waits for them) are made one at a time,
oldest first, each of their jobs waiting while an asked report is being made.  At most
:data:`BACKLOG` of them wait in memory, the others as pending rows, read again once the backlog
is done, so that a server whose games end faster than its report process thinks holds a
bounded queue.
Only the process whose claim is stored computes: several processes asked for the same report
compute it once; a claim left by a process that died lapses, and whoever asks next (or a
restarted server) takes it over and computes only the positions still missing.  Reports are
computed in the computer's report process (``Computer.reporters``: its own process at the
lowest priority), so a report never waits in front of a hint or an analysis-board depth, and
thinks only with what the computer's moves leave of the processors: a first job answers the
positions a solved table covers (loading the parts of the tables they need, which can take tens
of seconds), then each run of :data:`RUN` positions (plies 0-9, 10-19, ...) is one job, searched
in order by one agent that keeps its transposition table from a position to the next
(:func:`~ludoteca.study.report.analyse_run`), and stored at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import hashlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, func, insert, select
from sqlalchemy import update as sql_update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...ai.analysis import share_for_white
from ...core import Color
from ...i18n import _, current
from ...study.report import PlyValue, assess
from ..computer import workers
from ..computer.computer import REPLAY_EXPECTED, Computer
from ..errors import ActionError
from ..schemas import Status
from ..store import Base, GameRow, Store, now
from .analysis import bar_text
from .schemas import GameReport, ReportPly

if TYPE_CHECKING:
    from ..play.live import LiveGame

__all__ = ["LEASE", "Ready", "ReportPlyRow", "ReportRow", "Reports", "game_key", "record_key"]

log = logging.getLogger("ludoteca.server")

#: how long a claim on a report lasts after its last stored position
LEASE = datetime.timedelta(seconds=120)
#: the expected time of one searched position (the report process has its own queue: this
#: orders reports among themselves and sets a job's hard deadline)
PLY_EXPECTED = 5.0
#: the positions searched in one job, in order by one agent that keeps its transposition
#: table from one to the next (a report's runs start at plies 0, RUN, 2 RUN...)
RUN = 10
#: the expected time of the job answering a report's positions from the solved tables: this
#: much, plus :data:`EXACT_EXPECTED` a position
TABLES_EXPECTED = 30.0
EXACT_EXPECTED = 1.5
#: finished reports kept in memory, ready to serve (they never change)
REPORTS_KEPT = 256
#: the reports nobody has asked for (made because their game ended) waiting in memory
BACKLOG = 1000
REFILL_PAUSE = 5.0  # seconds before the pending reports are read again after a failure
#: at start-up, finished games this recent without a report get one
RECENT = datetime.timedelta(days=1)


class ReportRow(Base):
    """A report: what is analysed, how far it has got and who computes it."""

    __tablename__ = "reports"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True, index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    start: Mapped[str] = mapped_column(String(400))
    moves: Mapped[str] = mapped_column(Text)  # JSON: the moves' notations
    total: Mapped[int] = mapped_column(Integer)  # positions: moves + 1
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | running | ready
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    claimed_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ReportPlyRow(Base):
    """One analysed position of a report (see :class:`~ludoteca.study.report.PlyValue`)."""

    __tablename__ = "report_plies"

    key: Mapped[str] = mapped_column(
        ForeignKey("reports.key", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    white: Mapped[int] = mapped_column(Integer)
    exact: Mapped[bool] = mapped_column(Boolean)
    turn: Mapped[str] = mapped_column(String(8))
    best: Mapped[str | None] = mapped_column(String(200), nullable=True)
    line: Mapped[str] = mapped_column(Text)
    best_touches: Mapped[str] = mapped_column(Text)
    played: Mapped[str | None] = mapped_column(String(200), nullable=True)
    played_touches: Mapped[str] = mapped_column(Text)


JSON_FIELDS = ("line", "best_touches", "played_touches")


def game_key(game_id: str) -> str:
    return f"game-{game_id}"


def record_key(rules: str, start: str, moves: list[str]) -> str:
    """A record's report key: the hash of what it plays (its tags aside)."""
    content = json.dumps([rules, start, moves]).encode()
    return f"record-{hashlib.sha256(content).hexdigest()}"


def _ply_of(row: ReportPlyRow) -> PlyValue:
    return PlyValue(
        row.white,
        row.exact,
        row.turn,
        row.best,
        json.loads(row.line),
        json.loads(row.best_touches),
        row.played,
        json.loads(row.played_touches),
    )


def _ply_row(key: str, ply: int, value: PlyValue) -> dict[str, object]:
    """The stored row of a report's position (its lists as JSON text)."""
    fields = dataclasses.asdict(value)
    return {"key": key, "ply": ply} | {
        k: json.dumps(v) if k in JSON_FIELDS else v for k, v in fields.items()
    }


def _shown(value: PlyValue) -> ReportPly:
    """A position's analysis with its value as the bar writes it (in the current language)
    and White's share."""
    text = bar_text(value.white, Color.WHITE, value.exact)
    share = round(share_for_white(value.white, Color.WHITE), 3)
    return ReportPly(**dataclasses.asdict(value), text=text, share=share)


@dataclasses.dataclass(frozen=True)
class Ready:
    """A finished report: its positions, the game and rule set they are of, and the analysis
    of each position."""

    total: int
    game: str
    rules: str
    plies: list[PlyValue]

    def view(self) -> GameReport:
        """The report as :meth:`Reports.view` answers it, in the current language: every
        position's value (with its text and White's share), best move and line; every move's
        verdict; each side's figures."""
        verdicts, sides = assess(self.plies)
        return GameReport(
            status="ready",
            done=self.total,
            total=self.total,
            game=self.game,
            rules=self.rules,
            plies=[_shown(value) for value in self.plies],
            moves=verdicts,
            sides=sides,
        )


class Reports:
    """The reports of this server process: computed in ``computer``'s report process within
    ``computer.report_limit`` a position, stored in ``store``; ``spawn`` runs background work
    (cancelled when the server stops)."""

    def __init__(
        self, store: Store, computer: Computer, spawn: Callable[[Awaitable[None]], None]
    ) -> None:
        self.store = store
        self.computer = computer
        self.spawn = spawn
        self.me = secrets.token_hex(8)
        self.running: set[str] = set()  # reports this process is computing
        self.asked: set[str] = set()  # reports somebody asked for, until they are made
        # reports nobody asked for, in the order they are made; more in the database when
        # _overflow is set
        self.backlog: OrderedDict[str, None] = OrderedDict()
        self._overflow = False
        self._more = asyncio.Event()  # the backlog has a report again
        self._serving = False  # the backlog's loop runs
        self._calm = asyncio.Event()  # no report somebody asked for is being made
        self._calm.set()
        self._seen: set[str] = set()  # finished games whose report is known to exist
        # finished reports: what they say in any language, their texts aside
        self._ready: OrderedDict[str, Ready] = OrderedDict()

    # --- asked for ------------------------------------------------------------------------------
    def game_changed(self, live: LiveGame) -> None:
        """A game changed (or was loaded): once it is over with a move, its report is made."""
        row = live.row
        if row.status == Status.OVER and live.ply and row.id not in self._seen:
            self._seen.add(row.id)
            self.spawn(self._ensure_game(live))

    async def ensure_game(self, live: LiveGame, asked: bool = True) -> str:
        """The key of a finished game's report, which is stored and under way if it was not
        (``asked``: somebody waits for it)."""
        state = live.state
        moves = [str(state.move_of(c)) for c in state.move_stack]
        key = game_key(live.row.id)
        row = live.row
        await self._ensure(key, row.id, row.game, row.rules, state.start, moves, asked=asked)
        return key

    async def _ensure_game(self, live: LiveGame) -> None:
        await self.ensure_game(live, asked=False)

    async def for_game(self, live: LiveGame) -> GameReport:
        """A game's report (its status and progress until it is ready); 409 while the game is
        in play or when it has no move."""
        if live.row.status != Status.OVER:
            raise ActionError(409, _("games are analysed once they are over"))
        if not live.ply:
            raise ActionError(409, _("a game without a move has nothing to analyse"))
        self._seen.add(live.row.id)
        return await self.view(await self.ensure_game(live))

    async def for_record(self, text: str) -> GameReport:
        """The report of a text record (its ``key``, then as :meth:`view`); 400 with the reason
        if the record is malformed or illegal (and then nothing is stored)."""
        line = await self.computer.advisers.run(
            REPLAY_EXPECTED, workers.record_line, text, current()
        )
        if "error" in line:
            raise ActionError(400, line["error"])
        if not line["moves"]:
            raise ActionError(400, _("the record has no move to analyse"))
        key = record_key(line["rules"], line["start"], line["moves"])
        await self._ensure(key, None, line["game"], line["rules"], line["start"], line["moves"])
        view = await self.view(key)
        view.key = key
        return view

    async def view(self, key: str) -> GameReport:
        """A report by its key: ``status`` (``pending``, ``running``, ``ready``, or ``failed``:
        tried again when it is next asked to be made, or at the next start), ``done`` and
        ``total`` positions, and once ready the report itself; 404 if there is none.  A report
        whose claim has lapsed is taken over."""
        ready = self._ready.get(key)
        if ready is not None:
            self._ready.move_to_end(key)
            return ready.view()
        async with self.store.session() as session:
            row = await session.get(ReportRow, key)
            if row is None:
                raise ActionError(404, _("no report %(key)s", key=key))
            if row.status != "ready":
                done = (
                    await session.execute(select(func.count()).where(ReportPlyRow.key == key))
                ).scalar_one()
                if key in self.running or self._lapsed(row):  # made here: at once
                    self._ask(key)
                    self._kick(key)
                return GameReport.model_validate(
                    {"status": row.status, "done": done, "total": row.total}
                )
            plies = list(
                await session.scalars(
                    select(ReportPlyRow).where(ReportPlyRow.key == key).order_by(ReportPlyRow.ply)
                )
            )
        ready = Ready(row.total, row.game, row.rules, [_ply_of(p) for p in plies])
        self._ready[key] = ready
        while len(self._ready) > REPORTS_KEPT:
            self._ready.popitem(last=False)
        return ready.view()

    async def finished_of_games(self, game_ids: list[str]) -> dict[str, Ready]:
        """The ready reports of the games ``game_ids`` (by game id; a game without one, or
        whose report is not ready, is left out), read from the store in one query each for
        the reports and their positions."""
        if not game_ids:
            return {}
        async with self.store.session() as session:
            rows = list(
                await session.scalars(
                    select(ReportRow).where(
                        ReportRow.game_id.in_(game_ids), ReportRow.status == "ready"
                    )
                )
            )
            plies: dict[str, list[PlyValue]] = {row.key: [] for row in rows}
            found = await session.scalars(
                select(ReportPlyRow)
                .where(ReportPlyRow.key.in_(list(plies)))
                .order_by(ReportPlyRow.key, ReportPlyRow.ply)
            )
            for ply in found:
                plies[ply.key].append(_ply_of(ply))
        return {
            str(row.game_id): Ready(row.total, row.game, row.rules, plies[row.key])
            for row in rows
            if len(plies[row.key]) == row.total
        }

    async def resume(self, load: Callable[[str], Awaitable[object]]) -> None:
        """Take up the reports left unfinished (by this process before a restart, or by one
        that died) and make those of the games finished recently without one (``load``-ing
        each game makes its report)."""
        async with self.store.session() as session:
            keys = list(
                await session.scalars(select(ReportRow.key).where(ReportRow.status != "ready"))
            )
            missing = list(
                await session.scalars(
                    select(GameRow.id).where(
                        GameRow.status == Status.OVER,
                        GameRow.ply > 0,
                        GameRow.updated > now() - RECENT,
                        GameRow.id.not_in(
                            select(ReportRow.game_id).where(ReportRow.game_id.is_not(None))
                        ),
                    )
                )
            )
        for key in keys:
            self._queue(key)
        for game_id in missing:
            with contextlib.suppress(ActionError):  # (logged) the others carry on
                await load(game_id)

    # --- computing ------------------------------------------------------------------------------
    async def _ensure(
        self,
        key: str,
        game_id: str | None,
        game: str,
        rules: str,
        start: str,
        moves: list[str],
        asked: bool = True,
    ) -> None:
        if key in self._ready:
            return
        values = {
            "key": key,
            "game_id": game_id,
            "game": game,
            "rules": rules,
            "start": start,
            "moves": json.dumps(moves),
            "total": len(moves) + 1,
            "status": "pending",
            "created": now(),
        }
        with contextlib.suppress(IntegrityError):  # stored already (here or elsewhere)
            await self.store.write(lambda c: c.execute(insert(ReportRow).values(**values)))
        if asked:
            self._ask(key)
            self._kick(key)
        else:
            self._queue(key)

    def _ask(self, key: str) -> None:
        """Somebody waits for the report ``key``: its jobs go first, and it leaves the
        backlog (to be computed at once, by :meth:`_kick`)."""
        self.asked.add(key)
        self.backlog.pop(key, None)

    def _queue(self, key: str) -> None:
        """Put the report ``key``, which nobody has asked for, in the backlog (or leave it to
        the database, when the backlog is full)."""
        if key in self.running or key in self.backlog:
            return
        if len(self.backlog) >= BACKLOG:
            self._overflow = True
        else:
            self.backlog[key] = None
        self._more.set()
        if not self._serving:
            self._serving = True
            self.spawn(self._serve_backlog())

    async def _serve_backlog(self) -> None:
        """Make the backlog's reports one at a time, oldest first, for as long as the server
        runs; once it is empty, the pending reports only the database holds (oldest first)."""
        while True:
            if not self.backlog and self._overflow:
                try:
                    await self._refill()
                except Exception:  # the database is unreachable: try again later
                    log.exception("the pending reports could not be read")
                    await asyncio.sleep(REFILL_PAUSE)
                    continue
            if not self.backlog:
                self._more.clear()
                await self._more.wait()
                continue
            key, _ = self.backlog.popitem(last=False)
            if key not in self.running:
                self.running.add(key)
                await self._run(key)

    async def _refill(self) -> None:
        async with self.store.session() as session:
            keys = list(
                await session.scalars(
                    select(ReportRow.key)
                    .where(ReportRow.status == "pending")
                    .order_by(ReportRow.created)
                    .limit(BACKLOG + 1)
                )
            )
        for key in keys[:BACKLOG]:
            if key not in self.running:
                self.backlog[key] = None
        self._overflow = len(keys) > BACKLOG

    def _lapsed(self, row: ReportRow) -> bool:
        if row.status in ("ready", "failed") or row.key in self.running:
            return False
        claimed = row.claimed_at
        if row.claimed_by is None or claimed is None:
            return True
        if claimed.tzinfo is None:
            claimed = claimed.replace(tzinfo=datetime.UTC)
        return claimed < now() - LEASE

    def _kick(self, key: str) -> None:
        if key not in self.running:
            self.running.add(key)
            self.spawn(self._run(key))

    async def _claim(self, key: str) -> bool:
        at = now()
        lapsed = (
            ReportRow.claimed_by.is_(None)
            | (ReportRow.claimed_by == self.me)
            | (ReportRow.claimed_at < at - LEASE)
        )
        statement = (
            sql_update(ReportRow)
            .where(ReportRow.key == key, ReportRow.status != "ready", lapsed)
            .values(status="running", claimed_by=self.me, claimed_at=at)
        )
        return bool(await self.store.write(lambda c: c.execute(statement).rowcount))

    async def _run(self, key: str) -> None:
        try:
            if await self._claim(key):
                await self._compute(key)
        except Exception:
            log.exception("the report %s failed", key)
            release = (
                sql_update(ReportRow)
                .where(ReportRow.key == key, ReportRow.claimed_by == self.me)
                .values(status="failed", claimed_by=None, claimed_at=None)
            )
            await self.store.write(lambda c: c.execute(release))
        finally:
            self.running.discard(key)
            self.asked.discard(key)
            if not self.asked & self.running:
                self._calm.set()

    async def _give_way(self, key: str) -> None:
        """Wait, before a job of the report ``key`` if nobody asked for it, until no report
        somebody asked for is being made."""
        while key not in self.asked and self.asked & self.running:
            self._calm.clear()
            await self._calm.wait()

    async def _store(self, key: str, rows: list[dict[str, object]]) -> None:
        """Store analysed positions of the report ``key`` and renew this process's claim."""
        beat = (
            sql_update(ReportRow)
            .where(ReportRow.key == key, ReportRow.claimed_by == self.me)
            .values(claimed_at=now())
        )

        def work(connection: Any) -> None:
            connection.execute(insert(ReportPlyRow), rows)
            connection.execute(beat)

        with contextlib.suppress(IntegrityError):  # stored by a process that took over
            await self.store.write(work)

    async def _compute(self, key: str) -> None:
        async with self.store.session() as session:
            row = await session.get(ReportRow, key)
            assert row is not None
            have = set(
                await session.scalars(select(ReportPlyRow.ply).where(ReportPlyRow.key == key))
            )
        moves = json.loads(row.moves)
        limit = self.computer.report_limit
        reporters = self.computer.reporters
        await self._give_way(key)
        exact = await reporters.run(
            TABLES_EXPECTED + EXACT_EXPECTED * row.total,
            workers.exact_plies,
            *(row.game, row.rules, row.start, moves, limit),
        )
        for first in range(0, row.total, RUN):
            plies = [p for p in range(first, min(first + RUN, row.total)) if p not in have]
            values = {p: exact[p] for p in plies if p in exact}
            searched = [p for p in plies if p not in exact]
            if searched:
                await self._give_way(key)
                values |= await reporters.run(
                    PLY_EXPECTED * len(searched),
                    workers.report_plies,
                    *(row.game, row.rules, row.start, moves, searched, limit),
                )
            if values:
                await self._store(key, [_ply_row(key, p, values[p]) for p in sorted(values)])
        finish = (
            sql_update(ReportRow)
            .where(ReportRow.key == key)
            .values(status="ready", claimed_by=None, claimed_at=None)
        )
        await self.store.write(lambda c: c.execute(finish))
        log.info("the report %s is ready (%d positions)", key, row.total)

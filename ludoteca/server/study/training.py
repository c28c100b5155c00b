"""Puzzle training: players' puzzle ratings and history, streak and rush runs, players' own
puzzles, all in the store (migration 0008), on top of :mod:`.puzzles` (the library, and how a
puzzle is played).

**Ratings** are Glicko-2 (:mod:`~ludoteca.server.community.glicko2`, as for games): a
signed-in player's first outcome on a shipped puzzle (solved, a wrong move, or the solution
asked for) is one rating period against the puzzle, whose own rating (starting at its stored
difficulty, deviation 350) moves the other way in the same transaction.  An attempt is counted
once: a player and a puzzle make one row of ``puzzle_attempts`` (the database refuses a
second), with the rating after it.  A player's rating widens while away as game ratings do
(:func:`~ludoteca.server.community.ratings.current`); a puzzle's does not.  Own puzzles, and
puzzles played in a run, are unrated; guests play unrated.

**Runs**: a streak (:data:`STREAK`) goes on through puzzles of rising difficulty until the first
wrong move; a rush (:data:`RUSH`) lasts :data:`RUSH_SECONDS` and ends at the
:data:`RUSH_MISTAKES`-th wrong move; either ends when its puzzles run out.  The run is kept in
the store (its seed, which puzzle it is on, score and mistakes), so the page cannot skip a
puzzle or count one twice: an answer names the run's current puzzle or is refused; the best
score of each kind is kept for an account.  Runs started more than :data:`RUNS_KEPT` ago
are deleted when another starts.

**Own puzzles**: an analysis-board position is judged in the analysis pool
(:func:`.puzzles.judge_own`: the table, else the search) and stored when its solution is
unique, playable by its id's link by everyone.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import secrets

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...core import LudotecaError
from ...i18n import _
from ...study.puzzles import Puzzle
from ..community import glicko2
from ..community.people import User
from ..community.ratings import PROVISIONAL, current
from ..computer.scheduler import Scheduler
from ..errors import ActionError
from ..limits import RateLimit
from ..store import Base, Store, now
from .dashboard import dashboard
from .mistake_schemas import Dashboard
from .puzzles import REFUSALS, Answer, daily, follow, frames, judge_own, library, puzzle_view
from .schemas import (
    AnsweredPuzzle,
    DailyPuzzle,
    PuzzleAttempt,
    PuzzlePlayer,
    PuzzleSolution,
    PuzzleView,
    RatingChange,
    RunView,
)

__all__ = [
    "ANSWERS_PER_MINUTE",
    "RUSH",
    "RUSH_MISTAKES",
    "RUSH_SECONDS",
    "STREAK",
    "OwnPuzzleRow",
    "PuzzleAttemptRow",
    "PuzzlePlayerRow",
    "PuzzleRatingRow",
    "PuzzleRunRow",
    "Training",
]

STREAK = "streak"
RUSH = "rush"
RUSH_SECONDS = 180
RUSH_MISTAKES = 3
#: answers (moves, solutions asked for) one client address may send in a minute
ANSWERS_PER_MINUTE = 90
#: own puzzles one client address may ask to be judged in a minute
OWN_PER_MINUTE = 6
#: runs one client address may start in a minute
RUNS_PER_MINUTE = 20
#: the deadline of judging an own puzzle in the analysis pool (after hints, live analysis and
#: report positions; long enough for a process still loading the compiled search)
JUDGE_EXPECTED = 20.0
#: how long a run is kept (a new run's start forgets the older ones; their best scores stay)
RUNS_KEPT = datetime.timedelta(days=7)
#: the attempts a player's history lists
HISTORY = 50


class _Glicko:
    """A Glicko-2 rating's three numbers, as columns of a row."""

    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)


class PuzzlePlayerRow(_Glicko, Base):
    """An account's puzzle rating and best run scores."""

    __tablename__ = "puzzle_players"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    best_rush: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleRatingRow(_Glicko, Base):
    """A shipped puzzle's own rating, once it has been tried."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleAttemptRow(Base):
    """A player's counted attempt at a puzzle, with the rating after it: one a player and
    puzzle (a second count of the same attempt is refused by the database)."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (
        UniqueConstraint("user_id", "puzzle_id", name="uq_puzzle_attempts_user_puzzle"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    puzzle_id: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(200))
    solved: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleRunRow(Base):
    """A streak or rush run: its puzzles (by seed), the one it is on (``turn``), its score."""

    __tablename__ = "puzzle_runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True
    )
    mode: Mapped[str] = mapped_column(String(8))
    rules: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int] = mapped_column(Integer, default=0)
    mistakes: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    started: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    ends: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OwnPuzzleRow(Base):
    """A player's own puzzle (its JSON in ``body``)."""

    __tablename__ = "own_puzzles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    position: Mapped[str] = mapped_column(String(400))
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


def _aware(when: datetime.datetime) -> datetime.datetime:
    return when if when.tzinfo else when.replace(tzinfo=datetime.UTC)


def _rating_view(before: float, after: float) -> RatingChange:
    return RatingChange(
        before=round(before, 2), after=round(after, 2), change=round(after - before, 2)
    )


def _settle(connection: Connection, user: int, puzzle: Puzzle, solved: bool) -> RatingChange | None:
    """Count a player's first outcome on a puzzle (in the caller's transaction): both ratings
    moved, the attempt stored; ``None`` if the player's attempt was counted before."""
    counted = connection.execute(
        select(PuzzleAttemptRow.id).where(
            PuzzleAttemptRow.user_id == user, PuzzleAttemptRow.puzzle_id == puzzle.id
        )
    ).first()
    if counted is not None:
        return None
    player = connection.execute(
        select(PuzzlePlayerRow).where(PuzzlePlayerRow.user_id == user).with_for_update()
    ).one()
    stats = connection.execute(
        select(PuzzleRatingRow).where(PuzzleRatingRow.puzzle_id == puzzle.id).with_for_update()
    ).one()
    at = now()
    mine = current(player, at)
    its = glicko2.Rating(stats.rating, stats.deviation, stats.volatility)
    score = 1.0 if solved else 0.0
    after = glicko2.rate(mine, [(its, score)])
    moved = glicko2.rate(its, [(mine, 1.0 - score)])
    connection.execute(
        update(PuzzlePlayerRow)
        .where(PuzzlePlayerRow.user_id == user)
        .values(
            rating=after.rating,
            deviation=after.deviation,
            volatility=after.volatility,
            attempts=PuzzlePlayerRow.attempts + 1,
            updated=at,
        )
    )
    connection.execute(
        update(PuzzleRatingRow)
        .where(PuzzleRatingRow.puzzle_id == puzzle.id)
        .values(
            rating=moved.rating,
            deviation=moved.deviation,
            volatility=moved.volatility,
            attempts=PuzzleRatingRow.attempts + 1,
            solved=PuzzleRatingRow.solved + int(solved),
        )
    )
    connection.execute(
        insert(PuzzleAttemptRow).values(
            user_id=user,
            puzzle_id=puzzle.id,
            rules=puzzle.rules,
            solved=solved,
            rating=after.rating,
            change=after.rating - mine.rating,
            at=at,
        )
    )
    return _rating_view(mine.rating, after.rating)


def _insert(connection: Connection, row: type[Base], values: dict[str, object]) -> None:
    connection.execute(insert(row).values(**values))


class Training:
    """The puzzle service of a server: the library, and what the store keeps of players."""

    def __init__(self, store: Store, analysis: Scheduler) -> None:
        self.store = store
        self.analysis = analysis
        self.answers = RateLimit(ANSWERS_PER_MINUTE, 60.0)
        self.owns = RateLimit(OWN_PER_MINUTE, 60.0)
        self.runs = RateLimit(RUNS_PER_MINUTE, 60.0)

    # --- finding puzzles ----------------------------------------------------------------
    async def puzzle(self, puzzle_id: str) -> tuple[Puzzle, bool]:
        """A puzzle by its id, and whether it is a player's own; 404 if there is none."""
        found = library().by_id.get(puzzle_id)
        if found is not None:
            return found, False
        async with self.store.session() as session:
            row = await session.get(OwnPuzzleRow, puzzle_id[:16])
        if row is None:
            raise ActionError(404, _("there is no puzzle %(id)s", id=repr(puzzle_id)))
        return Puzzle.from_json(json.loads(row.body)), True

    async def rating(self, puzzle: Puzzle) -> float:
        """A puzzle's own rating now: its stored difficulty until it has been tried."""
        async with self.store.session() as session:
            row = await session.get(PuzzleRatingRow, puzzle.id)
        return puzzle.difficulty if row is None else row.rating

    async def view(self, puzzle_id: str) -> PuzzleView:
        """A puzzle as the page shows it (:func:`.puzzles.puzzle_view`)."""
        puzzle, own = await self.puzzle(puzzle_id)
        return puzzle_view(puzzle, await self.rating(puzzle), own)

    async def daily(self) -> DailyPuzzle:
        """Today's puzzle (UTC) and the day."""
        day = now().date()
        view = await self.view(daily(day).id)
        return DailyPuzzle(date=day.isoformat(), **dict(view))

    async def next(
        self,
        user: User | None,
        rules: str,
        theme: str | None,
        difficulty: str,
        edition: str = "",
        seen: str = "",
    ) -> PuzzleView:
        """The next puzzle of a rule set for a player (:meth:`.puzzles.Library.choose`), the
        puzzles the player's browser has shown (its record ``seen`` of the set's ``edition``:
        :meth:`.puzzles.Library.shown`) counted as tried."""
        level, tried = glicko2.NEW.rating, library().shown(rules, edition, seen)
        if user is not None:
            async with self.store.session() as session:
                player = await session.get(PuzzlePlayerRow, user.id)
                ids = await session.scalars(
                    select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.user_id == user.id)
                )
                tried |= set(ids)
            if player is not None:
                level = player.rating
        return await self.view(library().choose(rules, level, tried, theme, difficulty).id)

    # --- answers ------------------------------------------------------------------------
    def _admit(self, address: str) -> None:
        if not self.answers.allow(address):
            raise ActionError(
                429,
                _(
                    "too many answers: at most %(count)s a minute; this one is not counted, "
                    "try again in a moment",
                    count=ANSWERS_PER_MINUTE,
                ),
            )

    async def _counted(
        self, user: User | None, puzzle: Puzzle, own: bool, solved: bool
    ) -> RatingChange | None:
        """Count a signed-in player's outcome on a shipped puzzle; the rating change, or None."""
        if user is None or own:
            return None
        await self._ensure(user.id, puzzle)
        try:
            return await self.store.write(
                functools.partial(_settle, user=user.id, puzzle=puzzle, solved=solved)
            )
        except IntegrityError:  # the same attempt, counted by another request first
            return None

    async def _ensure(self, user: int, puzzle: Puzzle | None = None) -> None:
        """Make the player's rating row (a new player's) and the puzzle's (its difficulty)."""
        rows: list[tuple[type[Base], object, dict[str, object]]] = [
            (
                PuzzlePlayerRow,
                user,
                {
                    "user_id": user,
                    "rating": glicko2.NEW.rating,
                    "deviation": glicko2.NEW.deviation,
                    "volatility": glicko2.NEW.volatility,
                    "attempts": 0,
                    "best_streak": 0,
                    "best_rush": 0,
                    "updated": now(),
                },
            )
        ]
        if puzzle is not None:
            rows.append(
                (
                    PuzzleRatingRow,
                    puzzle.id,
                    {
                        "puzzle_id": puzzle.id,
                        "rating": float(puzzle.difficulty),
                        "deviation": glicko2.NEW.deviation,
                        "volatility": glicko2.NEW.volatility,
                        "attempts": 0,
                        "solved": 0,
                    },
                )
            )
        async with self.store.session() as session:
            missing = [
                (row, values) for row, key, values in rows if await session.get(row, key) is None
            ]
        for row, values in missing:
            with contextlib.suppress(IntegrityError):  # made meanwhile by another request
                await self.store.write(functools.partial(_insert, row=row, values=values))

    async def answer(
        self, user: User | None, address: str, puzzle_id: str, moves: list[str], run: str | None
    ) -> AnsweredPuzzle:
        """Judge the player's moves on a puzzle (:func:`.puzzles.follow`), alone or as the
        current puzzle of ``run``: the verdict, the reply and position after a right move, the
        solution's frames once solved, the rating change when this outcome counted, and the
        run as it stands; bad input changes nothing."""
        self._admit(address)
        puzzle, own = await self.puzzle(puzzle_id)
        if run is not None:
            row = await self._run(run, user)
            self._check_turn(row, puzzle)
        answer = follow(puzzle, moves)
        out = AnsweredPuzzle(
            verdict=answer.verdict, reply=answer.reply, position=answer.position, rating=None
        )
        if answer.verdict == "solved":
            out.frames = frames(puzzle)
        if run is not None:
            out.run = await self._advance(row, answer, user)
        elif answer.verdict != "right":
            out.rating = await self._counted(user, puzzle, own, answer.verdict == "solved")
        return out

    async def solution(self, user: User | None, address: str, puzzle_id: str) -> PuzzleSolution:
        """A puzzle's solution (its line and frames); asked for before it was counted, it
        counts as not solved; refused (409) while it is the current puzzle of a run of the
        player's."""
        self._admit(address)
        puzzle, own = await self.puzzle(puzzle_id)
        if user is not None and await self._running(user, puzzle):
            raise ActionError(409, _("this puzzle is part of a run of yours: finish the run first"))
        rating = await self._counted(user, puzzle, own, False)
        return PuzzleSolution(line=list(puzzle.line), frames=frames(puzzle), rating=rating)

    # --- runs ---------------------------------------------------------------------------
    async def _running(self, user: User, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` is the current puzzle of a run of the player's under way."""
        async with self.store.session() as session:
            runs = await session.scalars(
                select(PuzzleRunRow).where(
                    PuzzleRunRow.user_id == user.id,
                    PuzzleRunRow.rules == puzzle.rules,
                    PuzzleRunRow.over.is_(False),
                )
            )
            open_runs = [run for run in runs if not self._ended(run)]
        return any(library().run(r.rules, r.seed)[r.turn].id == puzzle.id for r in open_runs)

    async def start_run(self, user: User | None, address: str, mode: str, rules: str) -> RunView:
        """A new streak or rush run of a rule set, on its first puzzle."""
        if mode not in (STREAK, RUSH):
            raise ActionError(400, _("a run is a streak or a rush"))
        library().of(rules)
        if not self.runs.allow(address):
            raise ActionError(
                429, _("at most %(count)s runs a minute may be started", count=RUNS_PER_MINUTE)
            )
        at = now()
        values: dict[str, object] = {
            "id": secrets.token_urlsafe(18),
            "user_id": None if user is None else user.id,
            "mode": mode,
            "rules": rules,
            "seed": secrets.randbelow(1 << 30),
            "turn": 0,
            "score": 0,
            "mistakes": 0,
            "over": False,
            "started": at,
            "ends": at + datetime.timedelta(seconds=RUSH_SECONDS) if mode == RUSH else None,
        }
        stale = PuzzleRunRow.started < at - RUNS_KEPT

        def work(connection: Connection) -> None:
            connection.execute(delete(PuzzleRunRow).where(stale))  # their bests are kept
            _insert(connection, PuzzleRunRow, values)

        await self.store.write(work)
        return await self.run_view(await self._run(str(values["id"]), user))

    async def _run(self, run_id: str, user: User | None) -> PuzzleRunRow:
        async with self.store.session() as session:
            row = await session.get(PuzzleRunRow, run_id[:32])
        if row is None or row.user_id != (None if user is None else user.id):
            raise ActionError(404, _("there is no such run of yours: start a new one"))
        return row

    def _check_turn(self, row: PuzzleRunRow, puzzle: Puzzle) -> None:
        if row.over:
            raise ActionError(409, _("this run is over: start a new one"))
        if self._ended(row):
            raise ActionError(409, _("the time is up: this run is over"))
        on = library().run(row.rules, row.seed)[row.turn]
        if on.id != puzzle.id:
            raise ActionError(
                409,
                _(
                    "that answer is for puzzle %(answered)s, but the run is on puzzle %(on)s",
                    answered=puzzle.id,
                    on=on.id,
                ),
            )

    @staticmethod
    def _ended(row: PuzzleRunRow) -> bool:
        return row.ends is not None and now() >= _aware(row.ends)

    async def _advance(self, row: PuzzleRunRow, answer: Answer, user: User | None) -> RunView:
        """Move a run on after a solved or wrong puzzle (a right move leaves it as it is),
        stored only if no other answer moved it first; the run as it stands."""
        if answer.verdict == "right":
            return await self.run_view(row)
        solved = answer.verdict == "solved"
        score = row.score + int(solved)
        mistakes = row.mistakes + int(not solved)
        turn = row.turn + 1
        over = (
            turn >= len(library().run(row.rules, row.seed))
            or (row.mode == STREAK and not solved)
            or (row.mode == RUSH and mistakes >= RUSH_MISTAKES)
        )

        def work(connection: Connection) -> int:
            done = connection.execute(
                update(PuzzleRunRow)
                .where(
                    PuzzleRunRow.id == row.id,
                    PuzzleRunRow.turn == row.turn,
                    PuzzleRunRow.over.is_(False),
                )
                .values(turn=turn, score=score, mistakes=mistakes, over=over)
            )
            return done.rowcount

        if await self.store.write(work) != 1:
            raise ActionError(409, _("this puzzle of the run was answered already"))
        if over and user is not None:
            await self._best(user.id, row.mode, score)
        return await self.run_view(await self._run(row.id, user))

    async def _best(self, user: int, mode: str, score: int) -> None:
        await self._ensure(user)
        column = PuzzlePlayerRow.best_streak if mode == STREAK else PuzzlePlayerRow.best_rush

        def work(connection: Connection) -> None:
            connection.execute(
                update(PuzzlePlayerRow)
                .where(PuzzlePlayerRow.user_id == user, column < score)
                .values({column: score})
            )

        await self.store.write(work)

    async def run_view(self, row: PuzzleRunRow) -> RunView:
        """A run as the page shows it: its mode, score, mistakes, whether it is over, the
        seconds left (a rush) and its current puzzle (none once over)."""
        over = row.over or self._ended(row)
        left = None
        if row.ends is not None:
            left = max(0.0, round((_aware(row.ends) - now()).total_seconds(), 1))
        puzzles = library().run(row.rules, row.seed)
        return RunView(
            id=row.id,
            mode=row.mode,
            rules=row.rules,
            score=row.score,
            mistakes=row.mistakes,
            over=over,
            seconds_left=left,
            puzzle=None if over else await self.view(puzzles[row.turn].id),
        )

    async def run(self, user: User | None, run_id: str) -> RunView:
        """A run of the player's by its id (a rush found past its time is ended, its best
        score kept)."""
        row = await self._run(run_id, user)
        if self._ended(row) and not row.over:
            await self.store.write(
                lambda connection: connection.execute(
                    update(PuzzleRunRow).where(PuzzleRunRow.id == row.id).values(over=True)
                )
            )
            if user is not None:
                await self._best(user.id, row.mode, row.score)
        return await self.run_view(row)

    # --- players ------------------------------------------------------------------------
    async def me(self, user: User) -> PuzzlePlayer:
        """A player's puzzle rating, best runs and history (newest first)."""
        async with self.store.session() as session:
            player = await session.get(PuzzlePlayerRow, user.id)
            attempts = await session.scalars(
                select(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.user_id == user.id)
                .order_by(PuzzleAttemptRow.id.desc())
                .limit(HISTORY)
            )
            # (an exercise made of one's own mistakes, done, is kept as an attempt too)
            shipped = [a for a in attempts if a.puzzle_id in library().by_id]
            history = [
                PuzzleAttempt(
                    puzzle=a.puzzle_id,
                    rules=a.rules,
                    solved=a.solved,
                    rating=round(a.rating, 2),
                    change=round(a.change, 2),
                    at=_aware(a.at).isoformat(),
                )
                for a in shipped
            ]
        rating = glicko2.NEW if player is None else current(player)
        return PuzzlePlayer(
            name=user.name,
            rating=round(rating.rating, 2),
            deviation=round(rating.deviation, 2),
            provisional=rating.deviation > PROVISIONAL,
            attempts=0 if player is None else player.attempts,
            best_streak=0 if player is None else player.best_streak,
            best_rush=0 if player is None else player.best_rush,
            history=history,
        )

    async def dashboard(self, user: User) -> Dashboard:
        """A player's puzzle dashboard (:func:`.dashboard.dashboard`) from their counted
        attempts."""
        async with self.store.session() as session:
            found = await session.execute(
                select(PuzzleAttemptRow.puzzle_id, PuzzleAttemptRow.solved).where(
                    PuzzleAttemptRow.user_id == user.id
                )
            )
            attempts = [(puzzle_id, solved) for puzzle_id, solved in found]
        return dashboard(attempts, library().by_id)

    # --- own puzzles --------------------------------------------------------------------
    async def own(
        self, user: User | None, address: str, game: str, rules: str | None, position: str
    ) -> PuzzleView:
        """Make a position a puzzle of one's own: its view once its judge confirms a unique
        solution (stored, unless it is one already), else 422 with the judge's sentence; 400
        for an impossible position."""
        if not self.owns.allow(address):
            raise ActionError(
                429, _("at most %(count)s positions a minute may be judged", count=OWN_PER_MINUTE)
            )
        try:
            judged = await self.analysis.run(JUDGE_EXPECTED, judge_own, game, rules, position)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        if isinstance(judged, str):
            raise ActionError(422, _(REFUSALS[judged]))
        puzzle = judged
        if puzzle.id not in library().by_id:
            values: dict[str, object] = {
                "id": puzzle.id,
                "user_id": None if user is None else user.id,
                "game": puzzle.game,
                "rules": puzzle.rules,
                "position": puzzle.position,
                "body": json.dumps(puzzle.as_json()),
                "created": now(),
            }
            with contextlib.suppress(IntegrityError):  # the same position, made before
                await self.store.write(functools.partial(_insert, row=OwnPuzzleRow, values=values))
        return await self.view(puzzle.id)

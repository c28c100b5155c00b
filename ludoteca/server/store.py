"""The database of games: tables, migrations and the few queries the server makes.

Any SQLAlchemy async URL works (``sqlite+aiosqlite:///path``, ``postgresql+asyncpg://...``); the
schema is created and upgraded by the Alembic migrations in ``migrations/`` when the store opens.
Every accepted move is one row of ``moves``; its primary key (game, ply) makes two writers of
the same ply impossible, so a move is acknowledged only after its row is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
import math
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import (
    BigInteger,
    Boolean,
    ColumnElement,
    Connection,
    DateTime,
    Dialect,
    Engine,
    Executable,
    ForeignKey,
    Integer,
    Result,
    ScalarResult,
    String,
    Text,
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..i18n import N_
from .timings import Timings

__all__ = [
    "SQLITE_SYNC",
    "Base",
    "GameRow",
    "MoveRow",
    "Reads",
    "SettingRow",
    "SqliteSync",
    "Store",
    "default_url",
    "now",
]

T = TypeVar("T")
R = TypeVar("R")

MIGRATIONS = Path(__file__).with_name("migrations")
log = logging.getLogger("ludoteca.server")
#: the least time from one commit of moves to the next (seconds): under load the moves that
#: arrive within it share a commit (a commit's fixed cost is most of a small one's), instead of
#: one commit a turn of the event loop; a move after a quiet spell is committed at once
COMMIT_GAP = 0.005
#: how often (seconds) a SQLite file's log is copied into the database, off the event loop,
#: when something was written since the last time (see :class:`Store`)
CHECKPOINT_EVERY = 1.0


#: when a SQLite file is synced to disk (see :class:`Store`)
SqliteSync = Literal["full", "normal"]
SQLITE_SYNC: tuple[str, ...] = get_args(SqliteSync)


def _sqlite_settings(
    sync: str, checkpoints: Callable[[], bool] = lambda: False
) -> Callable[[Any, Any], None]:
    """What a new SQLite connection is set to: write-ahead logging (readers never wait for the
    writer), a wait, not an error, when another process holds the write lock, and ``sync``;
    and, once ``checkpoints()`` says another thread copies the log into the database, no
    copying of its own at a commit (SQLite's automatic checkpoint)."""

    def set_up(connection: Any, record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute(f"PRAGMA synchronous={sync.upper()}")
        if checkpoints():
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    return set_up


def _checkpoint(database: str) -> tuple[int, int, int]:
    """Copy what it can of a SQLite file's write-ahead log into the database, without waiting
    for readers or writers (a passive checkpoint, on a connection of its own, in the calling
    thread): SQLite's ``(busy, frames in the log, frames copied)``."""
    connection = sqlite3.connect(database, timeout=10)
    try:
        busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(copied)
    finally:
        connection.close()


def now() -> datetime.datetime:
    """The time now, in UTC."""
    return datetime.datetime.now(datetime.UTC)


class Base(DeclarativeBase):
    pass


class SettingRow(Base):
    """A server setting that every process must share (a key, a version)."""

    __tablename__ = "settings"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class GameRow(Base):
    """One game: what is played, who sits where, and how it stands."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    setup: Mapped[str | None] = mapped_column(String(200), nullable=True)
    position: Mapped[str | None] = mapped_column(String(400), nullable=True)
    mode: Mapped[str] = mapped_column(String(16))  # computer | hotseat | online
    white: Mapped[str] = mapped_column(String(64))  # "human" or an agent spec
    black: Mapped[str] = mapped_column(String(64))
    white_token: Mapped[str | None] = mapped_column(String(64), nullable=True)  # sha256 hex
    black_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    white_name: Mapped[str | None] = mapped_column(String(32), nullable=True)  # display names
    black_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the accounts holding the seats (None: a guest's token, the computer, or still free)
    white_user: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    black_user: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting | live | over
    ply: Mapped[int] = mapped_column(Integer, default=0)  # moves played
    result: Mapped[str] = mapped_column(String(8), default="*")
    termination: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    draw_offer: Mapped[str | None] = mapped_column(String(8), nullable=True)
    undo_offer: Mapped[str | None] = mapped_column(String(8), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game's id
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)  # "5+0"; None: untimed
    white_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # time left
    black_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_started: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # epoch ms
    # days per move (clock "3d"): when the side to move (``to_move``) runs out of time, epoch ms
    deadline: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    to_move: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime.datetime] = mapped_column(
        DateTime(timezone=True), default=now, index=True
    )


class MoveRow(Base):
    """One accepted move, in the game's notation."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    move: Mapped[str] = mapped_column(Text)
    played: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


def default_url() -> str:
    """SQLite in the user's data directory (created if missing)."""
    folder = Path(user_data_dir("ludoteca"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'ludoteca.db'}"


#: the PostgreSQL advisory lock that serialises the migrations of processes starting together
MIGRATION_LOCK = 0x4C75646F  # "Ludo"


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":  # one process migrates; the others wait
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


@dataclass(eq=False)
class _MoveWrite:
    """A move waiting to be committed, and the future its writer awaits."""

    game_id: str
    ply: int
    move: str
    changes: dict[str, object]
    done: asyncio.Future[None]
    #: more work for the move's transaction (a finished game's ratings), or None
    then: Callable[[Connection], None] | None = None
    #: when it was queued (``time.perf_counter()``)
    queued: float = 0.0


@functools.lru_cache(maxsize=64)
def _move_update(keys: tuple[str, ...]) -> Update:
    """The statement moving a game from ``_ply`` to ``_next`` at ``_at`` and setting the fields
    ``keys``: one statement object per set of fields, so that its compiled form and cache key
    are worked out once, not for every batch."""
    return (
        update(GameRow)
        .where(GameRow.id == bindparam("_id"), GameRow.ply == bindparam("_ply"))
        .values(ply=bindparam("_next"), updated=bindparam("_at"), **{k: bindparam(k) for k in keys})
    )


_INSERT_MOVES = insert(MoveRow)


@functools.lru_cache(maxsize=64)
def _sqlite_move_update(keys: tuple[str, ...]) -> str:
    """:func:`_move_update` as SQLite's text, its parameters in order: the new ply, the time,
    the fields ``keys``, then the game and its ply (the names are the table's own columns)."""
    columns = GameRow.__table__.columns
    assigned = ", ".join(f"{columns[k].name} = ?" for k in ("ply", "updated", *keys))
    return f"UPDATE {GameRow.__tablename__} SET {assigned} WHERE id = ? AND ply = ?"


_SQLITE_INSERT_MOVES = (
    f"INSERT INTO {MoveRow.__tablename__} (game_id, ply, move, played) VALUES (?, ?, ?, ?)"
)


def _sqlite_time(dialect: Dialect, at: datetime.datetime) -> object:
    """A time as SQLAlchemy writes it into a SQLite ``DateTime`` column (its text form)."""
    kind = MoveRow.__table__.columns["played"].type.dialect_impl(dialect)
    process = kind.bind_processor(dialect)
    return at if process is None else process(at)


def _write_moves(
    connection: Connection, batch: list[_MoveWrite], one_by_one: bool = False
) -> set[int]:
    """Store a batch of moves in the caller's transaction (all of it or, on an exception,
    none); the indices of those whose game was no longer at their ply (nothing of them is
    written).  Moves changing the same fields go in one statement, which raises
    :class:`StaleError` if any of them is stale: the caller then writes the batch again
    ``one_by_one``, each move checked on its own.  On SQLite the statements go straight to the
    driver's cursor (the same statements SQLAlchemy would send, without its tenth of a
    millisecond a statement of work on the event loop)."""
    if connection.dialect.name == "sqlite":
        return _write_moves_sqlite(connection, batch, one_by_one)
    at = now()
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, write in enumerate(batch):
        groups.setdefault(tuple(sorted(write.changes)), []).append(index)
    stale: set[int] = set()
    for keys, indices in groups.items():
        statement = _move_update(keys)
        params = [
            {
                "_id": batch[i].game_id,
                "_ply": batch[i].ply,
                "_next": batch[i].ply + 1,
                "_at": at,
                **batch[i].changes,
            }
            for i in indices
        ]
        if not one_by_one:
            if connection.execute(statement, params).rowcount != len(params):
                raise StaleError(batch[indices[0]].game_id)
            continue
        for index, one in zip(indices, params, strict=True):
            if connection.execute(statement, one).rowcount != 1:
                stale.add(index)
    rows = [
        {"game_id": w.game_id, "ply": w.ply, "move": w.move, "played": at}
        for i, w in enumerate(batch)
        if i not in stale
    ]
    if rows:
        connection.execute(_INSERT_MOVES, rows)
    _then(connection, batch, stale)
    return stale


def _write_moves_sqlite(
    connection: Connection, batch: list[_MoveWrite], one_by_one: bool
) -> set[int]:
    """:func:`_write_moves` on SQLite, through the driver's cursor."""
    at = _sqlite_time(connection.dialect, now())
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, write in enumerate(batch):
        groups.setdefault(tuple(sorted(write.changes)), []).append(index)
    cursor = connection.connection.cursor()
    stale: set[int] = set()
    try:
        for keys, indices in groups.items():
            statement = _sqlite_move_update(keys)
            params = [
                (
                    batch[i].ply + 1,
                    at,
                    *(batch[i].changes[k] for k in keys),
                    batch[i].game_id,
                    batch[i].ply,
                )
                for i in indices
            ]
            if not one_by_one:
                cursor.executemany(statement, params)
                if cursor.rowcount != len(params):
                    raise StaleError(batch[indices[0]].game_id)
                continue
            for index, one in zip(indices, params, strict=True):
                cursor.execute(statement, one)
                if cursor.rowcount != 1:
                    stale.add(index)
        rows = [(w.game_id, w.ply, w.move, at) for i, w in enumerate(batch) if i not in stale]
        if rows:
            cursor.executemany(_SQLITE_INSERT_MOVES, rows)
    finally:
        cursor.close()
    _then(connection, batch, stale)
    return stale


def _then(connection: Connection, batch: list[_MoveWrite], stale: set[int]) -> None:
    """Run the extra work of each stored move of a batch (its ``then``), in order."""
    for index, write in enumerate(batch):
        if write.then is not None and index not in stale:
            write.then(connection)


class StaleError(Exception):
    """The game changed under a write (another ply was stored first)."""


class Reads:
    """The read queries of one session, awaited, their results fetched in full: ``get`` a row
    by its key, ``execute`` a statement, the ``scalars`` of a statement."""

    def __init__(self, run: Callable[[Callable[[Session], Any]], Awaitable[Any]]) -> None:
        self._run = run

    async def get(self, entity: type[R], key: object) -> R | None:
        row: R | None = await self._run(lambda session: session.get(entity, key))
        return row

    async def execute(self, statement: Executable) -> Result[*tuple[Any, ...]]:
        frozen = await self._run(lambda session: session.execute(statement).freeze())
        result: Result[*tuple[Any, ...]] = frozen()
        return result

    async def scalars(self, statement: Executable) -> ScalarResult[Any]:
        return (await self.execute(statement)).scalars()


class Store:
    """Async access to the games and moves tables.

    A SQLite file is written with write-ahead logging; ``sqlite_sync`` says when it is synced
    to disk: ``"full"`` at every commit (a write acknowledged survives a power cut too; the
    sync, a few milliseconds, holds up the event loop), ``"normal"`` when the log is copied
    into the database (a write acknowledged survives the server's crash or ``kill -9``; a power
    cut or an operating-system crash may lose the last ones).

    Once the store is open, the log of a SQLite file is copied into the database (a
    checkpoint: some pages written and synced, 10 to 30 ms on this project's machines) by a
    thread every ``checkpoint_every`` seconds when something was written, never by a commit on
    the event loop, where SQLite's automatic checkpoint (every 1,000 pages of log) held up the
    commit that crossed the mark and every player waiting behind it."""

    def __init__(
        self, url: str, sqlite_sync: str = "normal", checkpoint_every: float = CHECKPOINT_EVERY
    ) -> None:
        if sqlite_sync not in SQLITE_SYNC:
            raise ValueError(f"sqlite_sync is one of {', '.join(SQLITE_SYNC)}")
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        sqlite = self.engine.dialect.name == "sqlite"
        if sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_settings(sqlite_sync))
        # SQLite has one writer at a time: its writes queue here instead of failing as locked
        self._one_writer = asyncio.Lock() if sqlite else None
        self._moves: list[_MoveWrite] = []  # moves waiting for the next commit
        self._flusher: asyncio.Task[None] | None = None
        self._last_commit = -math.inf  # when the last commit of moves started (perf_counter)
        self._counts_many = bool(self.engine.dialect.supports_sane_multi_rowcount)
        #: where the moves' batch waits and commits are timed (set by the app)
        self.timings: Timings | None = None
        # a SQLite file is written on a plain connection (see ``_write``)
        self._sync: Engine | None = None
        database = self.engine.url.database
        self._checkpoint_every = checkpoint_every
        self._checkpointer: asyncio.Task[None] | None = None
        self._writes = 0  # transactions written on ``_sync`` (the checkpointer compares)
        if sqlite and database and database != ":memory:":
            self._sync = create_engine(self.engine.url.set(drivername="sqlite"))
            event.listen(
                self._sync,
                "connect",
                _sqlite_settings(sqlite_sync, lambda: self._checkpointer is not None),
            )

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one write transaction.  On a SQLite file it runs at once on a plain
        connection (a millisecond or two; writers take turns), where the async driver's thread
        would wait, statement by statement, for a busy event loop and the interpreter lock;
        elsewhere it runs through the async driver."""
        if self._sync is not None and self._one_writer is not None:
            async with self._one_writer:
                self._writes += 1
                with self._sync.begin() as connection:
                    return work(connection)
        if self._one_writer is not None:
            async with self._one_writer, self.engine.begin() as connection:
                return await connection.run_sync(work)
        async with self.engine.begin() as connection:
            return await connection.run_sync(work)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Reads]:
        """A session for reading.  On a SQLite file its queries run at once on a plain
        connection (a fraction of a millisecond; writes never block them) and so are never
        cancelled halfway: the async driver closes a connection whose query was cancelled in a
        task of its own that can wait for ever, holding up the shutdown.  Elsewhere they run
        through the async driver."""
        if self._sync is not None:
            with Session(self._sync, expire_on_commit=False) as plain:

                async def at_once(work: Callable[[Session], T]) -> T:
                    return work(plain)

                yield Reads(at_once)
        else:
            async with self._sessions() as session:
                yield Reads(session.run_sync)

    async def open(self) -> None:
        """Create or upgrade the schema to the newest migration; on a SQLite file, start
        copying its log into the database off the event loop (see the class)."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade)
        if self._sync is not None and self._checkpointer is None:
            self._sync.dispose()  # connections made before: with the automatic checkpoint
            self._checkpointer = asyncio.get_running_loop().create_task(
                self._checkpoints(self._writes)
            )

    async def _checkpoints(self, done: int) -> None:
        """Every ``checkpoint_every`` seconds, if anything was written since the last time
        (``done``: the count of transactions written when the last one began),
        a passive checkpoint in a thread (the log is copied as far as no reader holds it back;
        what is left waits for the next one).  A failure is logged and the next one tried."""
        database = self.engine.url.database
        assert database is not None
        while True:
            await asyncio.sleep(self._checkpoint_every)
            if self._writes == done:
                continue
            done = self._writes
            try:
                await asyncio.to_thread(_checkpoint, database)
            except sqlite3.Error:
                log.exception("the checkpoint of %s failed", database)

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query."""
        async with self.session() as session:
            await session.execute(select(1))

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        await self.engine.dispose()
        if self._sync is not None:
            self._sync.dispose()

    async def add_game(self, row: GameRow) -> None:
        row.created = row.updated = now()
        values = {column.key: getattr(row, column.key) for column in GameRow.__table__.columns}
        values = {key: value for key, value in values.items() if value is not None}  # defaults
        await self.write(lambda connection: connection.execute(insert(GameRow), values))

    async def game(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        """A game and its moves in order, or None."""
        async with self.session() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                return None
            moves = await session.scalars(
                select(MoveRow.move).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            )
            return row, list(moves)

    async def head(self, game_id: str) -> tuple[GameRow, str | None] | None:
        """A game's row and its last move (None before the first), in one query of two rows
        found by their keys: what a process checks its copy of the game against (see
        :meth:`.Cluster.catch_up`); None if there is no such game."""
        last = (
            select(MoveRow.move)
            .where(MoveRow.game_id == GameRow.id, MoveRow.ply == GameRow.ply - 1)
            .scalar_subquery()
        )
        async with self.session() as session:
            found = await session.execute(select(GameRow, last).where(GameRow.id == game_id))
            first = found.first()
            return None if first is None else (first[0], first[1])

    async def add_move(
        self,
        game_id: str,
        ply: int,
        move: str,
        then: Callable[[Connection], None] | None = None,
        **changes: object,
    ) -> None:
        """Store move number ``ply`` (0-based) and the game's new fields; :class:`StaleError`
        if the game is no longer at ``ply``.  Returns once the move is committed.  Moves that
        arrive together (within :data:`COMMIT_GAP` of the last commit) are committed together
        (one transaction, one sync to disk), each still checked on its own; ``then`` runs in
        the move's transaction, after it.  A caller cancelled while it waits leaves its move
        in the batch (stored, unless stale)."""
        loop = asyncio.get_running_loop()
        write = _MoveWrite(
            game_id, ply, move, changes, loop.create_future(), then, time.perf_counter()
        )
        self._moves.append(write)
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush_moves())
        await write.done  # (not shielded: one turn of the event loop less a move)

    async def _flush_moves(self) -> None:
        while self._moves:
            wait = self._last_commit + COMMIT_GAP - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            batch, self._moves = self._moves, []
            started = self._last_commit = time.perf_counter()
            if self.timings is not None:
                for write in batch:
                    self.timings.observe("batch", started - write.queued)
                self.timings.batch_moves.observe(len(batch))
            try:
                try:
                    # a driver that cannot count the rows of a many-row statement (asyncpg)
                    # writes move by move from the start
                    stale = await self.write(
                        functools.partial(
                            _write_moves, batch=batch, one_by_one=not self._counts_many
                        )
                    )
                except StaleError:  # rolled back: again, move by move
                    stale = await self.write(
                        functools.partial(_write_moves, batch=batch, one_by_one=True)
                    )
            except Exception as error:  # the whole batch failed: tell each of its writers
                for write in batch:
                    if not write.done.done():
                        write.done.set_exception(error)
                continue
            if self.timings is not None:
                self.timings.observe("commit", time.perf_counter() - started)
            for index, write in enumerate(batch):
                if write.done.done():  # its caller was cancelled
                    continue
                if index in stale:
                    write.done.set_exception(StaleError(write.game_id))
                else:
                    write.done.set_result(None)

    async def take_back(self, game_id: str, ply: int, keep: int, **changes: object) -> None:
        """Delete the moves after the first ``keep`` of a game at ``ply``."""

        def work(connection: Connection) -> None:
            done = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.ply == ply)
                .values(ply=keep, updated=now(), **changes)
            )
            if done.rowcount != 1:
                raise StaleError(game_id)
            connection.execute(
                delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= keep)
            )

        await self.write(work)

    async def change(
        self, game_id: str, then: Callable[[Connection], None] | None = None, **changes: object
    ) -> None:
        """Update a game's fields (status, offers, seats, result); ``then`` runs in the same
        transaction, after the update."""

        def work(connection: Connection) -> None:
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(updated=now(), **changes)
            )
            if then is not None:
                then(connection)

        await self.write(work)

    async def finish(
        self,
        game_id: str,
        ply: int,
        then: Callable[[Connection], None] | None = None,
        **changes: object,
    ) -> None:
        """End a game in play at ``ply`` (its result fields in ``changes``; ``then`` runs in
        the same transaction); :class:`StaleError` if it is no longer in play at that ply."""

        def work(connection: Connection) -> None:
            done = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == "live", GameRow.ply == ply)
                .values(updated=now(), **changes)
            )
            if done.rowcount != 1:
                raise StaleError(game_id)
            if then is not None:
                then(connection)

        await self.write(work)

    async def claim_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Record ``rematch_id`` as a finished game's rematch unless one is recorded already
        (two players asking through two processes start one rematch); whether it was."""
        done = await self.write(
            lambda connection: (
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.rematch.is_(None))
                    .values(rematch=rematch_id, updated=now())
                ).rowcount
            )
        )
        return bool(done)

    async def claim(self, game_id: str, colour: str, token_hash: str, user: int) -> bool:
        """Give the seat ``colour`` of a game to the account ``user`` if the seat's token hash
        is ``token_hash`` and no account holds it; whether it did."""
        seat_token, seat_user = (
            (GameRow.white_token, GameRow.white_user)
            if colour == "white"
            else (GameRow.black_token, GameRow.black_user)
        )
        done = await self.write(
            lambda connection: (
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, seat_token == token_hash, seat_user.is_(None))
                    .values({seat_user: user})
                ).rowcount
            )
        )
        return bool(done)

    async def secret(self, name: str) -> str:
        """A random secret kept in the store under ``name``, made the first time it is asked
        for (the same for every server process on this database)."""
        async with self.session() as session:
            found = await session.get(SettingRow, name)
            if found is not None:
                return found.value
        value = secrets.token_urlsafe(48)
        with contextlib.suppress(IntegrityError):  # another process made it first
            await self.write(
                lambda connection: connection.execute(
                    insert(SettingRow).values(name=name, value=value)
                )
            )
        async with self.session() as session:
            row = await session.get(SettingRow, name)
            assert row is not None
            return row.value

    async def attended(self) -> dict[str, int]:
        """Every live game that needs the server without a player (against the computer, or
        with a live clock, however many there are; days per move are swept, see
        :mod:`.play.correspondence`): its stored ply, by id."""
        async with self.session() as session:
            rows = await session.execute(
                select(GameRow.id, GameRow.ply).where(
                    GameRow.status == "live",
                    (GameRow.mode == "computer")
                    | (GameRow.clock.is_not(None) & GameRow.deadline.is_(None)),
                )
            )
            return {game_id: ply for game_id, ply in rows}

    async def abandon(
        self, idle: datetime.timedelta, idle_computer: datetime.timedelta, keep: Sequence[str] = ()
    ) -> list[str]:
        """End the games left without a move for ``idle`` (``idle_computer`` for games against
        the computer), those in ``keep`` and correspondence games in play (their deadline ends
        them) aside: they leave the lists, with no result.  Returns their ids."""
        at = now()
        stale = (
            GameRow.status.in_(("live", "waiting"))
            & ((GameRow.status == "waiting") | GameRow.deadline.is_(None))
            & (
                (GameRow.updated < at - idle)
                | ((GameRow.mode == "computer") & (GameRow.updated < at - idle_computer))
            )
        )
        if keep:
            stale &= GameRow.id.not_in(list(keep))

        def work(connection: Connection) -> list[str]:
            ids = list(connection.scalars(select(GameRow.id).where(stale)).all())
            if ids:
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id.in_(ids))
                    .values(
                        status="over",
                        result="*",
                        termination=N_("abandoned"),
                        reason=N_("The game was abandoned: no move for a long time."),
                        updated=at,
                    )
                )
            return ids

        return await self.write(work)

    async def listing(
        self,
        status: str,
        limit: int = 30,
        started: bool = False,
        where: ColumnElement[bool] | None = None,
    ) -> Sequence[GameRow]:
        """The most recently active games with a status (``started``: only those with a move,
        so that games opened and left at once do not fill the lists) that meet ``where``."""
        query = select(GameRow).where(GameRow.status == status)
        if started:
            query = query.where(GameRow.ply > 0)
        if where is not None:
            query = query.where(where)
        async with self.session() as session:
            rows = await session.scalars(query.order_by(GameRow.updated.desc()).limit(limit))
            return rows.all()

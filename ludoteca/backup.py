"""Backups of the server's database: ``ludoteca db backup FILE`` and ``ludoteca db restore
FILE`` (see ``docs/operating.md``).

- SQLite: a backup is a copy of the database made by SQLite's online backup API, in one step
  under one read transaction: a consistent snapshot, taken while the server runs and writes
  (write-ahead logging lets it go on committing meanwhile).  A restore copies the backup over
  the database the same way.
- PostgreSQL: ``pg_dump --format=custom`` (one snapshot of the database, while the server runs)
  and ``pg_restore --clean --if-exists --single-transaction`` (all of it, or nothing on an
  error).  The programs are found on ``PATH``, else in ``/usr/lib/postgresql/*/bin`` (the
  newest).

A backup is written to a temporary file beside ``FILE`` and renamed into place: a ``FILE`` is
never half written.  A restore first checks that the file is a backup of a Ludoteca database of
the same kind (a SQLite database holding the games and the migrations' version, or a PostgreSQL
custom-format archive holding them); anything else is refused with a sentence and the database
is left as it was.  A restore replaces every table of the database: stop the server first (on
PostgreSQL a restore is refused while other sessions use the database).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import URL, make_url, text
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import create_async_engine

from .core import LudotecaError
from .i18n import _

__all__ = ["backup", "database_url", "register", "restore"]

#: the first bytes of a SQLite database file, and of a ``pg_dump`` custom-format archive
SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
#: the tables every Ludoteca database has (the migrations' version, the games)
_TABLES = ("alembic_version", "games")
_POSTGRES_BINS = Path("/usr/lib/postgresql")


def database_url(given: str | None) -> str:
    """The database the command works on: ``given`` (``--db``), else the one ``ludoteca
    serve`` uses (``LUDOTECA_DB``, else SQLite in the user's data directory)."""
    if given:
        return given
    from .server.settings import Settings
    from .server.store import default_url

    return Settings().db or default_url()


def _parse(url: str) -> URL:
    """The URL parsed, or :class:`LudotecaError` when it is neither SQLite nor PostgreSQL."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise LudotecaError(_("%(url)s is not a database URL", url=repr(url))) from None
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise LudotecaError(
            _("only SQLite and PostgreSQL databases are backed up, not %(url)s", url=repr(url))
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise LudotecaError(_("an in-memory SQLite database has nothing to back up"))
    return parsed


def backup(url: str, path: Path) -> None:
    """Write a backup of the database at ``url`` to ``path`` (replaced whole, never half
    written); :class:`LudotecaError` when the database is not a Ludoteca one or cannot be
    read."""
    parsed = _parse(url)
    if path.is_dir():
        raise LudotecaError(_("%(path)s is a folder: name the backup file", path=str(path)))
    partial = path.with_name(f".{path.name}.partial")
    try:
        if parsed.get_backend_name() == "sqlite":
            _sqlite_backup(Path(str(parsed.database)), partial)
        else:
            _run(
                "pg_dump",
                ["--format=custom", f"--file={partial}", f"--dbname={_libpq(parsed)}"],
                parsed,
            )
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def restore(url: str, path: Path) -> None:
    """Replace the database at ``url`` by the backup ``path``.  :class:`LudotecaError`, with
    nothing changed, when ``path`` is not a backup of a Ludoteca database of the URL's kind,
    or (PostgreSQL) when other sessions use the database."""
    parsed = _parse(url)
    if not path.is_file():
        raise LudotecaError(_("no backup file %(path)s", path=str(path)))
    with path.open("rb") as stream:
        head = stream.read(len(SQLITE_MAGIC))
    if parsed.get_backend_name() == "sqlite":
        _check_kind(path, head, SQLITE_MAGIC, _("a SQLite database"))
        _sqlite_restore(path, Path(str(parsed.database)))
        return
    _check_kind(path, head, PGDUMP_MAGIC, _("a PostgreSQL database"))
    listing = _run("pg_restore", ["--list", str(path)], parsed)
    if not all(f" TABLE public {table} " in listing for table in _TABLES):
        raise LudotecaError(_not_ludoteca(path))
    others = asyncio.run(_other_sessions(url))
    if others:
        raise LudotecaError(
            _(
                "%(count)s other sessions use the database: stop the server before a restore",
                count=others,
            )
        )
    _run(
        "pg_restore",
        [
            "--clean",
            "--if-exists",
            "--single-transaction",
            "--no-owner",
            f"--dbname={_libpq(parsed)}",
            str(path),
        ],
        parsed,
    )


def _check_kind(path: Path, head: bytes, magic: bytes, kind: str) -> None:
    """:class:`LudotecaError` unless the file starting with ``head`` starts with ``magic``."""
    if not head.startswith(magic):
        raise LudotecaError(
            _(
                "%(path)s is not a backup of %(kind)s: nothing was restored",
                path=str(path),
                kind=kind,
            )
        )


def _not_ludoteca(path: Path) -> str:
    return _(
        "%(path)s is not a backup of a Ludoteca database: nothing was restored", path=str(path)
    )


def _sqlite_backup(database: Path, target: Path) -> None:
    """Copy the SQLite file ``database`` (which must be a Ludoteca database) to ``target``."""
    if not database.is_file():
        raise LudotecaError(_("no database %(path)s", path=str(database)))
    source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if not _is_ludoteca(source):
            raise LudotecaError(_("%(path)s is not a Ludoteca database", path=str(database)))
        _copy(source, target)
    finally:
        source.close()


def _sqlite_restore(backup_file: Path, database: Path) -> None:
    """Copy the SQLite backup ``backup_file`` (checked first) over ``database``."""
    source = sqlite3.connect(f"{backup_file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        try:
            good = _is_ludoteca(source) and source.execute("PRAGMA quick_check").fetchone() == (
                "ok",
            )
        except sqlite3.DatabaseError:
            good = False
        if not good:
            raise LudotecaError(_not_ludoteca(backup_file))
        database.parent.mkdir(parents=True, exist_ok=True)
        _copy(source, database)
    finally:
        source.close()


def _is_ludoteca(connection: sqlite3.Connection) -> bool:
    """Whether a SQLite database has the tables of a Ludoteca database."""
    names = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    return all(table in names for table in _TABLES)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy the database of ``source`` over the file ``target`` in one step of SQLite's backup
    API (one read transaction on the source: a consistent snapshot)."""
    destination = sqlite3.connect(target)
    try:
        destination.execute("PRAGMA busy_timeout=10000")
        source.backup(destination)
    finally:
        destination.close()


def _libpq(url: URL) -> str:
    """The connection URI for libpq's programs (its password left out: see :func:`_run`)."""
    return url.set(drivername="postgresql", password=None, query={}).render_as_string(
        hide_password=False
    )


def _program(name: str) -> str:
    """The path of a PostgreSQL program: on ``PATH``, else the newest of
    ``/usr/lib/postgresql/*/bin``; :class:`LudotecaError` when there is none."""
    found = shutil.which(name)
    if found:
        return found

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.name.split(".") if part.isdigit())

    folders = sorted(_POSTGRES_BINS.glob("*"), key=version, reverse=True)
    for folder in folders:
        candidate = folder / "bin" / name
        if os.access(candidate, os.X_OK):
            return str(candidate)
    raise LudotecaError(
        _(
            "%(program)s is missing: install PostgreSQL's client programs "
            "(e.g. the postgresql-client package)",
            program=name,
        )
    )


def _run(name: str, arguments: list[str], url: URL) -> str:
    """Run a PostgreSQL program with the URL's password in its environment; its output, or
    :class:`LudotecaError` with its first line of errors when it fails."""
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    done = subprocess.run(
        [_program(name), *arguments], capture_output=True, text=True, env=environment
    )
    if done.returncode != 0:
        said = next((one for one in done.stderr.splitlines() if one.strip()), "")
        raise LudotecaError(_("%(program)s failed: %(error)s", program=name, error=said))
    return done.stdout


async def _other_sessions(url: str) -> int:
    """How many other sessions are connected to the PostgreSQL database at ``url``."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            count = await connection.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
    finally:
        await engine.dispose()
    return int(count or 0)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``ludoteca db backup|restore`` to the command line's subcommands."""
    p = sub.add_parser(
        "db",
        help="back up or restore the server's database",
        description="Back up the database while the server runs (SQLite: the online backup "
        "API; PostgreSQL: pg_dump), or restore a backup (stop the server first). See "
        "docs/operating.md.",
    )
    dsub = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    for name, work, text_ in (
        ("backup", backup, "write a backup of the database to FILE"),
        ("restore", restore, "replace the database by the backup FILE (server stopped)"),
    ):
        dp = dsub.add_parser(name, help=text_)
        dp.add_argument("file", type=Path)
        dp.add_argument(
            "--db",
            default=None,
            metavar="URL",
            help="the database (default: the one `ludoteca serve` uses, LUDOTECA_DB or "
            "SQLite in your data directory)",
        )
        dp.set_defaults(handler=_handler(work))


def _handler(work: Callable[[str, Path], None]) -> Callable[[argparse.Namespace], int]:
    def handle(args: argparse.Namespace) -> int:
        url = database_url(args.db)
        work(url, args.file)
        print(f"{args.action}: {args.file}")
        return 0

    return handle

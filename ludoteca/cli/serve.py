"""``ludoteca serve [--host H] [--port P] [--db URL] ...``: run the web app (the lobby, games
and spectators; :mod:`ludoteca.server`) until it is stopped.

Contract: each setting comes from its flag when given, else from its environment variable
(``LUDOTECA_`` and its name in capitals), else its default (:class:`~ludoteca.server.Settings`);
settings that do not validate are one error line naming each flag and its problem
(``--port: ...``), exit status 2, and nothing is started.  The server is imported only when
the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import fail

__all__ = ["register"]

#: the setting each flag gives (see ``ludoteca.server.settings``)
_FLAGS = {
    "host": "host",
    "port": "port",
    "db": "db",
    "workers": "workers",
    "open": "open_browser",
    "api_docs": "api_docs",
    "origin": "origins",
    "tables": "tables",
    "redis": "redis",
    "queue": "queue",
    "log_format": "log_format",
    "sqlite_sync": "sqlite_sync",
    "chat_words": "chat_words",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca serve`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "serve",
        help="run the web app (lobby, games, spectators)",
        description="Run the web app. Each setting can also come from an environment "
        "variable, LUDOTECA_ and its name in capitals (LUDOTECA_DB, LUDOTECA_WORKERS, "
        "LUDOTECA_REDIS...); a flag given wins.",
    )
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="(default 8000)")
    p.add_argument(
        "--db",
        default=None,
        help="SQLAlchemy URL, e.g. postgresql+asyncpg://user@host/db (default: "
        "SQLite in your data directory)",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="processes for computer players (default 2)"
    )
    p.add_argument(
        "--open", action="store_true", default=None, help="open the lobby in a web browser"
    )
    p.add_argument(
        "--api-docs",
        action="store_true",
        default=None,
        help="serve the OpenAPI pages at /api/docs (off by default)",
    )
    p.add_argument(
        "--origin",
        action="append",
        default=None,
        help="another web origin whose pages may open game websockets "
        "(repeatable; the server's own origin always may)",
    )
    p.add_argument(
        "--tables",
        action="store_true",
        default=None,
        help="build the solved tables not built yet (Felli with Mullahs, the Morris "
        "tables) in the background at low priority; the levels use each table "
        "once it is built, and a build stopped with the server goes on at its next start",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="one of several server processes sharing the --db (PostgreSQL): "
        "changes, chat and game duties go through this Redis "
        "(redis://host:6379/0)",
    )
    p.add_argument(
        "--queue",
        action="store_true",
        default=None,
        help="with --redis: put the computer's moves on the Redis queue for "
        "`ludoteca worker` processes instead of thinking here",
    )
    p.add_argument(
        "--sqlite-sync",
        choices=("normal", "full"),
        default=None,
        help="on a SQLite file: sync to disk at every commit (full: survives a power cut), or "
        "when the write-ahead log is checkpointed (normal, the default: survives a crash)",
    )
    p.add_argument(
        "--chat-words",
        type=Path,
        default=None,
        metavar="FILE",
        help="refuse chat lines holding a word or phrase of FILE (one a line; # comments)",
    )
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=None,
        help="log lines for people, or one JSON object a line (with game ids; default text)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve with the settings of ``args`` (and the environment) until stopped."""
    from pydantic import ValidationError

    from ..server import Settings, serve

    given = {
        setting: getattr(args, flag)
        for flag, setting in _FLAGS.items()
        if getattr(args, flag) is not None
    }
    try:
        settings = Settings(**given)
    except ValidationError as error:
        flags = {setting: flag.replace("_", "-") for flag, setting in _FLAGS.items()}
        problems = []
        for problem in error.errors():
            where = [str(part) for part in problem["loc"]]
            said = str(problem.get("ctx", {}).get("error", problem["msg"]))
            problems.append(f"--{flags.get(where[0], where[0])}: {said}" if where else said)
        return fail("; ".join(problems))
    serve(settings)
    return 0

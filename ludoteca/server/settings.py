"""The server's settings, in one object: read from ``LUDOTECA_*`` environment variables (e.g.
``LUDOTECA_DB``, ``LUDOTECA_WORKERS=4``, ``LUDOTECA_ORIGINS='["https://a.example"]'``), with
what is given explicitly (``ludoteca serve`` flags, or keyword arguments) taking precedence.

>>> Settings(db="sqlite+aiosqlite:///games.db", workers=1).workers
1
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, FilePath, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..ai.base import Limit
from ..study.report import REPORT_LIMIT
from .community.people import PasswordCost
from .limits import CHAT_LINES_PER_MINUTE, GAMES_PER_MINUTE
from .notify.mail import SmtpTls
from .store import SqliteSync

__all__ = ["Settings"]


class Settings(BaseSettings):
    """How one server process runs: where it listens, stores and thinks, and what it allows."""

    model_config = SettingsConfigDict(env_prefix="LUDOTECA_", frozen=True, extra="forbid")

    #: the address and port to listen on
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    #: the SQLAlchemy URL of the database (None: SQLite in the user's data directory)
    db: str | None = None
    #: processes thinking out the computer's moves (ignored with ``queue``)
    workers: int = Field(default=2, ge=1)
    #: the bound on the analysis of each position of a game report
    report_limit: Limit = REPORT_LIMIT
    #: serve the OpenAPI pages at /api/docs
    api_docs: bool = False
    #: web origins, besides the server's own, whose pages may open game websockets ("*": any)
    origins: tuple[str, ...] = ()
    #: new games one client address may create a minute
    games_per_minute: int = Field(default=GAMES_PER_MINUTE, ge=1)
    #: on a SQLite file, when a commit is synced to disk: "normal", when the write-ahead log is
    #: copied into the database (what the server acknowledged survives its crash or kill -9,
    #: not always a power cut); "full", at every commit (a power cut too; a few milliseconds
    #: of waiting a commit, which hold up every game in the process)
    sqlite_sync: SqliteSync = "normal"
    #: Redis: this process is one of several sharing the database (see ``cluster/``)
    redis: str | None = None
    #: with ``redis``: the computer's moves go on its queue for ``ludoteca worker`` processes
    queue: bool = False
    #: MiB of memory a worker process (computer moves, analysis, reports) may hold of its own
    #: after a job (its anonymous memory: the search, tables and books it keeps, its heap;
    #: not table files' pages, which the system's cache shares); past it, the process's pool
    #: is replaced by fresh processes, the old ones finishing their jobs first.  0: no bound.
    #: Linux only (read from /proc; elsewhere never replaced)
    worker_memory: int = Field(default=1024, ge=0)
    #: start the worker processes at once and load the compiled search in each (a few seconds
    #: of processor each), so that the first computer move is quick
    warm: bool = True
    #: open the lobby in a web browser once the server runs (``serve`` only)
    open_browser: bool = False
    #: build the missing solved tables in the background at low priority (``serve`` only)
    tables: bool = False
    #: study work (hints, the analysis board, game reports) thinks only on processors that live
    #: play leaves idle (Linux's ``SCHED_IDLE``); false: at the normal priority (a server for
    #: study alone, or tests on a machine that other programs keep busy)
    study_at_idle: bool = True
    #: the cost of the Argon2id hash a new password is kept as: "standard" (argon2-cffi's
    #: recommended parameters, RFC 9106's second choice: 64 MiB, 3 passes, 4 lanes; about
    #: 0.1 s of processor a hash) or "lowest" (for test runs only: the least Argon2 allows,
    #: about 40 µs, so cheap to break); a stored hash keeps its own parameters, and one made at
    #: another cost is made again at "standard" when its owner next signs in under it
    password_cost: PasswordCost = "standard"
    #: a file of words (one a line; ``#`` comments) that chat lines may not hold
    chat_words: FilePath | None = None
    #: chat lines one account may say a minute
    chat_lines_per_minute: int = Field(default=CHAT_LINES_PER_MINUTE, ge=1)
    #: log lines for people ("text") or one JSON object a line ("json")
    log_format: Literal["text", "json"] = "text"
    # --- bots (see community/bots.py) ---
    #: games a bot account plays at once, at most (a challenge beyond is declined: "later")
    bot_games: int = Field(default=4, ge=1)
    #: requests a bot may make a minute, and streams it may hold open at once
    bot_requests_per_minute: int = Field(default=120, ge=1)
    bot_streams: int = Field(default=8, ge=2)
    #: seconds a seek waits for a person before a level bot takes it (0: never)
    seek_wait: float = Field(default=10.0, ge=0)
    # --- tournaments (see tournaments/) ---
    #: seconds between the tournaments' scheduler's passes (starts, arenas' ends, what a
    #: listener missed)
    tournament_every: float = Field(default=5.0, gt=0)
    # --- notifications (see notify/) ---
    #: the address people reach the site at, for the links of e-mails (default: host and port)
    site_url: str | None = None
    #: who push services may write to about this server (VAPID's "sub": mailto: or https:)
    push_contact: str = "mailto:admin@localhost"
    #: accept push endpoints on http://127.0.0.1 (tests only; otherwise https:// alone)
    push_local: bool = False
    #: the SMTP server that sends e-mail notifications (None: no e-mail)
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    #: how the connection to it is secured: "starttls", "tls" (from the start) or "none"
    smtp_tls: SmtpTls = "starttls"
    smtp_user: str | None = None
    smtp_password: SecretStr | None = None
    #: the e-mails' From address (needed with smtp_host)
    smtp_from: str | None = None

    @model_validator(mode="after")
    def _queue_needs_redis(self) -> Self:
        if self.queue and not self.redis:
            raise ValueError("queue needs redis: the job queue is kept in Redis")
        return self

    @model_validator(mode="after")
    def _smtp_needs_a_sender(self) -> Self:
        if self.smtp_host and not self.smtp_from:
            raise ValueError("smtp_host needs smtp_from: the address e-mails are sent from")
        return self

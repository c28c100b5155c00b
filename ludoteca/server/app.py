"""The web app: pages, a JSON API and a websocket per game (see ``docs/web.md``).

``create_app(settings)`` builds the FastAPI application; ``serve(settings)`` runs it with
uvicorn (see :class:`~.settings.Settings`).  The server is authoritative: pages send intents,
the :class:`~.play.hub.Hub` checks them with the engine, stores them and sends the new position
to every watcher.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.util import find_spec

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..i18n import Languages
from .cluster.fanout import Fanout
from .collector import Collector
from .community.chat import Chat
from .community.levels import LevelRatings
from .community.moderation import ChatRules, Moderation, read_words
from .community.people import Accounts
from .community.seeks import Seeks
from .computer.computer import Computer
from .computer.interrupt import Interrupts, shared_ticket
from .computer.pool import WorkerPool
from .computer.queue import JobQueue
from .computer.tables import start_building, stop_building
from .computer.workers import analysis_worker, die_with_parent, load_compiled, report_worker
from .deps import Guards, Services
from .errors import ActionError
from .invalid import describe
from .limits import MAX_BODY, BodyLimit, SecurityHeaders
from .logs import configure
from .play.hub import Hub
from .routers import (
    accounts,
    analysis,
    api,
    community,
    explorer,
    lessons,
    moderation,
    ops,
    pages,
    puzzles,
    reports,
    socket,
)
from .routers.pages import STATIC
from .settings import Settings
from .store import Store, default_url
from .study.analysis import loaded as analysis_loaded
from .websocket import DirectProtocol

__all__ = ["create_app", "serve"]

log = logging.getLogger("ludoteca.server")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _load_compiled(first: WorkerPool, rest: list[WorkerPool]) -> None:
    """Load the compiled search in ``first``'s process (the analysis process), then the module
    of the analysis board's jobs there (:func:`~.study.analysis.loaded`), then the search once in
    each of ``rest`` (a pool listed N times: N of its processes): on a fresh machine the first
    compiles it and the others load numba's cache, rather than each compiling it at the same
    time.  A failure is logged and the others are loaded all the same (each process compiles on
    its first job otherwise)."""
    try:
        await asyncio.wrap_future(first.submit(load_compiled))
        await asyncio.wrap_future(first.submit(analysis_loaded))
    except Exception:
        log.exception("loading the compiled search in the analysis process failed")
    for executor in rest:
        try:
            executor.submit(load_compiled)
        except RuntimeError:  # a broken or closed pool: its processes start with a job instead
            log.exception("loading the compiled search in a worker process failed")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, run as ``settings`` say (default: from the environment, see
    :class:`~.settings.Settings`): games stored in ``settings.db``, the computer thinking in
    ``settings.workers`` processes (or, with ``settings.queue``, in ``ludoteca worker``
    processes through Redis), one of several processes with ``settings.redis``.  Its services
    are ``app.state.services`` (:class:`~.deps.Services`) while it runs."""
    settings = settings or Settings()
    guards = Guards(settings.games_per_minute, settings.origins)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db or default_url(), settings.sqlite_sync)
        store.timings = guards.timings
        await store.open()
        ticket = shared_ticket()
        idle = settings.study_at_idle
        analysis = WorkerPool(1, analysis_worker, (os.getpid(), ticket, idle))
        reporting = WorkerPool(1, report_worker, (os.getpid(), idle))
        pool = (
            analysis
            if settings.queue
            else WorkerPool(settings.workers, die_with_parent, (os.getpid(),))
        )
        background = []
        if settings.warm:
            rest = [reporting] + ([] if settings.queue else [pool] * settings.workers)
            background.append(
                asyncio.get_running_loop().create_task(_load_compiled(analysis, rest))
            )
        fanout = Fanout(settings.redis, guards.registry) if settings.redis else None
        jobs = (
            JobQueue(settings.redis, guards.registry) if settings.queue and settings.redis else None
        )
        if jobs is not None:
            await jobs.start()
        computer = Computer(
            pool,
            settings.workers,
            analysis,
            settings.report_limit,
            guards.registry,
            jobs,
            reports=reporting,
            interrupts=Interrupts(ticket),
        )
        hub = Hub(store, computer, fanout, guards.registry, guards.timings)
        # -- moderation (chat rules before the chat; the service beside the others)
        words = read_words(settings.chat_words) if settings.chat_words else ()
        rules = ChatRules(store, words, settings.chat_lines_per_minute)
        chat = Chat(store, hub.games, hub.cluster, rules)
        app.state.moderation = Moderation(store, hub, rules)
        # -- (end of moderation)
        if fanout is not None:
            await hub.cluster.start(chat.said_elsewhere)
            background.append(asyncio.get_running_loop().create_task(hub.cluster.adopt()))
        app.state.services = Services(
            settings,
            guards,
            store,
            hub,
            computer,
            chat,
            Accounts(store),
            Seeks(store, hub.open),
            LevelRatings(store),
        )
        resumed = await hub.resume()
        if resumed:
            log.info("resumed %d games where the computer is to move", resumed)
        background.append(asyncio.get_running_loop().create_task(hub.duties.sweep()))
        background.append(asyncio.get_running_loop().create_task(guards.timings.watch_loop()))
        hub.background(hub.reports.resume(hub.get))
        hub.background(hub.explorer.refresh())
        # the cyclic collector runs by the clock, what survives a young pass frozen (see
        # .collector): what start-up loaded (modules, compiled code, tables) first
        collector = Collector()
        collector.start()
        builds = start_building() if settings.tables else None
        try:
            yield
        finally:
            stop_building(builds)
            collector.stop()
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            await hub.close()
            if fanout is not None:
                await fanout.close()
            if jobs is not None:
                await jobs.close()
            pool.close()
            analysis.close()
            reporting.close()
            await store.close()

    app = FastAPI(
        title="Ludoteca",
        lifespan=lifespan,
        docs_url="/api/docs" if settings.api_docs else None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if settings.api_docs else None,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Languages)

    @app.exception_handler(ActionError)
    async def refused(request: Request, error: ActionError) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(400, describe(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
            return pages.not_found()
        return _error(error.status_code, str(error.detail))

    for router in (
        pages.router,
        api.router,
        accounts.router,
        community.router,
        socket.router,
        analysis.router,
        reports.router,
        explorer.router,
        lessons.router,
        puzzles.router,
        moderation.router,
        ops.router,
    ):
        app.include_router(router)
    socket.document_messages(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def serve(settings: Settings | None = None) -> None:
    """Run the web app until interrupted, printing its address first (and opening it in a
    browser with ``settings.open_browser``; with ``settings.tables``, building the missing
    solved tables in the background).  Game events are logged to standard error, as text or
    JSON lines (``settings.log_format``).  On SIGTERM or Ctrl-C the server stops taking
    connections, closes every websocket with code 1012 (the pages reconnect, through a proxy
    to another process) and finishes what it was writing."""
    settings = settings or Settings()
    configure(settings.log_format)
    app = create_app(settings)
    host, port = settings.host, settings.port
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"Ludoteca is running at {address}  (Ctrl-C stops it)", flush=True)
    graphical = bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or sys.platform in ("darwin", "win32")
    )
    if settings.open_browser and graphical:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        # (where uvloop is installed, it with connections accepted in batches: see .loop)
        loop="ludoteca.server.loop:new_loop" if find_spec("uvloop") else "auto",
        # (uvicorn's websockets-sansio, able to write a message at once: see .websocket)
        ws=DirectProtocol,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=10,
        log_config=None,
    )

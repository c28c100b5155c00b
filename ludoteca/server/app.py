"""The web app: pages, a JSON API and a websocket per game (see ``docs/web.md``).

``create_app(db_url)`` builds the FastAPI application; ``serve()`` runs it with uvicorn.  The
server is authoritative: pages send intents, the :class:`~.hub.Hub` checks them with the engine,
stores them and sends the new position to every watcher.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..ai import Limit
from .cluster.fanout import Fanout
from .community.people import Accounts
from .community.seeks import Seeks
from .computer.computer import REVIEW_LIMIT
from .computer.queue import JobQueue
from .computer.workers import die_with_parent, load_compiled
from .deps import Guards
from .errors import ActionError
from .limits import GAMES_PER_MINUTE, MAX_BODY, BodyLimit, SecurityHeaders
from .play.hub import Hub
from .routers import accounts, api, community, ops, pages, socket
from .routers.pages import STATIC
from .schemas import describe
from .store import Store, default_url

__all__ = ["create_app", "serve"]

#: the collector runs less often than Python's default (700, 10, 10): a busy server makes many
#: short-lived objects, and each pass over the young ones costs a pause
GC_THRESHOLDS = (20_000, 20, 20)
log = logging.getLogger("ludoteca.server")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _load_compiled(first: ProcessPoolExecutor, rest: list[ProcessPoolExecutor]) -> None:
    """Load the compiled search in ``first``'s process, then once in each of ``rest`` (a pool
    listed N times: N of its processes): on a fresh machine the first compiles it and the others
    load numba's cache, rather than each compiling it at the same time.  A failure is logged
    and the others are loaded all the same (each process compiles on its first job otherwise)."""
    try:
        await asyncio.wrap_future(first.submit(load_compiled))
    except Exception:
        log.exception("loading the compiled search in the analysis process failed")
    for executor in rest:
        try:
            executor.submit(load_compiled)
        except RuntimeError:  # a broken or closed pool: its processes start with a job instead
            log.exception("loading the compiled search in a worker process failed")


def create_app(
    db_url: str | None = None,
    workers: int = 2,
    review_limit: Limit | None = None,
    api_docs: bool = False,
    origins: tuple[str, ...] = (),
    games_per_minute: int = GAMES_PER_MINUTE,
    redis_url: str | None = None,
    queue: bool = False,
    warm: bool = True,
) -> FastAPI:
    """The application, storing games at ``db_url`` (default: SQLite in the user's data
    directory) and thinking in ``workers`` processes; ``review_limit`` bounds the analysis of
    each position when a finished game is reviewed (default 0.2 s).  ``api_docs`` serves the
    OpenAPI pages at ``/api/docs``; ``origins`` are the web origins, besides the server's own,
    whose pages may open game websockets (``"*"``: any); ``games_per_minute`` bounds how many
    games one address creates a minute; ``redis_url`` makes this process one of several
    sharing the database (see :mod:`.fanout`); with ``queue`` too, the computer's moves go on
    that Redis's queue for ``ludoteca worker`` processes (see :mod:`.queue`) and ``workers``
    is ignored.  ``warm`` starts the worker processes at once and loads the compiled search in
    each (a few seconds of processor each), so the first computer move is quick; without it a
    worker process starts with its first job."""
    if queue and not redis_url:
        raise ValueError("the job queue needs Redis")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url or default_url())
        await store.open()
        spawn = multiprocessing.get_context("spawn")
        analysis = ProcessPoolExecutor(
            1, mp_context=spawn, initializer=die_with_parent, initargs=(os.getpid(),)
        )
        pool = (
            analysis
            if queue
            else ProcessPoolExecutor(
                workers, mp_context=spawn, initializer=die_with_parent, initargs=(os.getpid(),)
            )
        )
        background = []
        if warm:
            rest = [] if queue else [pool] * workers
            background.append(
                asyncio.get_running_loop().create_task(_load_compiled(analysis, rest))
            )
        fanout = Fanout(redis_url) if redis_url else None
        jobs = JobQueue(redis_url, guards.registry) if queue and redis_url else None
        if jobs is not None:
            await jobs.start()
        hub = Hub(
            store,
            pool,
            review_limit or REVIEW_LIMIT,
            analysis,
            workers,
            guards.registry,
            fanout,
            jobs,
        )
        if fanout is not None:
            await fanout.start(hub.changed_elsewhere, hub.said_elsewhere)
            background.append(asyncio.get_running_loop().create_task(hub.adopt()))
        app.state.hub = hub
        app.state.accounts = Accounts(store)
        app.state.seeks = Seeks(store)
        resumed = await hub.resume()
        if resumed:
            log.info("resumed %d games where the computer is to move", resumed)
        background.append(asyncio.get_running_loop().create_task(hub.sweep()))
        # what start-up loaded (modules, compiled code, tables) stays: the collector's full
        # passes skip it from now on, which keeps their pauses short under load
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            await hub.close()
            if fanout is not None:
                await fanout.close()
            if jobs is not None:
                await jobs.close()
            pool.shutdown(wait=False, cancel_futures=True)
            analysis.shutdown(wait=False, cancel_futures=True)
            await store.close()

    app = FastAPI(
        title="Ludoteca",
        lifespan=lifespan,
        docs_url="/api/docs" if api_docs else None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if api_docs else None,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    guards = Guards(games_per_minute, origins)
    app.state.guards = guards
    app.add_middleware(SecurityHeaders)

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
        ops.router,
    ):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    workers: int = 2,
    open_browser: bool = False,
    api_docs: bool = False,
    origins: tuple[str, ...] = (),
    tables: bool = False,
    log_format: str = "text",
    redis_url: str | None = None,
    queue: bool = False,
) -> None:
    """Run the web app until interrupted, printing its address first (and opening it in a
    browser when asked; with ``tables``, building the missing solved tables in the background).
    Game events are logged to standard error, as text or JSON lines (``log_format``).  On
    SIGTERM or Ctrl-C the server stops taking connections, closes every websocket with code
    1012 (the pages reconnect, through a proxy to another process) and finishes what it was
    writing."""
    import threading
    import webbrowser

    import uvicorn

    from .logs import configure

    configure(log_format)
    app = create_app(
        db_url, workers, api_docs=api_docs, origins=origins, redis_url=redis_url, queue=queue
    )
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"Ludoteca is running at {address}  (Ctrl-C stops it)", flush=True)
    graphical = bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or sys.platform in ("darwin", "win32")
    )
    if open_browser and graphical:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    if tables:
        from .computer.tables import start_building

        start_building()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=10,
        log_config=None,
    )

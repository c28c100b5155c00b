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
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.util import find_spec

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..i18n import Languages
from .collector import Collector
from .computer.tables import start_building, stop_building
from .errors import ActionError
from .invalid import describe
from .limits import MAX_BODY, BodyLimit, HeadLimit, SecurityHeaders
from .logs import configure
from .routers import (
    accounts,
    analysis,
    api,
    board_api,
    bot_api,
    challenges,
    community,
    correspondence,
    explorer,
    lessons,
    mistakes,
    moderation,
    notifications,
    ops,
    pages,
    puzzles,
    reports,
    socket,
    studies,
    tournaments,
)
from .routers.pages import STATIC
from .services import build_services
from .settings import Settings
from .websocket import DirectProtocol

__all__ = ["create_app", "serve"]

log = logging.getLogger("ludoteca.server")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    settings: Settings | None = None, *, clock: Callable[[], int] | None = None
) -> FastAPI:
    """The application, run as ``settings`` say (default: from the environment, see
    :class:`~.settings.Settings`).  Its services are built by the composition root
    (:func:`~.services.build_services`) when it starts and are ``app.state.services``
    (:class:`~.deps.Services`) while it runs; its lifespan starts and stops their background
    work.  ``clock`` is for tests only (the wall clock, epoch ms, of the players' intents and
    the correspondence deadlines; default the real one): it is no setting, so no environment
    variable or command-line flag can set it."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with build_services(settings, clock=clock) as services:
            app.state.services = services
            hub, cluster = services.hub, services.cluster
            loop = asyncio.get_running_loop()
            background = []
            if cluster.fanout is not None:
                await cluster.start(services.chat.said_elsewhere)
                background.append(loop.create_task(cluster.adopt()))
            resumed = await hub.resume()
            if resumed:
                log.info("resumed %d games where the computer is to move", resumed)
            background.append(loop.create_task(services.duties.sweep()))
            background.append(loop.create_task(services.correspondence.run()))
            background.append(loop.create_task(services.guards.timings.watch_loop()))
            background.append(loop.create_task(services.tournaments.run(settings.tournament_every)))
            # the server's computer levels as bot accounts, answering seeks left waiting
            if settings.seek_wait:
                background.append(loop.create_task(services.bots.answer_seeks()))
            background.append(loop.create_task(services.challenges.sweep()))
            hub.tasks.spawn(services.reports.resume(hub.get))
            hub.tasks.spawn(services.explorer.refresh())
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
        correspondence.router,
        correspondence.pages,
        analysis.router,
        board_api.router,
        reports.router,
        explorer.router,
        lessons.router,
        mistakes.router,  # (before the puzzles': its /puzzles/{id} would take these paths)
        puzzles.router,
        moderation.router,
        notifications.router,
        challenges.router,
        bot_api.router,
        ops.router,
        tournaments.router,
        tournaments.pages,
        studies.router,
        studies.pages,
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
        http=HeadLimit,  # (request heads capped: see .limits)
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=10,
        log_config=None,
    )

"""The web app: pages, a JSON API and a websocket per game (see ``docs/web.md``).

``create_app(db_url)`` builds the FastAPI application; ``serve()`` runs it with uvicorn.  The
server is authoritative: pages send intents, the :class:`~.hub.Hub` checks them with the engine,
stores them and sends the new position to every watcher.
"""

from __future__ import annotations

import asyncio
import datetime
import gc
import json
import logging
import multiprocessing
import os
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Gauge,
    Histogram,
    generate_latest,
)
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import svg
from ..ai import Limit
from ..core import LudotecaError
from ..games import resolve
from .hub import REVIEW_LIMIT, ActionError, Hub
from .limits import BodyLimit, RateLimit, SecurityHeaders, nesting, origin_allowed
from .live import Watcher
from .store import Store, default_url
from .views import encode
from .workers import die_with_parent, replay_record, warm

__all__ = ["create_app", "serve"]

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4096  # bytes in one websocket message
MAX_BODY = 256 * 1024  # bytes in one HTTP request body (records included)
GAMES_PER_MINUTE = 30  # new games from one address in a minute
SOCKETS_PER_CLIENT = 32  # open game websockets from one address
LOCAL = ("127.0.0.1", "::1", "testclient")  # clients that may read /metrics
REPLAY_EXPECTED = 0.5  # seconds: a record replay goes after hints, before reviews
MAX_NESTING = 16  # arrays and objects inside each other in one websocket message
#: the collector runs less often than Python's default (700, 10, 10): a busy server makes many
#: short-lived objects, and each pass over the young ones costs a pause
GC_THRESHOLDS = (20_000, 20, 20)
log = logging.getLogger("ludoteca.server")


class NewGame(BaseModel):
    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    opponent: str = Field(default="computer", max_length=16)
    colour: str = Field(default="white", max_length=8)
    level: int | None = Field(default=None, ge=1, le=50)
    position: str | None = Field(default=None, max_length=400)
    clock: str | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=64)


class Joining(BaseModel):
    name: str | None = Field(default=None, max_length=64)


class Action(BaseModel):
    token: str | None = Field(default=None, max_length=200)
    type: str = Field(max_length=32)
    move: str | None = Field(default=None, max_length=200)
    ply: int | None = None


class Seat(BaseModel):
    token: str | None = Field(default=None, max_length=200)


class RecordText(BaseModel):
    text: str = Field(max_length=MAX_BODY)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(db_url: str | None = None, workers: int = 2,
               review_limit: Limit | None = None, api_docs: bool = False,
               origins: tuple[str, ...] = (), games_per_minute: int = GAMES_PER_MINUTE
               ) -> FastAPI:
    """The application, storing games at ``db_url`` (default: SQLite in the user's data
    directory) and thinking in ``workers`` processes; ``review_limit`` bounds the analysis of
    each position when a finished game is reviewed (default 0.2 s).  ``api_docs`` serves the
    OpenAPI pages at ``/api/docs``; ``origins`` are the web origins, besides the server's own,
    whose pages may open game websockets (``"*"``: any); ``games_per_minute`` bounds how many
    games one address creates a minute."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url or default_url())
        await store.open()
        spawn = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(workers, mp_context=spawn, initializer=die_with_parent,
                                   initargs=(os.getpid(),))
        analysis = ProcessPoolExecutor(1, mp_context=spawn, initializer=die_with_parent,
                                       initargs=(os.getpid(),))
        for executor, count in ((pool, workers), (analysis, 1)):
            for _ in range(count):
                executor.submit(warm)
        hub = Hub(store, pool, review_limit or REVIEW_LIMIT, analysis, workers, registry)
        app.state.hub = hub
        resumed = await hub.resume()
        if resumed:
            log.info("resumed %d games where the computer is to move", resumed)
        sweeper = asyncio.get_running_loop().create_task(hub.sweep())
        # what start-up loaded (modules, compiled code, tables) stays: the collector's full
        # passes skip it from now on, which keeps their pauses short under load
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            sweeper.cancel()
            hub.close()
            pool.shutdown(wait=False, cancel_futures=True)
            analysis.shutdown(wait=False, cancel_futures=True)
            await store.close()

    app = FastAPI(title="Ludoteca", lifespan=lifespan,
                  docs_url="/api/docs" if api_docs else None, redoc_url=None,
                  openapi_url="/api/openapi.json" if api_docs else None)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    creations = RateLimit(games_per_minute, 60.0)
    sockets: dict[str, int] = {}  # open game websockets per client address
    registry = CollectorRegistry()
    Gauge("ludoteca_connections", "Open game websockets",
          registry=registry).set_function(lambda: sum(sockets.values()))
    intents = Histogram("ludoteca_intent_seconds",
                        "Time from a websocket intent's arrival to its answer being queued",
                        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
                        registry=registry)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(ActionError)
    async def refused(request: Request, error: ActionError) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
        return _error(400, "bad request: " + "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
            return FileResponse(STATIC / "missing.html", status_code=404)
        return _error(error.status_code, str(error.detail))

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # --- pages ------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> FileResponse:
        try:
            await hub_of(request).get(game_id)
        except ActionError as error:
            if error.status == 404:
                return FileResponse(STATIC / "missing.html", status_code=404)
            raise
        return FileResponse(STATIC / "game.html")

    @app.get("/review", include_in_schema=False)
    async def review_page() -> FileResponse:
        return FileResponse(STATIC / "review.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """The server's metrics in Prometheus' text format, for this machine only."""
        if not request.client or request.client.host not in LOCAL:
            raise ActionError(404, "not found")
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    # --- API ----------------------------------------------------------------------------------
    @app.get("/api/catalogue")
    async def catalogue(request: Request) -> list[dict[str, Any]]:
        """Every game: rule sets, computer levels with ratings, a summary, the start picture."""
        return hub_of(request).catalogue()

    @app.get("/api/levels")
    async def game_levels(game: str = Query(max_length=64),
                          rules: str | None = Query(default=None, max_length=200)
                          ) -> list[dict[str, Any]]:
        """The computer levels the server plays for a rule-set spec (``name:setting,...``)."""
        try:
            _, ruleset = resolve(game, rules or None)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        return Hub.levels(ruleset)

    @app.get("/api/lobby")
    async def lobby(request: Request) -> dict[str, Any]:
        """Online games waiting for a second player, and games in play to watch."""
        hub = hub_of(request)

        def brief(row: Any) -> dict[str, Any]:
            return {"id": row.id, "game": row.game, "rules": row.rules, "mode": row.mode,
                    "ply": row.ply, "white": row.white, "black": row.black,
                    "free": "white" if row.white_token is None else "black",
                    "white_name": row.white_name, "black_name": row.black_name,
                    "updated": row.updated.replace(
                        tzinfo=row.updated.tzinfo or datetime.UTC).isoformat()}

        return {"open": [brief(r) for r in await hub.store.listing("waiting")],
                "live": [brief(r) for r in await hub.store.listing("live", started=True)]}

    @app.post("/api/games", status_code=201)
    async def create(request: Request, body: NewGame) -> dict[str, Any]:
        """Start a game; the answer holds the creator's seat tokens (keep them secret)."""
        if not creations.allow(request.client.host if request.client else "?"):
            raise ActionError(429, f"at most {GAMES_PER_MINUTE} new games a minute from one "
                                   "address; wait a moment")
        game_id, tokens = await hub_of(request).create(
            body.game, body.rules, body.opponent, body.colour, body.level, body.position,
            body.clock, request.client.host if request.client else "?", body.name)
        return {"id": game_id, "tokens": tokens, "url": f"/game/{game_id}"}

    @app.post("/api/games/{game_id}/join")
    async def join(request: Request, game_id: str, body: Joining | None = None
                   ) -> dict[str, str]:
        """Take the free seat of an online game (``{"name"}`` optional: a display name)."""
        colour, token = await hub_of(request).join(game_id, body.name if body else None)
        return {"colour": colour, "token": token}

    @app.get("/api/games/{game_id}")
    async def view(request: Request, game_id: str) -> dict[str, Any]:
        """The game as a page draws it (seat token in the ``X-Seat-Token`` header, optional)."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        return hub.view(live, live.seats(request.headers.get("x-seat-token")))

    @app.post("/api/games/{game_id}/actions")
    async def act(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        """move (with ``move`` and ``ply``), resign, offer_draw, accept_draw, decline_draw,
        undo, accept_undo, decline_undo."""
        hub = hub_of(request)
        await hub.act(game_id, body.token, body.model_dump(exclude={"token"}))
        live = await hub.get(game_id)
        return hub.view(live, live.seats(body.token))

    @app.post("/api/games/{game_id}/hint")
    async def hint(request: Request, game_id: str, body: Seat) -> dict[str, Any]:
        """The computer's best move for you, its evaluation and the line it expects."""
        return await hub_of(request).hint(game_id, body.token)

    @app.post("/api/games/{game_id}/review")
    async def review(request: Request, game_id: str) -> list[dict[str, Any]]:
        """The mistakes of a finished game: move index, move, better move, loss (0..1)."""
        return await hub_of(request).review(game_id)

    @app.get("/api/games/{game_id}/picture.svg")
    async def picture(request: Request, game_id: str, flipped: bool = False) -> Response:
        """The current position as an SVG picture (last move highlighted)."""
        live = await hub_of(request).get(game_id)
        return Response(svg.render(live.state, flipped=flipped), media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/record")
    async def record(request: Request, game_id: str) -> PlainTextResponse:
        """The game's text record, as a download."""
        text = await hub_of(request).record(game_id)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="ludoteca-{game_id}.txt"'})

    @app.post("/api/records/replay")
    async def replay(request: Request, body: RecordText) -> dict[str, Any]:
        """Replay a text record: every position from the start, for stepping through it (in a
        worker process: a long record never holds up the server)."""
        answer = await hub_of(request).advisers.run(REPLAY_EXPECTED, replay_record, body.text)
        if "error" in answer:
            raise ActionError(400, answer["error"])
        return answer

    # --- websocket ----------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        """First message ``{"type": "hello", "token": ...}`` (token optional: watching); then
        intents as for ``/actions``.  The server sends ``state`` after every change and
        ``error`` to the sender of a refused intent."""
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                              origins):
            await websocket.close(code=1008, reason="this origin may not open game sockets")
            return
        address = websocket.client.host if websocket.client else "?"
        if sockets.get(address, 0) >= SOCKETS_PER_CLIENT:
            await websocket.close(code=1008, reason="too many connections from one address")
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await _serve_socket(websocket, game_id)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def _serve_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        hub = hub_of(websocket)
        try:
            live = await hub.get(game_id)
        except ActionError as error:
            await websocket.send_text(encode({"type": "error", "message": error.message}))
            await websocket.close(code=4404)
            return
        watcher = Watcher()
        pending: set[asyncio.Task[None]] = set()
        token: str | None = None

        def tell(message: dict[str, Any]) -> None:
            watcher.push(encode(message))

        async def advice(kind: str, seat: str | None) -> None:
            """Send a hint or a game review when it is ready (the socket keeps serving)."""
            try:
                if kind == "hint":
                    tell({"type": "hint", **await hub.hint(game_id, seat)})
                else:
                    tell({"type": "review", "mistakes": await hub.review(game_id)})
            except ActionError as error:
                tell({"type": "error", "message": error.message})

        pump = asyncio.create_task(watcher.pump(websocket.send_text,
                                                lambda: hub.whole_view(live, watcher)))
        try:
            while True:
                # (a connection that fails while sending is seen here as a disconnect)
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    intent = _read_intent(message.get("text"))
                    if intent["type"] == "hello":
                        given = intent.get("token")
                        token = given if isinstance(given, str) else None
                        hub.watch(live, watcher, token)
                    elif intent["type"] in ("hint", "review"):
                        task = asyncio.create_task(advice(intent["type"], token))
                        pending.add(task)
                        task.add_done_callback(pending.discard)
                    else:
                        with intents.time():
                            await hub.act(game_id, token, intent)
                except ActionError as error:
                    tell({"type": "error", "message": error.message})
        except WebSocketDisconnect:
            pass
        finally:
            pump.cancel()
            for task in pending:
                task.cancel()
            if watcher in live.watchers:
                hub.unwatch(live, watcher)
                hub.broadcast(live)

    return app


def _read_intent(text: str | None) -> dict[str, Any]:
    if text is None:
        raise ActionError(400, "messages are JSON text, not binary")
    if len(text.encode()) > MAX_MESSAGE:
        raise ActionError(413, f"messages are limited to {MAX_MESSAGE} bytes")
    if nesting(text) > MAX_NESTING:
        raise ActionError(400, f"messages nest at most {MAX_NESTING} levels deep")
    try:
        intent = json.loads(text)
    except json.JSONDecodeError:
        raise ActionError(400, "messages are JSON objects, e.g. {\"type\": \"hello\"}") from None
    if not isinstance(intent, dict) or not isinstance(intent.get("type"), str):
        raise ActionError(400, "a message is a JSON object with a \"type\"")
    return intent


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None,
          workers: int = 2, open_browser: bool = False, api_docs: bool = False,
          origins: tuple[str, ...] = (), tables: bool = False) -> None:
    """Run the web app until interrupted, printing its address first (and opening it in a
    browser when asked; with ``tables``, building the missing solved tables in the background).
    Game events are logged to standard error."""
    import threading
    import webbrowser

    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    app = create_app(db_url, workers, api_docs=api_docs, origins=origins)
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"Ludoteca is running at {address}  (Ctrl-C stops it)", flush=True)
    graphical = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                     or sys.platform in ("darwin", "win32"))
    if open_browser and graphical:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    if tables:
        from .tables import start_building

        start_building()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024,
                ws_per_message_deflate=False)

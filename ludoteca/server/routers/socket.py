"""A game's websocket: the whole view on ``hello``, an update after every change, intents
checked by the hub, hints sent when ready (see ``docs/web.md``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter

from ..community.chat import Chat
from ..community.people import User
from ..computer.computer import Computer
from ..deps import ChatDep, Client, ComputerDep, Guards, GuardsDep, HubDep, viewer
from ..errors import ActionError
from ..limits import MAX_MESSAGE
from ..play.bot_schemas import BotEvent, GameLine
from ..play.hub import Hub
from ..play.live import Watcher
from ..play.views import encode
from ..schemas import (
    Advice,
    ErrorMessage,
    Hello,
    HintMessage,
    Incoming,
    Message,
    MoveIntent,
    Outgoing,
    Plain,
    Say,
    read_message,
)
from ..study.schemas import AnalysisOutgoing
from ..study.study_schemas import StudyIncoming, StudyOutgoing
from ..timings import Timings
from ..websocket import SEND_NOW
from .analysis import AnalysisIncoming

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def socket(
    websocket: WebSocket,
    game_id: str,
    hub: HubDep,
    computer: ComputerDep,
    chat: ChatDep,
    guards: GuardsDep,
    address: Client,
) -> None:
    """First message ``{"type": "hello", "token": ...}`` (token optional: watching); then
    intents as for ``/actions``.  The server sends ``state``, then an ``update`` after every
    change, and ``error`` to the sender of a refused intent."""
    if not await guards.admit(websocket, address, "game sockets"):
        return
    try:
        await _serve(websocket, game_id, hub, computer, chat, guards, await viewer(websocket))
    finally:
        guards.release(address)


async def _serve(
    websocket: WebSocket,
    game_id: str,
    hub: Hub,
    computer: Computer,
    chat: Chat,
    guards: Guards,
    user: User | None,
) -> None:
    """Serve one connection; a signed-in ``user`` (session cookie) also holds the account's
    seats."""
    me = user.id if user else None
    await websocket.accept()
    try:
        live = await hub.current(game_id)
    except ActionError as error:
        await websocket.send_text(encode(_refusal(error)))
        await websocket.close(code=4404)
        return
    timings = guards.timings
    watcher = Watcher(send_now=_send_now(websocket, timings))
    pending: set[asyncio.Task[None]] = set()
    token: str | None = None

    def tell(message: Outgoing) -> None:
        watcher.push(encode(message))

    async def advice(seat: str | None) -> None:
        """Send a hint when it is ready (the socket keeps serving)."""
        try:
            current = await hub.get(game_id)  # (reloaded if it left memory meanwhile)
            found = await computer.hint(current, current.seats(seat, me))
            tell(HintMessage(type="hint", **found.model_dump()))
        except ActionError as error:
            tell(_refusal(error))

    async def send(text: str) -> None:
        with timings.stage("send"):
            await websocket.send_text(text)

    pump = asyncio.create_task(watcher.pump(send, lambda: hub.whole_view(live, watcher)))
    try:
        while True:
            # (a connection that fails while sending is seen here as a disconnect)
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                with timings.stage("parse"):
                    intent = _read_intent(message.get("text"))
                if isinstance(intent, Hello):
                    token = intent.token
                    hub.watch(live, watcher, token, me)
                    earlier = await chat.earlier(live, watcher, me)
                    if earlier.lines:  # the room's earlier lines, if any
                        tell(earlier)
                elif isinstance(intent, Say):
                    try:
                        await chat.say(
                            live,
                            watcher,
                            intent.room,
                            intent.text,
                            (user.id, user.name) if user else None,
                        )
                    except ActionError as error:
                        tell(_refusal(error, about="chat"))
                elif isinstance(intent, Advice):
                    task = asyncio.create_task(advice(token))
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                else:
                    with guards.intents.time():
                        await hub.act(game_id, token, intent, me)
            except ActionError as error:
                tell(_refusal(error))
    except WebSocketDisconnect:
        pass
    finally:
        pump.cancel()
        for task in pending:
            task.cancel()
        if watcher in live.watchers:
            hub.unwatch(live, watcher)


def _refusal(error: ActionError, about: Literal["chat"] | None = None) -> ErrorMessage:
    """The message telling the sender why its message was refused (``about``: see
    :class:`ErrorMessage`)."""
    return ErrorMessage(type="error", message=error.message, about=about)


def _send_now(websocket: WebSocket, timings: Timings) -> Callable[[str], bool] | None:
    """The server's way to write a message at once (see :mod:`..websocket`), timed as the
    ``send`` stage; None where the server has none (the test client)."""
    extension = websocket.scope.get("extensions", {}).get(SEND_NOW)
    if extension is None:
        return None
    direct: Callable[[str], bool] = extension["send"]
    stage = timings.stage("send")

    def send_now(text: str) -> bool:
        with stage:
            return direct(text)

    return send_now


def _read_intent(text: str | None) -> Hello | MoveIntent | Plain | Advice | Say:
    """A game websocket message, checked (see :func:`read_message`)."""
    return read_message(text, Message, MAX_MESSAGE, '{"type": "hello"}')


#: the websockets' messages as the OpenAPI document names them (each message's own model is
#: among the document's components too): the game websocket's, and the analysis board's
MESSAGES: dict[str, tuple[Any, Literal["validation", "serialization"]]] = {
    "ServerMessage": (Outgoing, "serialization"),
    "ClientMessage": (Incoming, "validation"),
    "AnalysisServerMessage": (AnalysisOutgoing, "serialization"),
    "AnalysisClientMessage": (AnalysisIncoming, "validation"),
    # a study's websocket (routers/studies.py)
    "StudyServerMessage": (StudyOutgoing, "serialization"),
    "StudyClientMessage": (StudyIncoming, "validation"),
    # the Bot API's streams' lines (routers/bot_api.py)
    "BotEvent": (BotEvent, "serialization"),
    "GameLine": (GameLine, "serialization"),
}


def document_messages(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document (``/api/openapi.json``) describe the websockets'
    messages (:data:`MESSAGES`): the game websocket's ``ServerMessage`` (what the server sends:
    ``state``, ``update``, ``error``, ``hint``, ``chat``, ``chat_history``, ``chat_removed``)
    and ``ClientMessage`` (what a page sends), and the analysis board's
    ``AnalysisServerMessage`` (``line``, ``position``, ``lines``, ``done``, ``error``) and
    ``AnalysisClientMessage`` (``show``, ``open``, ``stop``), a study's ``StudyServerMessage``
    (``study``, ``chapter``, ``change``, ``position``, ``error``) and ``StudyClientMessage``
    (``open``, ``change``, ``where``), and the lines of the Bot API's
    streams (``BotEvent``, ``GameLine``), with the models they are made
    of, among its component schemas."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = make()
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            for name, (shape, mode) in MESSAGES.items():
                schema = TypeAdapter[Any](shape).json_schema(
                    ref_template="#/components/schemas/{model}", mode=mode
                )
                for model, definition in schema.pop("$defs", {}).items():
                    schemas.setdefault(model, definition)
                schemas[name] = schema
        return make()  # (made once, then kept)

    app.openapi = openapi  # type: ignore[method-assign]  # (FastAPI's way to extend it)

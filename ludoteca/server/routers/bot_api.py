"""The Bot API, in the shape of lichess's (see ``docs/web.md``): newline-delimited JSON streams
of a bot's events and of each of its games, and its moves, resignations and draw answers; each
request with ``Authorization: Bearer TOKEN`` (a bot's token), counted against its limits.  A
stream ends when its client goes away (its queue is unsubscribed on the way out)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from ...i18n import _
from ..community.bots import make_bot
from ..deps import (
    BotsDep,
    ChallengesDep,
    EventsDep,
    GameFeedsDep,
    HubDep,
    SignedIn,
    StoreDep,
    csrf_guard,
)
from ..errors import ActionError
from ..play.bot_feeds import game_full
from ..play.bot_schemas import event_line, game_line
from ..schemas import Done, MoveIntent, Plain

router = APIRouter(prefix="/api/bot", dependencies=[Depends(csrf_guard)])

#: seconds between the empty lines that keep an idle stream open (and find a client gone)
KEEP_ALIVE = 7.0
NDJSON = "application/x-ndjson"


class BotToken(BaseModel):
    """A bot's API token (shown once: the server keeps only its hash)."""

    token: str


async def _bot(bots: BotsDep, authorization: Annotated[str | None, Header()] = None) -> int:
    return (await bots.bot_of(authorization))[0]


BotId = Annotated[int, Depends(_bot)]


async def _lines(
    first: list[dict[str, Any]],
    queue: asyncio.Queue[Any],
    done: Callable[[], None],
    _line: Callable[[object], bytes],
) -> AsyncIterator[bytes]:
    """``first``, then each event of ``queue`` (an empty line every :data:`KEEP_ALIVE` idle
    seconds) until a ``None`` or the client goes away, each written by ``_line`` (which checks
    it against the stream's model); ``done()`` when it ends."""
    try:
        for event in first:
            yield _line(event)
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
            except TimeoutError:
                yield b"\n"
                continue
            if event is None:
                return
            yield _line(event)
    finally:
        done()


class BotAccount(BaseModel):
    """The bot a token is: its account's id and name."""

    id: int
    name: str


@router.get("/account")
async def account(
    bots: BotsDep, authorization: Annotated[str | None, Header()] = None
) -> BotAccount:
    """The bot account of the token."""
    bot_id, name = await bots.bot_of(authorization)
    return BotAccount(id=bot_id, name=name)


@router.post("/account/upgrade")
async def upgrade(store: StoreDep, user: SignedIn) -> BotToken:
    """Make your account a bot (only if it never played a game): its API token, shown once."""
    return BotToken(token=await make_bot(store, user.name, played_none=True))


def _streamed(name: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answer of a stream whose lines are the component schema ``name`` (put in
    the document by :func:`.socket.document_messages`)."""
    schema = {"$ref": f"#/components/schemas/{name}"}
    return {200: {"content": {NDJSON: {"schema": schema}}, "description": "a line each"}}


@router.get("/stream/event", response_class=StreamingResponse, responses=_streamed("BotEvent"))
async def stream_events(
    bots: BotsDep, events: EventsDep, challenges: ChallengesDep, bot: BotId
) -> StreamingResponse:
    """The bot's events: first a ``gameStart`` for each game it plays and a ``challenge`` for
    each open one to it, then ``challenge``, ``challengeCanceled``, ``challengeDeclined``,
    ``gameStart`` and ``gameFinish`` as they come."""
    closed = bots.stream(bot)
    listening = events.listen(bot)
    queue = listening.__enter__()
    first = [{"type": "gameStart", "game": {"id": g}} for g in await bots.playing(bot)]
    first += [
        {"type": "challenge", "challenge": view.model_dump()}
        for view in (await challenges.mine(bot)).incoming
    ]

    def done() -> None:
        listening.__exit__(None, None, None)
        closed()

    return StreamingResponse(_lines(first, queue, done, event_line), media_type=NDJSON)


async def _own(hub: HubDep, bot: int, game_id: str) -> Any:
    """The live game ``game_id`` if the bot plays in it (403 otherwise, 404 if none)."""
    live = await hub.current(game_id)
    if not live.seats(None, bot):
        raise ActionError(403, _("this is not one of your games"))
    return live


@router.get(
    "/game/stream/{game_id}", response_class=StreamingResponse, responses=_streamed("GameLine")
)
async def stream_game(
    hub: HubDep, bots: BotsDep, feeds: GameFeedsDep, bot: BotId, game_id: str
) -> StreamingResponse:
    """One of the bot's games: first ``gameFull``, then a ``gameState`` at each change."""
    live = await _own(hub, bot, game_id)
    closed = bots.stream(bot)
    following = feeds.follow(live.row.id)
    queue = following.__enter__()

    def done() -> None:
        following.__exit__(None, None, None)
        closed()

    first = [game_full(live, hub.now())]
    return StreamingResponse(_lines(first, queue, done, game_line), media_type=NDJSON)


@router.post("/game/{game_id}/move/{move}")
async def move(hub: HubDep, bot: BotId, game_id: str, move: str) -> Done:
    """Play ``move`` (the engine's notation) in one of the bot's games, on its turn."""
    live = await _own(hub, bot, game_id)
    await hub.act(live.row.id, None, MoveIntent(type="move", move=move[:200], ply=live.ply), bot)
    return Done()


@router.post("/game/{game_id}/resign")
async def resign(hub: HubDep, bot: BotId, game_id: str) -> Done:
    """Resign one of the bot's games."""
    live = await _own(hub, bot, game_id)
    await hub.act(live.row.id, None, Plain(type="resign"), bot)
    return Done()


@router.post("/game/{game_id}/draw/{answer}")
async def draw(hub: HubDep, bot: BotId, game_id: str, answer: Literal["yes", "no"]) -> Done:
    """``yes``: offer a draw, or accept the opponent's offer; ``no``: decline it."""
    live = await _own(hub, bot, game_id)
    offered = live.row.draw_offer is not None and live.row.draw_offer not in live.seats(None, bot)
    intent = Plain(type="decline_draw")
    if answer == "yes":
        intent = Plain(type="accept_draw" if offered else "offer_draw")
    await hub.act(live.row.id, None, intent, bot)
    return Done()

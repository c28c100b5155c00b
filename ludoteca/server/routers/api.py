"""The JSON API (see ``docs/web.md``): the catalogue, the lobby, games and their actions,
hints, reviews, pictures and records."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import PlainTextResponse, Response

from ... import svg
from ...core import LudotecaError
from ...games import resolve
from ..computer.workers import replay_record
from ..deps import Client, GuardsDep, HubDep, Viewer, csrf_guard
from ..errors import ActionError
from ..play.hub import Hub
from ..schemas import (
    Action,
    GameView,
    HintView,
    Joining,
    Mistake,
    NewGame,
    RecordText,
    Seat,
)

REPLAY_EXPECTED = 0.5  # seconds: a record replay goes after hints, before reviews
router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


@router.get("/catalogue")
async def catalogue(hub: HubDep) -> list[dict[str, Any]]:
    """Every game: rule sets, computer levels with ratings, a summary, the start picture."""
    return hub.catalogue()


@router.get("/levels")
async def game_levels(
    game: str = Query(max_length=64), rules: str | None = Query(default=None, max_length=200)
) -> list[dict[str, Any]]:
    """The computer levels the server plays for a rule-set spec (``name:setting,...``)."""
    try:
        _, ruleset = resolve(game, rules or None)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    return Hub.levels(ruleset)


@router.get("/lobby")
async def lobby(hub: HubDep) -> dict[str, Any]:
    """Online games waiting for a second player, and games in play to watch."""

    def brief(row: Any) -> dict[str, Any]:
        return {
            "id": row.id,
            "game": row.game,
            "rules": row.rules,
            "mode": row.mode,
            "ply": row.ply,
            "white": row.white,
            "black": row.black,
            "free": "white" if row.white_token is None else "black",
            "white_name": row.white_name,
            "black_name": row.black_name,
            "clock": row.clock,
            "updated": row.updated.replace(tzinfo=row.updated.tzinfo or datetime.UTC).isoformat(),
        }

    return {
        "open": [brief(r) for r in await hub.store.listing("waiting")],
        "live": [brief(r) for r in await hub.store.listing("live", started=True)],
    }


@router.post("/games", status_code=201)
async def create(
    hub: HubDep, guards: GuardsDep, client: Client, user: Viewer, body: NewGame
) -> dict[str, Any]:
    """Start a game; the answer holds the creator's seat tokens (keep them secret)."""
    if not guards.creations.allow(client):
        raise ActionError(
            429,
            f"at most {guards.games_per_minute} new games a minute from one address; wait a moment",
        )
    game_id, tokens = await hub.create(
        body.game,
        body.rules,
        body.opponent,
        body.colour,
        body.level,
        body.position,
        body.clock,
        client,
        body.name,
        (user.id, user.name) if user else None,
        body.rated,
    )
    return {"id": game_id, "tokens": tokens, "url": f"/game/{game_id}"}


@router.post("/games/{game_id}/join")
async def join(
    hub: HubDep, user: Viewer, game_id: str, body: Joining | None = None
) -> dict[str, str]:
    """Take the free seat of an online game (``{"name"}`` optional: a display name; signed
    in, the seat is your account's)."""
    colour, token = await hub.join(
        game_id, body.name if body else None, (user.id, user.name) if user else None
    )
    return {"colour": colour, "token": token}


@router.get("/games/{game_id}", response_model=GameView)
async def view(
    hub: HubDep, user: Viewer, game_id: str, x_seat_token: str | None = Header(default=None)
) -> dict[str, Any]:
    """The game as a page draws it (seat token in the ``X-Seat-Token`` header, optional; or
    the seats of the signed-in account)."""
    live = await hub.get(game_id)
    return hub.view(live, live.seats(x_seat_token, user.id if user else None))


@router.post("/games/{game_id}/actions", response_model=GameView)
async def act(hub: HubDep, user: Viewer, game_id: str, body: Action) -> dict[str, Any]:
    """move (with ``move`` and ``ply``), resign, offer_draw, accept_draw, decline_draw,
    undo, accept_undo, decline_undo, rematch, cancel (as the seat token's holder, or the
    signed-in account's seats)."""
    me = user.id if user else None
    await hub.act(game_id, body.token, body, me)
    live = await hub.get(game_id)
    return hub.view(live, live.seats(body.token, me))


@router.post("/games/{game_id}/hint", response_model=HintView)
async def hint(hub: HubDep, user: Viewer, game_id: str, body: Seat) -> dict[str, Any]:
    """The computer's best move for you, its evaluation and the line it expects."""
    return await hub.hint(game_id, body.token, user.id if user else None)


@router.post("/games/{game_id}/review", response_model=list[Mistake])
async def review(hub: HubDep, game_id: str) -> list[dict[str, Any]]:
    """The mistakes of a finished game: move index, move, better move, loss (0..1)."""
    return await hub.review(game_id)


@router.get("/games/{game_id}/picture.svg")
async def picture(hub: HubDep, game_id: str, flipped: bool = False) -> Response:
    """The current position as an SVG picture (last move highlighted)."""
    live = await hub.get(game_id)
    return Response(svg.render(live.state, flipped=flipped), media_type="image/svg+xml")


@router.get("/games/{game_id}/record")
async def record(hub: HubDep, game_id: str) -> PlainTextResponse:
    """The game's text record, as a download."""
    text = await hub.record(game_id)
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="ludoteca-{game_id}.txt"'}
    )


@router.post("/records/replay")
async def replay(hub: HubDep, body: RecordText) -> dict[str, Any]:
    """Replay a text record: every position from the start, for stepping through it (in a
    worker process: a long record never holds up the server)."""
    answer = await hub.computer.advisers.run(REPLAY_EXPECTED, replay_record, body.text)
    if "error" in answer:
        raise ActionError(400, answer["error"])
    return answer

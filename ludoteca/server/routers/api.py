"""The JSON API (see ``docs/web.md``): the catalogue, the lobby, games and their actions,
hints, pictures and records."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import PlainTextResponse, Response

from ... import svg
from ...i18n import _
from ..deps import (
    Client,
    ComputerDep,
    GuardsDep,
    HubDep,
    LevelRatingsDep,
    StoreDep,
    Viewer,
    csrf_guard,
)
from ..errors import ActionError
from ..play import catalogue as games
from ..play import lobby as listing
from ..play import views
from ..schemas import (
    Action,
    CatalogueGame,
    Created,
    GameView,
    HintView,
    Joined,
    Joining,
    LevelView,
    Lobby,
    NewGame,
    RecordText,
    Replay,
    RulesView,
    Seat,
)

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


@router.get("/catalogue")
async def catalogue(ratings: LevelRatingsDep) -> list[CatalogueGame]:
    """Every game: rule sets, computer levels with ratings, a summary, the start picture."""
    return games.catalogue(await ratings.get())


@router.get("/levels")
async def game_levels(
    ratings: LevelRatingsDep,
    game: str = Query(max_length=64),
    rules: str | None = Query(default=None, max_length=200),
) -> list[LevelView]:
    """The computer levels the server plays for a rule-set spec (``name:setting,...``)."""
    return games.levels_of(game, rules, await ratings.get())


@router.get("/rules")
async def rules_read(
    game: str = Query(max_length=64),
    rules: str | None = Query(default=None, max_length=200),
) -> RulesView:
    """A rule-set spec's canonical spec and title; 400 saying why for one that denotes none."""
    return games.rules_of(game, rules)


@router.get("/lobby")
async def lobby(store: StoreDep) -> Lobby:
    """Online games waiting for a second player, and games in play to watch."""
    return await listing.lobby(store)


@router.post("/games", status_code=201)
async def create(
    hub: HubDep, guards: GuardsDep, client: Client, user: Viewer, body: NewGame
) -> Created:
    """Start a game; the answer holds the creator's seat tokens (keep them secret)."""
    if not guards.creations.allow(client):
        raise ActionError(
            429,
            _(
                "at most %(games_per_minute)s new games a minute from one address; wait a moment",
                games_per_minute=guards.games_per_minute,
            ),
        )
    me = (user.id, user.name) if user else None
    game_id, tokens = await hub.create(body, client, me)
    return Created(id=game_id, tokens=tokens, url=f"/game/{game_id}")


@router.post("/games/{game_id}/join")
async def join(hub: HubDep, user: Viewer, game_id: str, body: Joining | None = None) -> Joined:
    """Take the free seat of an online game (``{"name"}`` optional: a display name; signed
    in, the seat is your account's)."""
    colour, token = await hub.join(
        game_id, body.name if body else None, (user.id, user.name) if user else None
    )
    return Joined(colour=colour, token=token)


@router.get("/games/{game_id}")
async def view(
    hub: HubDep, user: Viewer, game_id: str, x_seat_token: str | None = Header(default=None)
) -> GameView:
    """The game as a page draws it (seat token in the ``X-Seat-Token`` header, optional; or
    the seats of the signed-in account)."""
    live = await hub.current(game_id)
    return hub.view(live, live.seats(x_seat_token, user.id if user else None))


@router.post("/games/{game_id}/actions")
async def act(hub: HubDep, user: Viewer, game_id: str, body: Action) -> GameView:
    """move (with ``move`` and ``ply``), resign, offer_draw, accept_draw, decline_draw,
    undo, accept_undo, decline_undo, rematch, cancel (as the seat token's holder, or the
    signed-in account's seats)."""
    me = user.id if user else None
    await hub.act(game_id, body.token, body, me, request=True)
    live = await hub.get(game_id)  # (as this process just made it)
    return hub.view(live, live.seats(body.token, me))


@router.post("/games/{game_id}/hint")
async def hint(
    hub: HubDep, computer: ComputerDep, user: Viewer, game_id: str, body: Seat
) -> HintView:
    """The computer's best move for you, its evaluation and the line it expects."""
    live = await hub.current(game_id)
    return await computer.hint(live, live.seats(body.token, user.id if user else None))


@router.get(
    "/games/{game_id}/picture.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "An SVG picture."}},
)
async def picture(hub: HubDep, game_id: str, flipped: bool = False) -> Response:
    """The current position as an SVG picture (last move highlighted)."""
    live = await hub.current(game_id)
    return Response(svg.render(live.state, flipped=flipped), media_type="image/svg+xml")


@router.get("/games/{game_id}/record", response_class=PlainTextResponse)
async def record(hub: HubDep, game_id: str) -> PlainTextResponse:
    """The game's text record, as a download."""
    text = views.record_text(await hub.current(game_id))
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="ludoteca-{game_id}.txt"'}
    )


@router.post("/records/replay")
async def replay(computer: ComputerDep, client: Client, body: RecordText) -> Replay:
    """Replay a text record: every position from the start, for stepping through it (in a
    worker process: a long record never holds up the server; a few at once per address)."""
    return await computer.replay(body.text, client)

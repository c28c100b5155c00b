"""Tournaments (see docs/web.md): the list and the creation form (``/tournaments``), a
tournament's page (``/tournaments/ID``), their JSON API, and a websocket per tournament
(``/ws/tournaments/ID``) sending its whole view at once and again whenever it changes."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse

from ..deps import BotsDep, Client, GuardsDep, SignedIn, TournamentsDep, csrf_guard
from ..errors import ActionError
from ..play.catalogue import default_game
from ..schemas import Done
from ..tournaments.schemas import (
    LevelEntry,
    PlayerTournament,
    TournamentBody,
    TournamentBrief,
    TournamentCreated,
    TournamentMessage,
    TournamentView,
)
from .pages import not_found, page

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])
pages = APIRouter(default_response_class=HTMLResponse)
#: how often a tournament's websocket looks for changes made by other processes (seconds)
POLL_SECONDS = 5.0


@pages.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> HTMLResponse:
    return page("tournaments", default_game=default_game())


@pages.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(found: TournamentsDep, tournament_id: str) -> HTMLResponse:
    try:
        await found.view(tournament_id)
    except ActionError:
        return not_found()
    return page("tournament")


@router.get("/tournaments")
async def listing(found: TournamentsDep) -> list[TournamentBrief]:
    """The upcoming and running tournaments, soonest first, then the last finished ones."""
    return await found.listing()


@router.post("/tournaments", status_code=201)
async def create(found: TournamentsDep, user: SignedIn, body: TournamentBody) -> TournamentCreated:
    """Create a tournament (signed in); 400 naming what is wrong."""
    tournament_id = await found.create(body, user.id)
    return TournamentCreated(id=tournament_id, url=f"/tournaments/{tournament_id}")


@router.get("/tournaments/{tournament_id}")
async def view(found: TournamentsDep, tournament_id: str) -> TournamentView:
    """A tournament: its standings with their tie-breaks and every round's pairings."""
    return await found.view(tournament_id)


@router.post("/tournaments/{tournament_id}/join")
async def join(found: TournamentsDep, user: SignedIn, tournament_id: str) -> Done:
    """Join (again, after a pause in an arena); 409 saying why not."""
    await found.join(tournament_id, user)
    return Done()


@router.post("/tournaments/{tournament_id}/computer")
async def enter_computer(
    found: TournamentsDep, bots: BotsDep, user: SignedIn, tournament_id: str, body: LevelEntry
) -> Done:
    """Enter the computer's level (its bot account; the tournament's creator only): 403 for
    anyone else, 400 for a level the game has not, 409 as joining."""
    await found.enter_level(tournament_id, user, body.level, bots)
    return Done()


@router.post("/tournaments/{tournament_id}/withdraw")
async def withdraw(found: TournamentsDep, user: SignedIn, tournament_id: str) -> Done:
    """Withdraw (in an arena: pause until joining again); 409 if not in it."""
    await found.withdraw(tournament_id, user)
    return Done()


@router.get("/players/{name}/tournaments")
async def of_player(found: TournamentsDep, name: str) -> list[PlayerTournament]:
    """The tournaments a player is or was in, newest first, with the place there; 404 for
    an unknown player."""
    return await found.of_player(name)


@pages.websocket("/ws/tournaments/{tournament_id}")
async def socket(
    websocket: WebSocket,
    tournament_id: str,
    found: TournamentsDep,
    guards: GuardsDep,
    address: Client,
) -> None:
    """Sends ``{"type": "tournament", "tournament": ...}`` (:class:`TournamentMessage`) at
    once and whenever the tournament changes (changed by this process: at once; by another:
    within :data:`POLL_SECONDS`); the page sends nothing.  An unknown tournament closes it
    with code 1008."""
    if not await guards.admit(websocket, address, "tournament sockets"):
        return
    try:
        await websocket.accept()
        changed = found.watch(tournament_id)
        # (the page sends nothing: a receive ends when it goes away)
        gone = asyncio.ensure_future(websocket.receive_text())
        try:
            sent = ""
            while not gone.done():
                try:
                    view = await found.view(tournament_id)
                except ActionError as error:
                    await websocket.close(code=1008, reason=error.message[:100])
                    return
                text = TournamentMessage(tournament=view).model_dump_json()
                if text != sent:
                    await websocket.send_text(text)
                    sent = text
                changed.clear()
                waiting = asyncio.ensure_future(changed.wait())
                await asyncio.wait(
                    {waiting, gone}, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED"
                )
                waiting.cancel()
        except WebSocketDisconnect:
            pass
        finally:
            gone.cancel()
            found.unwatch(tournament_id, changed)
    finally:
        guards.release(address)

"""Correspondence games (see docs/web.md): the "your turn" page and list, a game's deadline, and
planned moves."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header
from fastapi.responses import HTMLResponse

from ..deps import CorrespondenceDep, HubDep, SignedIn, Viewer, csrf_guard
from ..play.correspondence_schemas import Deadline, PlanBody, Planned, YourTurn
from .pages import page

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])
pages = APIRouter(include_in_schema=False)


@pages.get("/yourturn")
async def your_turn_page() -> HTMLResponse:
    return page("yourturn")


@router.get("/yourturn", response_model=YourTurn)
async def your_turn(found: CorrespondenceDep, user: SignedIn) -> YourTurn:
    """Your correspondence games where it is your move, soonest deadline first."""
    return await found.your_turn(user.id)


@router.get("/games/{game_id}/correspondence", response_model=Deadline)
async def deadline(
    hub: HubDep,
    found: CorrespondenceDep,
    user: Viewer,
    game_id: str,
    x_seat_token: str | None = Header(default=None),
) -> Deadline:
    """A game's days per move and running deadline, and your planned lines (seat token in the
    ``X-Seat-Token`` header, or the signed-in account's seat); 409 without days per move."""
    live = await hub.current(game_id)
    return await found.deadline(live, live.seats(x_seat_token, user.id if user else None))


@router.put("/games/{game_id}/planned", response_model=Planned)
async def plan(
    hub: HubDep, found: CorrespondenceDep, user: Viewer, game_id: str, body: PlanBody
) -> Planned:
    """Plan your answers while your opponent is to move: the lines replace your earlier ones
    (none: forget them); each is checked by the engine (400 saying why, nothing stored)."""
    live = await hub.current(game_id)
    seats = live.seats(body.token, user.id if user else None)
    return Planned(lines=await found.plans.plan(live, seats, body.lines))

"""A signed-in player's own blunders as exercises and the puzzle dashboard: their pages and
JSON API (see ``docs/web.md``); the work is :mod:`~ludoteca.server.study.mistakes`'s and
:mod:`~ludoteca.server.study.dashboard`'s.  Included before the puzzles' router, whose
``/puzzles/{id}`` would otherwise take these paths."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi import Path as PathPart
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ..deps import Client, MistakesDep, SignedIn, TrainingDep, csrf_guard
from ..study.mistake_schemas import Dashboard, MistakeAnswer, MistakeList, MistakeView
from .pages import page

router = APIRouter()
api = APIRouter(prefix="/api/puzzles", dependencies=[Depends(csrf_guard)])

GameId = Annotated[str, PathPart(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Ply = Annotated[int, PathPart(ge=0, le=100_000)]


class MoveBody(BaseModel):
    """A move tried in an exercise."""

    move: str = Field(max_length=64)


@router.get("/puzzles/mistakes", include_in_schema=False)
async def mistakes_page() -> HTMLResponse:
    return page("mistakes")


@router.get("/puzzles/dashboard", include_in_schema=False)
async def dashboard_page() -> HTMLResponse:
    return page("dashboard")


@api.get("/mistakes")
async def mistakes(service: MistakesDep, user: SignedIn) -> MistakeList:
    """The signed-in player's blunders in their recent finished games, as exercises."""
    return await service.exercises(user)


@api.get("/mistakes/{game_id}/{ply}")
async def mistake(service: MistakesDep, user: SignedIn, game_id: GameId, ply: Ply) -> MistakeView:
    """An exercise: the position before the blunder of position ``ply``; 404 if none."""
    return await service.view(user, game_id, ply)


@api.post("/mistakes/{game_id}/{ply}/answer")
async def mistake_answer(
    service: MistakesDep,
    user: SignedIn,
    address: Client,
    game_id: GameId,
    ply: Ply,
    body: MoveBody,
) -> MistakeAnswer:
    """Judge a move tried in an exercise: solved (then marked done) or wrong; 400 for a move
    that is not legal there, 404 for no such exercise, 429 for a flood."""
    return await service.answer(user, address, game_id, ply, body.move)


@api.get("/dashboard")
async def dashboard(training: TrainingDep, user: SignedIn) -> Dashboard:
    """The signed-in player's success rate by theme and difficulty, and the themes missed
    most."""
    return await training.dashboard(user)


router.include_router(api)

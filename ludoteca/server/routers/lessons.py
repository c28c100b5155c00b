"""The rules lessons: their page and API (see ``docs/web.md``): the lessons of every game, a
lesson's steps, and the engine's verdict on a move made in a step."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi import Path as PathPart
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ..deps import csrf_guard
from ..study import lessons
from ..study.schemas import GameLessons, LessonVerdict, LessonView
from .pages import page

router = APIRouter()
api = APIRouter(prefix="/api/lessons", dependencies=[Depends(csrf_guard)])

Name = Annotated[str, PathPart(max_length=64)]


class LessonMove(BaseModel):
    """A move made in a lesson's step, in the game's notation."""

    move: str = Field(min_length=1, max_length=200)


@router.get("/lessons", include_in_schema=False)
async def lessons_page() -> HTMLResponse:
    return page("lessons")


@api.get("")
async def every_lesson() -> list[GameLessons]:
    """Each game with lessons, and its lessons (key, title, intro, number of steps)."""
    return lessons.listing()


@api.get("/{game}/{key}")
async def lesson(game: Name, key: Name) -> LessonView:
    """A lesson: title, intro, rule set, board and its steps (sentence, hint, position)."""
    return lessons.lesson_view(game, key)


@api.post("/{game}/{key}/{step}")
async def answer(body: LessonMove, step: int, game: Name, key: Name) -> LessonVerdict:
    """The verdict on a move made in step ``step`` (from 0): ``right``, the ``sentence`` saying
    why and, when right, the position after it; 400 for an unreadable or illegal move."""
    return lessons.answer(game, key, step, body.move)


router.include_router(api)

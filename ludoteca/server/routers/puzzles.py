"""The puzzle pages and their JSON API (see ``docs/web.md``): a puzzle by its id, the next
one of a rule set, the daily puzzle, answers and solutions, streak and rush runs, a player's
rating and history, and own puzzles made from a position."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathPart
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ..deps import Client, SignedIn, TrainingDep, Viewer, csrf_guard
from ..errors import ActionError
from ..study.puzzles import SEEN_BITS, library
from ..study.schemas import (
    AnsweredPuzzle,
    DailyPuzzle,
    PuzzlePlayer,
    PuzzleSet,
    PuzzleSolution,
    PuzzleView,
    RunView,
)
from .pages import not_found, page

router = APIRouter()
api = APIRouter(prefix="/api/puzzles", dependencies=[Depends(csrf_guard)])

PuzzleId = Annotated[str, PathPart(max_length=16, pattern=r"^[0-9a-f]+$")]
Move = Annotated[str, Field(max_length=64)]
#: a run's id as the server makes them (``secrets.token_urlsafe``): anything else is refused
#: before it reaches the store (PostgreSQL refuses a NUL in a text value outright)
RUN_ID = r"^[A-Za-z0-9_-]+$"


class AnswerBody(BaseModel):
    """The player's moves so far (theirs alone, in order), in a ``run`` or alone."""

    moves: list[Move] = Field(max_length=64)
    run: str | None = Field(default=None, max_length=32, pattern=RUN_ID)


class RunBody(BaseModel):
    mode: Literal["streak", "rush"]
    rules: str = Field(max_length=200)


class OwnBody(BaseModel):
    """An analysis-board position to make a puzzle of."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    position: str = Field(max_length=400)


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> HTMLResponse:
    return page("puzzles", puzzle_id="")


@router.get("/puzzles/{puzzle_id}", include_in_schema=False)
async def puzzle_page(training: TrainingDep, puzzle_id: str) -> HTMLResponse:
    try:
        await training.puzzle(puzzle_id[:16])
    except ActionError:
        return not_found()
    return page("puzzles", puzzle_id=puzzle_id)


@api.get("/sets")
async def sets() -> list[PuzzleSet]:
    """Every rule set that has puzzles, with its title, count and themes."""
    return library().sets()


@api.get("/daily")
async def daily(training: TrainingDep) -> DailyPuzzle:
    """Today's puzzle (the same for everyone on a UTC day) and the day."""
    return await training.daily()


@api.get("/next")
async def next_puzzle(
    training: TrainingDep,
    user: Viewer,
    rules: str = Query(max_length=200),
    theme: str | None = Query(default=None, max_length=40),
    difficulty: str = Query(default="normal", max_length=16),
    edition: str = Query(default="", max_length=12, pattern=r"^[0-9a-f]*$"),
    seen: str = Query(default="", max_length=SEEN_BITS // 6, pattern=r"^[A-Za-z0-9_-]*$"),
) -> PuzzleView:
    """The next puzzle of a rule set for the player, of a ``theme`` if asked, at a
    ``difficulty`` (easier, normal or harder than the player's rating), none of those the
    browser has shown (``seen``, its record of the set's ``edition``, a bit a puzzle: a
    guest's only record; see :meth:`.Library.shown`) nor of the account's tried puzzles,
    until every one has been."""
    return await training.next(user, rules, theme or None, difficulty, edition, seen)


@api.get("/me")
async def me(training: TrainingDep, user: SignedIn) -> PuzzlePlayer:
    """The signed-in player's puzzle rating, best streak and rush, and history."""
    return await training.me(user)


@api.post("/runs")
async def start_run(training: TrainingDep, user: Viewer, address: Client, body: RunBody) -> RunView:
    """A new run (a streak or a rush) of a rule set, on its first puzzle."""
    return await training.start_run(user, address, body.mode, body.rules)


@api.get("/runs/{run_id}")
async def run(
    training: TrainingDep, user: Viewer, run_id: str = PathPart(max_length=32, pattern=RUN_ID)
) -> RunView:
    """A run of the player's as it stands."""
    return await training.run(user, run_id)


@api.post("/own", status_code=201)
async def own(training: TrainingDep, user: Viewer, address: Client, body: OwnBody) -> PuzzleView:
    """Make a position a puzzle: 201 with the puzzle once its judge confirms a unique solution,
    422 with the reason otherwise, 400 for an impossible position."""
    return await training.own(user, address, body.game, body.rules, body.position)


@api.get("/{puzzle_id}")
async def puzzle(training: TrainingDep, puzzle_id: PuzzleId) -> PuzzleView:
    """A puzzle to play (never its solution)."""
    return await training.view(puzzle_id)


@api.post("/{puzzle_id}/answer")
async def answer(
    training: TrainingDep, user: Viewer, address: Client, puzzle_id: PuzzleId, body: AnswerBody
) -> AnsweredPuzzle:
    """Judge the player's moves: ``verdict`` right (with the ``reply`` and the ``position``
    after it), solved (with the solution's ``frames``) or wrong, the ``rating`` change when
    this outcome counted, and the ``run``; 400 for a move that is not legal, 409 for an answer
    that is not this puzzle's (or not the run's puzzle), 429 for a flood."""
    return await training.answer(user, address, puzzle_id, body.moves, body.run)


@api.post("/{puzzle_id}/solution")
async def solution(
    training: TrainingDep, user: Viewer, address: Client, puzzle_id: PuzzleId
) -> PuzzleSolution:
    """The solution (line and frames); asked for before the puzzle counted, it counts as not
    solved."""
    return await training.solution(user, address, puzzle_id)


router.include_router(api)

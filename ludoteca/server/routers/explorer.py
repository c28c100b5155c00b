"""The opening explorer's API (see ``docs/web.md``): for a position of a rule set, the moves
played from it in the finished games of the database, with their results and values."""

from __future__ import annotations

from fastapi import APIRouter, Query
from pydantic import BaseModel

from ..deps import ExplorerDep

router = APIRouter(prefix="/api")


class MoveValue(BaseModel):
    """The engine's (or a solved table's) value of a move, for the side making it."""

    score: int
    bar: str  # for White, as the evaluation bar writes it: "+1.3", "White wins in 17", "Draw"
    text: str  # in words: "White is better"
    exact: bool  # from a solved table


class ExplorerMove(BaseModel):
    """A move played from the position: in how many games, with what results."""

    move: str
    games: int
    white: int  # games White won
    draws: int
    black: int  # games Black won
    value: MoveValue | None  # None while the values are worked out


class ExplorerView(BaseModel):
    """A position of the explorer: the games that reached it and their results, and each move
    played from it, most played first."""

    game: str
    rules: str
    position: str  # its position code, as the engine writes it
    games: int
    white: int
    draws: int
    black: int
    moves: list[ExplorerMove]
    valued: bool  # false while the moves' values are still worked out: ask again


@router.get("/explorer")
async def explorer(
    index: ExplorerDep,
    game: str = Query(max_length=64),
    rules: str | None = Query(default=None, max_length=200),
    position: str | None = Query(default=None, max_length=2000),
) -> ExplorerView:
    """The moves played from ``position`` (a position code; absent: the rule set's usual
    start) in the finished games of ``game`` under ``rules``; 400 with the reason if the rule
    set or the position is not one."""
    return ExplorerView.model_validate(await index.view(game, rules, position))

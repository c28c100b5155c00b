"""The JSON the study routers answer with (the analysis board's position check, the opening
explorer, the rules lessons), as pydantic models: the field names, their order and shapes are
what the pages read, and what the OpenAPI document shows."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = [
    "ExplorerMove",
    "ExplorerView",
    "GameLessons",
    "LessonStep",
    "LessonSummary",
    "LessonVerdict",
    "LessonView",
    "MoveValue",
    "Position",
    "PositionCode",
]


class PositionCode(BaseModel):
    """A position by its rule set's names and its code, as the engine writes it."""

    game: str
    rules: str
    code: str


class Position(BaseModel):
    """A position as the analysis board draws it (see :func:`.analysis.position_view`)."""

    game: str
    rules: str
    pieces: list[str]  # a token per point of the board, "" for empty
    turn: str  # "white" or "black"
    hand: tuple[int, int] | None  # the men in hand, in the games that have them
    notice: str | None
    legal: list[str]  # each legal move as the game page reads it (see .views.legal_entry)
    last: list[tuple[str, int]] | None  # the last move's gesture: (role, point) touches
    code: str
    outcome: str | None  # in words, once the game is over


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


class LessonSummary(BaseModel):
    """A lesson in the listing: its key, title, intro and number of steps."""

    key: str
    title: str
    intro: str
    steps: int


class GameLessons(BaseModel):
    """A game that has lessons: its name and title, and its lessons in order."""

    game: str
    title: str
    lessons: list[LessonSummary]


class LessonStep(BaseModel):
    """A step of a lesson: what it asks, a hint, and the position it starts from."""

    ask: str
    hint: str
    position: Position


class LessonView(BaseModel):
    """A lesson for the page: its rule set, board (as the game page describes it) and steps."""

    game: str
    key: str
    title: str
    intro: str
    rules: str
    board: dict[str, Any]
    steps: list[LessonStep]


class LessonVerdict(BaseModel):
    """The verdict on a move made in a step: ``right``, the ``sentence`` saying why, and the
    position after the move when it is right."""

    right: bool
    sentence: str
    after: Position | None

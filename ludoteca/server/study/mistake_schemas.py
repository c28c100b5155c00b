"""The JSON of a player's own mistakes offered as exercises and of the puzzle dashboard
(:mod:`.mistakes`, :mod:`.dashboard`), as pydantic models: the field names and shapes are what
the pages read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .schemas import Intro, Position

__all__ = [
    "Band",
    "Dashboard",
    "MissedTheme",
    "MistakeAnswer",
    "MistakeBrief",
    "MistakeList",
    "MistakeView",
    "ThemeRate",
]


class MistakeBrief(BaseModel):
    """A blunder of the player's in a finished game of theirs, as an exercise: ``id`` (what
    marks it done), the game, the position before the move (``ply``: its index in the game,
    the start being 0), the side that blundered, the move played and whether it is ``done``
    (solved)."""

    id: str
    game_id: str
    game: str
    rules: str
    rules_title: str
    ply: int
    player: Literal["white", "black"]
    played: str
    done: bool


class MistakeList(BaseModel):
    """The player's exercises, newest game first, and how many are done."""

    exercises: list[MistakeBrief]
    done: int


class MistakeView(MistakeBrief, Intro):
    """An exercise to play: as listed, with the position (its legal moves) and the game's
    board, title and texts; never the better moves."""

    position: Position


class MistakeAnswer(BaseModel):
    """A move tried in an exercise: ``solved`` (a better move: the best, or one of equal value)
    or ``wrong``; once solved, the moves accepted (``better``) and whether the table judged them
    (``exact``)."""

    verdict: Literal["solved", "wrong"]
    done: bool
    better: list[str]
    exact: bool


class ThemeRate(BaseModel):
    """A theme's attempts, how many solved and the success rate (0..1)."""

    theme: str
    theme_text: str
    attempts: int
    solved: int
    rate: float


class Band(BaseModel):
    """A difficulty band (``low`` to ``high`` inclusive, by the puzzles' stored difficulty)
    with its attempts, how many solved and the success rate (0..1)."""

    low: int
    high: int
    attempts: int
    solved: int
    rate: float


class MissedTheme(BaseModel):
    """A theme the player misses: how often, and a link to practise it (on the rule set where
    it was missed most)."""

    theme: str
    theme_text: str
    missed: int
    rules: str
    rules_title: str
    url: str


class Dashboard(BaseModel):
    """A player's puzzle dashboard from their counted attempts at shipped puzzles: the totals,
    the success rate by theme (most tried first) and by difficulty band (easiest first), and
    the themes missed most (most misses first)."""

    attempts: int
    solved: int
    rate: float | None
    themes: list[ThemeRate]
    bands: list[Band]
    missed: list[MissedTheme]

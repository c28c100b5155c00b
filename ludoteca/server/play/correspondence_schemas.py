"""What the correspondence routes take and answer (see docs/web.md): the "your turn" list, a
game's deadline and the reader's planned moves, and the planned lines a player stores."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..schemas import Colour

__all__ = ["MAX_LINE", "MAX_LINES", "Deadline", "PlanBody", "Planned", "YourTurn", "YourTurnGame"]

#: the most lines a player may plan in a game, and the most moves of a line (theirs and yours)
MAX_LINES = 10
MAX_LINE = 20

#: one planned line as sent: moves in the game's notation, theirs first
MoveText = Annotated[str, Field(min_length=1, max_length=200)]
Line = Annotated[list[MoveText], Field(max_length=MAX_LINE)]


class YourTurnGame(BaseModel):
    """A correspondence game where it is the reader's move."""

    id: str
    url: str
    game: str
    #: the rule set as people call it ("Felli with Mullahs")
    rules_title: str
    #: the days per move ("3d")
    clock: str
    #: the reader's colour, and the opponent's display name (``opponent_bot``: a bot account)
    colour: Colour
    opponent: str | None
    opponent_bot: bool
    ply: int
    #: when the reader's time runs out (epoch ms), and how much is left (ms, at least 0)
    deadline: int
    left: int


class YourTurn(BaseModel):
    """The reader's correspondence games where it is their move, soonest deadline first."""

    games: list[YourTurnGame]


class Deadline(BaseModel):
    """A game's correspondence state as the reader sees it: the days per move, the side whose
    deadline runs and when it runs out (epoch ms; ms ``left``), and, for a player, the lines
    it planned and whether it may plan now (its opponent is to move)."""

    clock: str
    days: int
    to_move: Colour | None
    deadline: int | None
    left: int | None
    lines: list[list[str]]
    can_plan: bool


class PlanBody(BaseModel):
    """The lines a player plans (they replace its earlier ones; none: forget them all), each
    its opponent's move then its answer, and so on; the seat token (or the signed-in
    account's seat)."""

    token: str | None = Field(default=None, max_length=200)
    lines: list[Line] = Field(max_length=MAX_LINES)


class Planned(BaseModel):
    """The lines a player planned, as stored (each move in the game's notation)."""

    lines: list[list[str]]

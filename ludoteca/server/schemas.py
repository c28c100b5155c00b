"""The bodies the JSON API accepts (validated by FastAPI; a bad one gets a 400 naming the
field)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, StrictInt, TypeAdapter, ValidationError

from .limits import MAX_BODY

__all__ = ["HUMAN", "Action", "Advice", "Hello", "Intent", "Joining", "Message", "Mode", "Move",
           "NewGame", "Plain", "RecordText", "Seat", "Status", "describe"]


class Status(StrEnum):
    """Where a game stands."""

    WAITING = "waiting"  # an online game whose second seat is free
    LIVE = "live"
    OVER = "over"


class Mode(StrEnum):
    """Who plays a game: a person against the computer, two people at one screen, or two
    people online."""

    COMPUTER = "computer"
    HOTSEAT = "hotseat"
    ONLINE = "online"


#: the kind of a seat held by a person (a computer's seat holds its agent spec, "level:N")
HUMAN = "human"


class NewGame(BaseModel):
    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    opponent: Mode = Mode.COMPUTER
    colour: str = Field(default="white", max_length=8)
    level: int | None = Field(default=None, ge=1, le=50)
    position: str | None = Field(default=None, max_length=400)
    clock: str | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=64)


class Joining(BaseModel):
    name: str | None = Field(default=None, max_length=64)


class Hello(BaseModel):
    """A websocket's first message: watch the game as the holder of ``token`` (none: watch)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class Move(BaseModel):
    """Play ``move`` (its notation) at ``ply``, the number of moves already played (a move
    chosen on an out-of-date board is refused)."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=200)
    ply: StrictInt


class Plain(BaseModel):
    """An action without arguments."""

    type: Literal["resign", "offer_draw", "accept_draw", "decline_draw", "undo", "accept_undo",
                  "decline_undo", "rematch", "cancel"]


class Advice(BaseModel):
    """Ask for a hint (a player of a game against the computer) or a finished game's review;
    the answer comes to this websocket when ready."""

    type: Literal["hint", "review"]


class MoveAction(Move):
    token: str | None = Field(default=None, max_length=200)


class PlainAction(Plain):
    token: str | None = Field(default=None, max_length=200)


#: what changes a game
Intent = MoveAction | PlainAction | Move | Plain
#: the body of ``POST /api/games/ID/actions``: an intent with the seat token
Action = Annotated[MoveAction | PlainAction, Field(discriminator="type")]
#: a websocket message
Message = TypeAdapter[Hello | Move | Plain | Advice](
    Annotated[Hello | Move | Plain | Advice, Field(discriminator="type")])


def describe(error: ValidationError | RequestValidationError) -> str:
    """A validation error as one sentence for the user."""
    problems = []
    for item in error.errors():
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
        problems.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
    return "bad request: " + "; ".join(problems)


class Seat(BaseModel):
    token: str | None = Field(default=None, max_length=200)


class RecordText(BaseModel):
    text: str = Field(max_length=MAX_BODY)

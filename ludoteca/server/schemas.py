"""The bodies the JSON API accepts (validated by FastAPI; a bad one gets a 400 naming the
field)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from .limits import MAX_BODY

__all__ = ["Action", "Joining", "NewGame", "RecordText", "Seat"]


class NewGame(BaseModel):
    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    opponent: str = Field(default="computer", max_length=16)
    colour: str = Field(default="white", max_length=8)
    level: int | None = Field(default=None, ge=1, le=50)
    position: str | None = Field(default=None, max_length=400)
    clock: str | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=64)


class Joining(BaseModel):
    name: str | None = Field(default=None, max_length=64)


class Action(BaseModel):
    token: str | None = Field(default=None, max_length=200)
    type: str = Field(max_length=32)
    move: str | None = Field(default=None, max_length=200)
    ply: int | None = None


class Seat(BaseModel):
    token: str | None = Field(default=None, max_length=200)


class RecordText(BaseModel):
    text: str = Field(max_length=MAX_BODY)

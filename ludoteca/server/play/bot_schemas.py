"""The lines of the Bot API's two streams (newline-delimited JSON, see ``docs/web.md``), as
pydantic models: every line is checked against them before it is sent (:func:`event_line`,
:func:`game_line`), and the OpenAPI document shows them as the streams' schemas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..community.challenges import ChallengeView
from ..schemas import Colour, Status

__all__ = ["BotEvent", "GameLine", "event_line", "game_line"]


class GameRef(BaseModel):
    """A game named in an event: its id (and its page)."""

    id: str
    url: str | None = None


class GameStart(BaseModel):
    """A game of the bot's has started (or was under way when the stream opened)."""

    type: Literal["gameStart"]
    game: GameRef


class GameFinish(BaseModel):
    """A game of the bot's has ended."""

    type: Literal["gameFinish"]
    game: GameRef


class ChallengeEvent(BaseModel):
    """A challenge to or from the bot: received, cancelled by its challenger, or declined."""

    type: Literal["challenge", "challengeCanceled", "challengeDeclined"]
    challenge: ChallengeView


#: a line of ``/api/bot/stream/event``
BotEvent = Annotated[GameStart | GameFinish | ChallengeEvent, Field(discriminator="type")]


class GameState(BaseModel):
    """A game as it stands: its moves (the engine's notation, space-separated), each side's
    milliseconds left (None: no live clock), status, result, how it ended, the side with a
    draw offer pending."""

    type: Literal["gameState"]
    moves: str
    wtime: int | None
    btime: int | None
    status: Status
    result: str
    termination: str | None
    draw_offer: Colour | None


class BotSeat(BaseModel):
    """A side of a game: the name shown and the account holding it (None: a guest or the
    server's computer without an account)."""

    name: str | None
    user: int | None


class GameFull(BaseModel):
    """A game stream's first line: the game, its start (``setup`` or a position ``code``),
    clock, whether rated, the two sides and its state."""

    model_config = ConfigDict(populate_by_name=True)
    type: Literal["gameFull"]
    id: str
    game: str
    rules: str
    setup: str | None
    code: str | None
    clock: str | None
    rated: bool
    white: BotSeat
    black: BotSeat
    state: GameState


#: a line of ``/api/bot/game/stream/{id}``
GameLine = Annotated[GameFull | GameState, Field(discriminator="type")]

_EVENTS: TypeAdapter[GameStart | GameFinish | ChallengeEvent] = TypeAdapter(BotEvent)
_GAMES: TypeAdapter[GameFull | GameState] = TypeAdapter(GameLine)


def event_line(event: object) -> bytes:
    """An event stream's line, checked against :data:`BotEvent` (ValidationError if not)."""
    return _EVENTS.dump_json(_EVENTS.validate_python(event), exclude_none=True) + b"\n"


def game_line(line: object) -> bytes:
    """A game stream's line, checked against :data:`GameLine` (ValidationError if not)."""
    return _GAMES.dump_json(_GAMES.validate_python(line)) + b"\n"

"""The bodies the JSON API accepts (validated by FastAPI; a bad one gets a 400 naming the
field)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, Self, TypeVar, cast

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ..i18n import _
from .errors import ActionError
from .invalid import describe
from .limits import MAX_BODY, MAX_NESTING, nesting

__all__ = [
    "HUMAN",
    "Action",
    "Advice",
    "BoardView",
    "Claim",
    "ClockView",
    "Colour",
    "Credentials",
    "GameView",
    "Hello",
    "HintView",
    "Intent",
    "Joining",
    "Message",
    "Mode",
    "MoveIntent",
    "NewGame",
    "NewPassword",
    "OutcomeView",
    "Plain",
    "PlayerView",
    "RecordText",
    "RematchView",
    "Say",
    "Seat",
    "SeatView",
    "SeekBody",
    "ServerMessage",
    "SharedView",
    "Status",
    "Update",
]


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
    rated: bool = False


class Joining(BaseModel):
    name: str | None = Field(default=None, max_length=64)


class Hello(BaseModel):
    """A websocket's first message: watch the game as the holder of ``token`` (none: watch)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class MoveIntent(BaseModel):
    """Play ``move`` (its notation) at ``ply``, the number of moves already played (a move
    chosen on an out-of-date board is refused)."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=200)
    ply: StrictInt


class Plain(BaseModel):
    """An action without arguments."""

    type: Literal[
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "undo",
        "accept_undo",
        "decline_undo",
        "rematch",
        "cancel",
    ]


class Say(BaseModel):
    """A line of chat in a room of the game (the players' or the spectators')."""

    type: Literal["chat"]
    room: Literal["players", "spectators"]
    text: str = Field(min_length=1, max_length=1000)


class Advice(BaseModel):
    """Ask for a hint (a player of a game against the computer); the answer comes to this
    websocket when ready."""

    type: Literal["hint"]


class MoveAction(MoveIntent):
    token: str | None = Field(default=None, max_length=200)


class PlainAction(Plain):
    token: str | None = Field(default=None, max_length=200)


#: what changes a game
Intent = MoveAction | PlainAction | MoveIntent | Plain
#: the body of ``POST /api/games/ID/actions``: an intent with the seat token
Action = Annotated[MoveAction | PlainAction, Field(discriminator="type")]
#: a websocket message
Message = TypeAdapter[Hello | MoveIntent | Plain | Advice | Say](
    Annotated[Hello | MoveIntent | Plain | Advice | Say, Field(discriminator="type")]
)


T = TypeVar("T")


def read_message(text: str | None, shape: TypeAdapter[T], limit: int, example: str) -> T:
    """A websocket message checked before it is parsed (text, at most ``limit`` bytes, nested
    at most :data:`MAX_NESTING` deep), then against ``shape``; :class:`ActionError` (400, or
    413 when too long) saying what is wrong, with ``example`` as a well-formed message."""
    if text is None:
        raise ActionError(400, _("messages are JSON text, not binary"))
    if len(text.encode()) > limit:
        raise ActionError(413, _("messages are limited to %(limit)s bytes", limit=limit))
    if nesting(text) > MAX_NESTING:
        raise ActionError(
            400, _("messages nest at most %(max_nesting)s levels deep", max_nesting=MAX_NESTING)
        )
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise ActionError(
            400, _("messages are JSON objects, e.g. %(example)s", example=example)
        ) from None
    try:
        return shape.validate_python(value)
    except ValidationError as error:
        raise ActionError(400, describe(error)) from None


class Seat(BaseModel):
    token: str | None = Field(default=None, max_length=200)


class Claim(BaseModel):
    """A seat this browser holds as a guest: the game and its token."""

    game: str = Field(max_length=32)
    token: str = Field(max_length=200)


class Credentials(BaseModel):
    """Sign up or sign in; ``claims``: the guest seats of this browser, to become the
    account's."""

    name: str = Field(max_length=40)
    password: str = Field(max_length=1024)
    claims: list[Claim] = Field(default_factory=list, max_length=500)


class NewPassword(BaseModel):
    old: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class SeekBody(BaseModel):
    """A seek: what game its poster wants (the ratings bound the opponent's)."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    clock: str | None = Field(default=None, max_length=16)
    rated: bool = False
    colour: Literal["white", "black", "random"] = "random"
    min_rating: int | None = Field(default=None, ge=0, le=4000)
    max_rating: int | None = Field(default=None, ge=0, le=4000)


class RecordText(BaseModel):
    text: str = Field(max_length=MAX_BODY)


# --- what the server sends ----------------------------------------------------------------------
Colour = Literal["white", "black"]
Touch = tuple[Literal["from", "to", "take"], int]


class PieceStyle(BaseModel):
    side: Colour
    name: str
    shape: str
    ring: bool


class BoardView(BaseModel):
    """A board's geometry: point names, coordinates, lines, whether points are cells and their
    fill colours, and how each piece token is drawn."""

    points: list[str]
    coords: list[tuple[float, float]]
    lines: list[tuple[int, int]]
    cells: bool
    fills: list[str]
    styles: dict[str, PieceStyle]


class PlayerView(BaseModel):
    kind: Literal["human", "computer"]
    label: str
    seated: bool
    #: the account holding the seat (its profile is /players/NAME), or None
    account: str | None


class OutcomeView(BaseModel):
    result: str
    termination: str
    text: str


class ClockView(BaseModel):
    """Milliseconds left per side, the side whose clock runs, the time control."""

    control: str
    running: Colour | None
    white: int
    black: int


class RematchView(BaseModel):
    id: str
    #: the reader's seat in the rematch, for a player of this game only
    token: str | None = Field(default=None, exclude_if=lambda token: token is None)


class SharedView(BaseModel):
    """The part of a game's view that is the same for everyone (see docs/web.md)."""

    type: Literal["state"]
    id: str
    game: str
    title: str
    summary: str
    rules: str
    #: the rule set as people call it ("Felli with Mullahs")
    rules_title: str
    mode: Mode
    #: a rated game (between two accounts; its result changes their ratings)
    rated: bool
    status: Status
    texts: dict[str, str]
    players: dict[Colour, PlayerView]
    board: BoardView
    pieces: list[str]
    turn: Colour
    ply: int
    #: the ply the game started from (0 unless set up from a position): move numbers count from it
    first_ply: int
    moves: list[str]
    last: list[Touch] | None
    #: what the last move did beyond moving, in words ("converts 2 stones"), or ""
    last_note: str
    hand: tuple[int, int] | None
    notice: str | None
    outcome: OutcomeView | None
    draw_offer: Colour | None
    undo_offer: Colour | None
    thinking: bool
    watchers: int
    clock: ClockView | None


class SeatView(BaseModel):
    """The part of a game's view for the holder of some seats: which, the legal moves (on its
    turn) and its rematch (with its seat token there)."""

    you: list[Colour]
    legal: list[str]
    rematch: RematchView | None


class GameView(SharedView, SeatView):
    """The whole game as a page draws it (``type`` "state"; see docs/web.md)."""


#: the fields of the view that never change (never in an update), and those sent in a compact
#: form instead (``pieces`` as ``set``, ``moves`` as ``moves_from`` + ``append``)
STATIC_FIELDS = frozenset(
    {"type", "id", "game", "title", "summary", "rules", "rules_title", "texts", "board"}
)
COMPACT_FIELDS = frozenset({"pieces", "moves"})
_UPDATABLE = {
    name: TypeAdapter[Any](cast(Any, field.annotation))
    for name, field in GameView.model_fields.items()
    if name not in STATIC_FIELDS | COMPACT_FIELDS
}


class Update(BaseModel):
    """What changed since the last message: any field of :class:`GameView` but the static ones,
    each whole (checked against the view's own field), with ``set`` for ``pieces`` and
    ``moves_from`` + ``append`` for ``moves``."""

    model_config = ConfigDict(extra="allow")
    type: Literal["update"]
    set: list[tuple[int, str]] | None = None
    moves_from: int | None = None
    append: list[str] | None = None

    @model_validator(mode="after")
    def _fields_of_the_view(self) -> Self:
        for name, value in (self.model_extra or {}).items():
            adapter = _UPDATABLE.get(name)
            if adapter is None:
                raise ValueError(f"{name!r} is not a field an update may change")
            adapter.validate_python(value)
        return self


class ErrorMessage(BaseModel):
    type: Literal["error"]
    message: str


class HintView(BaseModel):
    """The computer's advice: best move, evaluation in words and numbers, expected line."""

    move: str
    score: int
    white_share: float
    text: str
    pv: list[str]
    exact: bool
    book: bool = False  # from the opening book
    gesture: list[Touch]


class HintMessage(HintView):
    type: Literal["hint"]


class ChatMessage(BaseModel):
    """A line of chat (its text is plain text: pages never read it as markup)."""

    type: Literal["chat"]
    id: int
    room: Literal["players", "spectators"]
    name: str
    text: str
    at: str


class ChatHistory(BaseModel):
    """The room's earlier lines, sent after ``hello``."""

    type: Literal["chat_history"]
    room: Literal["players", "spectators"]
    lines: list[ChatMessage]


#: a message the server sends on a game's websocket
ServerMessage = TypeAdapter[
    GameView | Update | ErrorMessage | HintMessage | ChatMessage | ChatHistory
](
    Annotated[
        GameView | Update | ErrorMessage | HintMessage | ChatMessage | ChatHistory,
        Field(discriminator="type"),
    ]
)

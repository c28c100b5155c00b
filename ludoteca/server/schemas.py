"""The JSON contract: the bodies the API accepts (validated by FastAPI; a bad one gets a 400
naming the field), and everything the server answers or sends on a websocket (the response
models of every JSON route, so that ``/api/openapi.json`` describes each answer; the websocket
messages are documented there too, see ``routers/socket.py``)."""

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
    "Accepted",
    "Action",
    "Advice",
    "BoardView",
    "CatalogueGame",
    "ChatHistory",
    "ChatMessage",
    "ChatRemoved",
    "Claim",
    "ClockView",
    "Colour",
    "Created",
    "Credentials",
    "Done",
    "ErrorMessage",
    "FinishedGame",
    "FinishedPage",
    "GameRatings",
    "GameView",
    "Health",
    "Hello",
    "HintMessage",
    "HintView",
    "Incoming",
    "Intent",
    "Joined",
    "Joining",
    "Leader",
    "LevelView",
    "Lobby",
    "LobbyGame",
    "Me",
    "Message",
    "Mode",
    "MoveIntent",
    "NewGame",
    "NewPassword",
    "OpenSeek",
    "OutcomeView",
    "Outgoing",
    "PageCatalogue",
    "Pairing",
    "Plain",
    "PlayerRating",
    "PlayerView",
    "Posted",
    "Profile",
    "RatingStep",
    "RatingView",
    "Readiness",
    "RecordText",
    "RematchView",
    "Replay",
    "ReplayPosition",
    "Room",
    "RuleSetView",
    "Say",
    "Seat",
    "SeatShown",
    "SeatView",
    "SeekBody",
    "SeekView",
    "ServerMessage",
    "Session",
    "SharedView",
    "Status",
    "Tally",
    "Touch",
    "Update",
    "read_message",
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


#: a chat room of a game: its players', or everyone else's
Room = Literal["players", "spectators"]


class Say(BaseModel):
    """A line of chat in a room of the game (the players' or the spectators')."""

    type: Literal["chat"]
    room: Room
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
#: a message a page sends on a game's websocket
Incoming = Annotated[Hello | MoveIntent | Plain | Advice | Say, Field(discriminator="type")]
#: a websocket message, to check
Message = TypeAdapter[Hello | MoveIntent | Plain | Advice | Say](Incoming)


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
    #: that account is a bot (an engine plays it: shown "BOT")
    bot: bool


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


def omitted_if_none() -> Any:
    """A field that may be missing from the JSON (left out rather than sent as ``null``)."""
    return Field(default=None, exclude_if=lambda value: value is None)


class RematchView(BaseModel):
    id: str
    #: the reader's seat in the rematch, for a player of this game only
    token: str | None = omitted_if_none()


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
    #: the empty points where no piece may be put for now (``State.marked_points``)
    marked: list[int]
    turn: Colour
    ply: int
    #: the ply the game started from (0 unless set up from a position): move numbers count from it
    first_ply: int
    moves: list[str]
    last: list[Touch] | None
    #: what the last move did beyond moving, in words ("converts 2 stones"), or ""
    last_note: str
    #: who made the last move (not always the other side: a removal-only turn follows its
    #: move's, in Da San Qi), or ``None`` before the first
    last_colour: Colour | None
    hand: tuple[int, int] | None
    notice: str | None
    #: the position in words, read out by the blind mode (``State.describe``)
    description: str
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
    """A message of the sender's refused: why, and what it was about where the page shows the
    refusal elsewhere than under the board (``chat``: a chat line, told in the chat panel)."""

    type: Literal["error"]
    message: str
    about: Literal["chat"] | None = None


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
    room: Room
    name: str
    text: str
    at: str


class ChatHistory(BaseModel):
    """The room's earlier lines, sent after ``hello``."""

    type: Literal["chat_history"]
    room: Room
    lines: list[ChatMessage]


class ChatRemoved(BaseModel):
    """A moderator removed a line of the room: pages drop it."""

    type: Literal["chat_removed"]
    room: Room
    id: int


#: a message the server sends on a game's websocket
Outgoing = Annotated[
    GameView | Update | ErrorMessage | HintMessage | ChatMessage | ChatHistory | ChatRemoved,
    Field(discriminator="type"),
]
#: a message the server sends, to check
ServerMessage = TypeAdapter[
    GameView | Update | ErrorMessage | HintMessage | ChatMessage | ChatHistory | ChatRemoved
](Outgoing)


# --- the catalogue, the lobby, new games, replays --------------------------------------------
class LevelView(BaseModel):
    """A computer level the server plays: number, name and description in the reader's
    language; once people's games against it give one, its rating on people's scale
    (rounded; ``None`` until then, ``games`` 0); and, where measured against perfect play (a
    rule set with a solved table), the share of its moves that keep the position's value in
    whole percents (rounded down; ``None`` where not measured), over ``kept_moves`` moves,
    ``kept_endgame`` when the table judged its endgame moves only."""

    number: int
    name: str
    description: str
    rating: int | None
    deviation: int | None
    games: int
    kept: int | None = None
    kept_moves: int = 0
    kept_endgame: bool = False


class ChoiceView(BaseModel):
    """A value a setting may take, in words (a custom Morris rule set's board, a Morelli
    setup)."""

    value: int | str
    label: str


class RuleSetView(BaseModel):
    """A rule set of a game: name, title, description, its settings (those a person may change)
    with their labels, the values a setting that is a choice may take (each with its label;
    Morelli's setups: those a game can be played from; a custom Morris rule set's board), the
    computer levels, and the starting position's board and pieces."""

    name: str
    title: str
    description: str
    settings: dict[str, bool | int | str]
    options: dict[str, str]
    choices: dict[str, list[ChoiceView]]
    #: a rule set of settings alone, which with its defaults is another (Morris's custom one):
    #: a form that asks for no settings leaves it out
    custom: bool
    levels: list[LevelView]
    board: BoardView
    pieces: list[str]


class RulesView(BaseModel):
    """A rule-set spec read (``GET /api/rules``): its canonical spec (the rule set it denotes,
    named as records name it), its title with the settings that differ, in the reader's
    language, and its starting position's board and pieces."""

    rules: str
    title: str
    board: BoardView
    pieces: list[str]


class CatalogueGame(BaseModel):
    """A game of the catalogue (``GET /api/catalogue``), its texts in the reader's language."""

    name: str
    title: str
    summary: str
    rule_sets: list[RuleSetView]


class LobbyGame(BaseModel):
    """A game the lobby lists: its seats' kinds (``"human"`` or a computer's ``"level:N"``),
    the free colour (of a waiting game), the players' display names, and when it last changed
    (ISO 8601)."""

    id: str
    game: str
    rules: str
    rules_title: str
    mode: Mode
    ply: int
    white: str
    black: str
    free: Colour
    white_name: str | None
    black_name: str | None
    #: the seat's account is a bot (shown "BOT")
    white_bot: bool
    black_bot: bool
    clock: str | None
    updated: str


class Lobby(BaseModel):
    """Online games waiting for a second player, and games in play to watch (the most recently
    active first)."""

    open: list[LobbyGame]
    live: list[LobbyGame]


class Created(BaseModel):
    """A new game: its id, the creator's seat tokens by colour (to keep secret) and its
    page."""

    id: str
    tokens: dict[str, str]
    url: str


class Joined(BaseModel):
    """The seat taken in an online game, and its token (to keep secret)."""

    colour: Colour
    token: str


class ReplayPosition(BaseModel):
    """A position of a replayed record: pieces, marked points, the touches of the move that led
    to it, its label and note (none for the start: no ``note`` at all), the side to move."""

    pieces: list[str]
    #: the empty points where no piece may be put for now (``State.marked_points``)
    marked: list[int]
    last: list[Touch] | None
    move: str | None
    note: str | None = omitted_if_none()
    turn: Colour


class Replay(BaseModel):
    """Every position of a text record from its start (``POST /api/records/replay``)."""

    game: str
    title: str
    rules: str
    rules_title: str
    first_ply: int
    tags: dict[str, str]
    result: str
    ending: str | None
    board: BoardView
    positions: list[ReplayPosition]


# --- accounts and the site --------------------------------------------------------------------
class Session(BaseModel):
    """A signed-in account: its name, the CSRF token pages repeat in ``X-CSRF-Token``, and how
    many guest seats the sign-up or sign-in claimed."""

    name: str
    csrf: str
    claimed: int


class Me(BaseModel):
    """Who is signed in: name and CSRF token, both ``None`` for a guest."""

    name: str | None
    csrf: str | None


class Done(BaseModel):
    """An action without an answer beyond having been done."""

    ok: Literal[True] = True


class Health(BaseModel):
    """The process is alive (``GET /healthz``)."""

    status: Literal["ok"] = "ok"


class Readiness(BaseModel):
    """Whether the process can serve games (``GET /readyz``, 503 when ``unavailable``, with
    the service that failed and why)."""

    status: Literal["ready", "unavailable"]
    error: str | None = omitted_if_none()


class PageCatalogue(BaseModel):
    """The translations of a language for the pages' scripts (``GET /i18n/LANG.json``; see
    :func:`ludoteca.i18n.catalogue`)."""

    lang: str
    dir: Literal["ltr", "rtl"]
    messages: dict[str, str]
    plurals: dict[str, list[str]]
    tags: list[str]


# --- the community: ratings, profiles, finished games, seeks ---------------------------------
class RatingView(BaseModel):
    """An account's rating for a game and time-control category as it stands today (a
    deviation above 110: ``provisional``); ``category`` is the category's fixed name (blitz,
    rapid, classical, untimed, correspondence: the page words it)."""

    game: str
    title: str
    category: str
    rating: int
    deviation: int
    provisional: bool
    games: int


class RatingStep(BaseModel):
    """A rated game's change of a rating: the rating after it (``at``, ISO 8601)."""

    game: str
    title: str
    category: str
    game_id: str
    rating: int
    change: int
    at: str


class Tally(BaseModel):
    wins: int
    draws: int
    losses: int


class SeatShown(BaseModel):
    """A player of a finished game: display name, account (if one held the seat) and whether
    it is a bot (shown "BOT"), computer level (``"level N"``, for the computer)."""

    name: str | None
    account: str | None
    bot: bool
    computer: str | None


class FinishedGame(BaseModel):
    """A game as the history lists it (``moves``: the number of moves played, ``ended``: ISO
    8601; ``termination_text``: the termination in the reader's language)."""

    id: str
    game: str
    rules: str
    rules_title: str
    mode: Mode
    rated: bool
    clock: str | None
    result: str | None
    termination: str | None
    termination_text: str | None
    moves: int
    white: SeatShown
    black: SeatShown
    ended: str


class Profile(BaseModel):
    """A player's page: whether an engine plays the account (``bot``: shown "BOT"), ratings,
    their history, win/draw/loss counts and recent games."""

    name: str
    bot: bool
    joined: str
    ratings: list[RatingView]
    history: list[RatingStep]
    counts: Tally
    games: list[FinishedGame]


class FinishedPage(BaseModel):
    """A page of finished games, newest first; ``more``: there is a next page."""

    games: list[FinishedGame]
    page: int
    more: bool


class Leader(RatingView):
    """A place on a leaderboard: the account's name and its rating."""

    name: str


class PlayerRating(RatingView):
    """A player's rating, with the change a finished rated game made to it (else ``None``)."""

    change: int | None


class GameRatings(BaseModel):
    """The ratings of a game's players for its category (``None`` for a seat without an
    account or a rating)."""

    rated: bool
    category: str
    white: PlayerRating | None
    black: PlayerRating | None


class SeekView(BaseModel):
    """A seek: what its poster asks for (``colour``: the poster's), and, once accepted, the
    game's id."""

    id: str
    game: str
    rules: str
    rules_title: str
    clock: str | None
    rated: bool
    colour: Literal["white", "black", "random"]
    min_rating: int | None
    max_rating: int | None
    game_id: str | None


class OpenSeek(SeekView):
    """A seek on offer, with its poster's name, whether it is a bot (shown "BOT") and rating."""

    player: str
    bot: bool
    rating: int


class Posted(BaseModel):
    """A seek just offered: its id."""

    id: str


class Accepted(BaseModel):
    """A seek accepted: the new game's id and page."""

    game: str
    url: str


class Pairing(BaseModel):
    """Quick pairing's answer: the game of the compatible seek it accepted (``game``), or the
    id of the seek it offered instead (``seek``); the other field is left out."""

    game: str | None = omitted_if_none()
    seek: str | None = omitted_if_none()

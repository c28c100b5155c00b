"""The analysis board: its page, its websocket ``/ws/analysis`` (positions with their legal
moves, and the engine's best lines streamed depth by depth) and the check of an edited position
(see ``docs/web.md``)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field, TypeAdapter

from ...core import LudotecaError
from ...i18n import _
from ..computer.computer import Computer
from ..deps import Client, ComputerDep, GuardsDep, HubDep
from ..errors import ActionError
from ..limits import RateLimit
from ..play.catalogue import default_game
from ..play.hub import Hub
from ..play.views import encode
from ..schemas import read_message
from ..study.analysis import (
    MAX_MOVES,
    Analyst,
    board_of,
    check_position,
    opening,
    position_view,
    state_of,
)
from ..study.schemas import (
    AnalysisErrorMessage,
    AnalysisSent,
    LineMessage,
    PositionCode,
    PositionMessage,
)
from .pages import page

router = APIRouter()

#: the largest message the analysis socket reads (a record, a long move list)
MAX_ANALYSIS_MESSAGE = 65_536
#: positions one connection may ask for in :data:`FLOOD_SECONDS` (the rest are refused)
FLOOD_POSITIONS = 30
FLOOD_SECONDS = 10.0


class Show(BaseModel):
    """Show the position after ``moves`` from the position code ``start`` (the usual start
    when absent) and analyse it; ``id`` is echoed in the answers."""

    type: Literal["show"]
    id: int
    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    start: str | None = Field(default=None, max_length=2000)
    moves: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=MAX_MOVES
    )
    analyse: bool = True


class Open(BaseModel):
    """Open the main line of a game of the server (``game_id``) or of a text ``record``."""

    type: Literal["open"]
    game_id: str | None = Field(default=None, max_length=64)
    record: str | None = Field(default=None, max_length=MAX_ANALYSIS_MESSAGE)


class Stop(BaseModel):
    """Stop the live analysis."""

    type: Literal["stop"]


#: a message a page sends on the analysis websocket
AnalysisIncoming = Annotated[Show | Open | Stop, Field(discriminator="type")]
#: a message a page sends, to check
AnalysisMessage = TypeAdapter[Show | Open | Stop](AnalysisIncoming)


class EditedPosition(BaseModel):
    """A position made in the editor: the rule set and its position code, or the pieces on
    its points (a token each, "" for empty), the side to move and the men in hand."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    code: str | None = Field(default=None, max_length=2000)
    pieces: list[Annotated[str, Field(max_length=8)]] | None = Field(default=None, max_length=400)
    turn: Literal["white", "black"] = "white"
    hand: tuple[Annotated[int, Field(ge=0, le=99)], Annotated[int, Field(ge=0, le=99)]] | None = (
        None
    )


class TypedMove(BaseModel):
    """A move typed in notation (the blind mode's box) in the position after ``moves`` from
    the position code ``start`` (the usual start when absent) of a rule set."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    start: str | None = Field(default=None, max_length=2000)
    moves: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=MAX_MOVES
    )
    move: str = Field(min_length=1, max_length=200)


class CheckedMove(BaseModel):
    """A typed move that is legal, as its game writes it."""

    move: str


@router.get("/analysis", response_class=HTMLResponse, include_in_schema=False)
async def analysis_page() -> HTMLResponse:
    return page("analysis", default_game=default_game())


@router.post("/api/analysis/position")
async def edited_position(body: EditedPosition) -> PositionCode:
    """The position code as the engine writes it; 400 with the reason if it is impossible."""
    return check_position(body.game, body.rules, body.code, body.pieces, body.turn, body.hand)


@router.post("/api/analysis/move")
async def typed_move(body: TypedMove) -> CheckedMove:
    """The typed move as its game writes it, when it is legal in the position; 400 with the
    engine's sentence (why it is no move, or not one here) when not."""
    state = state_of(body.game, body.rules, body.start, body.moves)
    try:
        return CheckedMove(move=str(state.parse_move(body.move)))
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None


@router.websocket("/ws/analysis")
async def analysis_socket(
    websocket: WebSocket, hub: HubDep, computer: ComputerDep, guards: GuardsDep, address: Client
) -> None:
    """Messages ``open``, ``show`` and ``stop``; the server answers ``line``, ``position``,
    then ``lines`` for each completed depth and ``done``, or ``error`` with a sentence."""
    if not await guards.admit(websocket, address, "analysis sockets"):
        return
    try:
        await _serve(websocket, hub, computer)
    finally:
        guards.release(address)


async def _serve(websocket: WebSocket, hub: Hub, computer: Computer) -> None:
    await websocket.accept()

    async def tell(message: AnalysisSent) -> None:
        await websocket.send_text(encode(message))

    analyst = Analyst(computer, tell, hub.playing)
    flood = RateLimit(FLOOD_POSITIONS, FLOOD_SECONDS)
    boards: set[str] = set()  # the rule sets whose board this connection was sent
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                intent = _read(message.get("text"))
                if isinstance(intent, Stop):
                    analyst.stop()
                elif isinstance(intent, Open):
                    await tell(await _opening(hub, intent))
                else:
                    if not flood.allow("positions"):
                        raise ActionError(
                            429,
                            _(
                                "too many positions asked for: at most %(flood_positions)s every "
                                "%(flood_seconds)s seconds; this one is not analysed",
                                flood_positions=FLOOD_POSITIONS,
                                flood_seconds=format(FLOOD_SECONDS, "g"),
                            ),
                        )
                    analyst.stop()  # nothing of the position before is sent after this one
                    state = state_of(intent.game, intent.rules, intent.start, intent.moves)
                    view = position_view(state)
                    spec = f"{view.game}/{view.rules}"
                    intro = {}
                    if spec not in boards:
                        boards.add(spec)
                        intro = dict(board_of(state))
                    await tell(
                        PositionMessage(type="position", id=intent.id, **dict(view), **intro)
                    )
                    if intent.analyse:
                        analyst.show(intent.id, state)
            except ActionError as error:
                await tell(AnalysisErrorMessage(type="error", message=error.message))
    except WebSocketDisconnect:
        pass
    finally:
        analyst.stop()


async def _opening(hub: Hub, intent: Open) -> LineMessage:
    if intent.game_id is None:
        return opening(record=intent.record)
    live = await hub.get(intent.game_id)
    state = live.state
    moves = [str(state.move_of(code)) for code in state.move_stack]
    return opening((live.row.game, live.row.rules, state.start, moves))


def _read(text: str | None) -> Show | Open | Stop:
    return read_message(text, AnalysisMessage, MAX_ANALYSIS_MESSAGE, '{"type": "stop"}')

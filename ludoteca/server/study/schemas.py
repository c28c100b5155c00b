"""The JSON the study routers answer with (the analysis board's position check, its moves
panel and its websocket's messages, the opening explorer, the rules lessons, the puzzles, the
game reports), as pydantic models: the field names, their order and shapes are what the pages
read, and what the OpenAPI document shows.  A field made with ``omitted_if_none`` is left out
of the JSON when it is ``None``, as the pages expect.

The values worked out in a worker process (:func:`.analysis.search_lines`,
:func:`.explorer.move_scores`) are :class:`TypedDict` values, plain dicts that pickle cheaply, and
the messages are made of them as they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, NotRequired

from pydantic import BaseModel, Field
from typing_extensions import TypedDict  # (pydantic reads this one's on Python 3.11)

from ...study.report import MoveVerdict, PlyValue, SideSummary
from ..schemas import BoardView, omitted_if_none

__all__ = [
    "AnalysisErrorMessage",
    "AnalysisOutgoing",
    "AnalysisSent",
    "AnsweredPuzzle",
    "DailyPuzzle",
    "DepthLines",
    "DoneMessage",
    "EngineLine",
    "EveryMove",
    "ExactValue",
    "ExplorerMove",
    "ExplorerView",
    "Frame",
    "GameLessons",
    "GameReport",
    "Intro",
    "LessonStep",
    "LessonSummary",
    "LessonVerdict",
    "LessonView",
    "LineMessage",
    "LinesMessage",
    "MoveRow",
    "MoveScore",
    "MoveValue",
    "Position",
    "PositionCode",
    "PositionMessage",
    "Practice",
    "PracticeFound",
    "PracticeMove",
    "PracticePly",
    "PuzzleAttempt",
    "PuzzlePlayer",
    "PuzzleSet",
    "PuzzleSolution",
    "PuzzleView",
    "RatingChange",
    "ReportPly",
    "RunView",
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
    marked: list[int]  # the empty points where no piece may be put for now
    turn: str  # "white" or "black"
    hand: tuple[int, int] | None  # the men in hand, in the games that have them
    notice: str | None
    legal: list[str]  # each legal move as the game page reads it (see .views.legal_entry)
    last: list[tuple[str, int]] | None  # the last move's gesture: (role, point) touches
    code: str
    outcome: str | None  # in words, once the game is over
    description: str  # the position in words, read out by the blind mode (State.describe)
    said: str | None  # the last move as a sentence ("Black played d6-d5xf4 (mill, takes f4).")


class Intro(BaseModel):
    """A rule set's title, summary, board and the status line's words for making a move
    (``place``, ``move``, ``take``..., as in the game view; what never changes; see
    :func:`.analysis.board_of`)."""

    title: str
    summary: str
    texts: dict[str, str]
    board: BoardView


class MoveScore(TypedDict):
    """A move's value for the side making it, in no language (:func:`.explorer.move_scores`):
    the engine's ``score`` and whether a solved table gave it (``exact``)."""

    score: int
    exact: bool


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
    """A lesson in the listing: its key, title, intro, number of steps, and the rule set its
    positions are of (its spec and its title)."""

    key: str
    title: str
    intro: str
    steps: int
    rules: str
    rules_title: str


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
    """A lesson for the page: its rule set (spec and title), board (as the game page describes
    it) and steps."""

    game: str
    key: str
    title: str
    intro: str
    rules: str
    rules_title: str
    board: BoardView
    steps: list[LessonStep]


class LessonVerdict(BaseModel):
    """The verdict on a move made in a step: ``right``, the ``sentence`` saying why, and the
    position after the move when it is right."""

    right: bool
    sentence: str
    after: Position | None


# --- the analysis board's moves panel and websocket ------------------------------------------
class ExactValue(BaseModel):
    """A table's exact value for the side that makes a move, after it."""

    score: int  # a win or loss at 100000 minus the plies after the move; 0 a draw
    verdict: Literal["win", "draw", "loss"]
    plies: int | None  # a win or loss: the plies to the end with best play, the move counted
    text: str  # in words: "Win in 7 plies", "Draw", "Loss in 3 plies"


class MoveRow(BaseModel):
    """A legal move and its value for the side making it."""

    move: str
    score: int  # the engine's units; a table's: a win or loss at 100000 minus the plies after
    exact: bool  # from a solved table
    verdict: Literal["win", "draw", "loss"] | None  # an exact value's
    plies: int | None  # an exact win or loss: the plies to the end with best play, this one too
    text: str  # as the panel shows it: "Win in 7 plies", "Draw", or the bar's "+1.3" for White


class EveryMove(BaseModel):
    """Every legal move of a position, ranked: by a table, wins fastest first, then draws,
    then losses slowest first; by the search, best first."""

    game: str
    rules: str
    position: str  # its position code, as the engine writes it
    exact: bool
    depth: int | None  # the search's depth, when no table covers the position
    moves: list[MoveRow]


class PracticePly(TypedDict):
    """One of the player's moves in a practice game, in no language
    (:func:`.practice.practice_line`): its ``ply`` in the game (the first move of a game is 1),
    notation, and the table's ``before`` (the position's: its best move's) and ``after`` (the
    move's) values for the player, as :class:`ExactValue` scores."""

    ply: int
    move: str
    before: int
    after: int


class PracticeFound(TypedDict):
    """A practice game's line as the table judges it (:func:`.practice.practice_line`):
    ``tabled`` false when no table covers the start (then nothing else is worked out), the
    start's ``value`` for the player, each of the player's ``moves`` judged, the perfect
    player's ``reply`` when it is to move, and whether the game is ``over`` (after the reply)."""

    tabled: bool
    value: int
    moves: list[PracticePly]
    reply: str | None
    over: bool


class PracticeMove(BaseModel):
    """One of the player's moves in a practice game, with the table's values for the player
    before it (the best move's) and after it."""

    ply: int  # in the game: its first move is ply 1
    move: str
    before: ExactValue
    after: ExactValue


class Practice(BaseModel):
    """A practice game against perfect play so far: the perfect player's ``reply`` (when it is
    to move: the position after ``moves`` and it, ``over`` says whether the game then ended),
    and the judgement of the player's moves: the start's ``value`` for the player, whether they
    ``kept`` it (a win still a win, a draw still at least a draw) and, if not, the move where
    it was ``lost``; ``verdict`` says so in words."""

    game: str
    rules: str
    start: str  # the position code the practice started from
    player: Literal["white", "black"]  # the side the person plays: the start's side to move
    value: ExactValue  # the start's, for the player
    reply: str | None
    over: bool
    moves: list[PracticeMove]  # the player's moves judged, in order
    kept: bool
    lost: PracticeMove | None  # the first move after which the value was lower
    verdict: str


class LineMessage(BaseModel):
    """The main line the board opens (a game's or a record's): its rule set, start (a position
    code) and moves."""

    type: Literal["line"]
    game: str
    rules: str
    start: str
    moves: list[str]


class PositionMessage(Position):
    """The position the page asked for (``id``: its request's); the first position of a rule
    set on a connection also brings the rule set's title, summary, texts and board (else left
    out)."""

    type: Literal["position"]
    id: int
    title: str | None = omitted_if_none()
    summary: str | None = omitted_if_none()
    texts: dict[str, str] | None = omitted_if_none()
    board: BoardView | None = omitted_if_none()


class EngineLine(TypedDict):
    """One of the engine's best lines: the score for the mover, the evaluation bar's text,
    White's share, the verdict in words, the line (notation, its first move the root's) and
    the first move's gesture."""

    score: int
    bar: str
    white_share: float
    text: str
    pv: list[str]
    gesture: list[tuple[str, int]]


class DepthLines(TypedDict):
    """A depth's best lines (:func:`.analysis.search_lines`): ``depth`` reached, ``exact``
    (from a solved table), ``book`` (present when the opening book answered), the lines, the
    root moves' codes best first (``candidates``, for the next depth) and the ``seconds`` the
    job thought."""

    depth: int
    exact: bool
    book: NotRequired[bool]
    lines: list[EngineLine]
    candidates: list[int]
    seconds: NotRequired[float]


class LinesMessage(BaseModel):
    """A completed depth's best lines for the position of request ``id`` (``book`` only when
    the opening book answered)."""

    type: Literal["lines"]
    id: int
    depth: int
    exact: bool
    book: bool | None = omitted_if_none()
    lines: list[EngineLine]


class DoneMessage(BaseModel):
    """The analysis of the position of request ``id`` is over."""

    type: Literal["done"]
    id: int


class AnalysisErrorMessage(BaseModel):
    """A refused message, or an analysis that could not go on (then with its request's
    ``id``)."""

    type: Literal["error"]
    id: int | None = omitted_if_none()
    message: str


#: a message the server sends on the analysis board's websocket
AnalysisSent = LineMessage | PositionMessage | LinesMessage | DoneMessage | AnalysisErrorMessage
AnalysisOutgoing = Annotated[AnalysisSent, Field(discriminator="type")]


# --- puzzles ----------------------------------------------------------------------------------
class PuzzleSet(BaseModel):
    """A rule set that has puzzles: its game, name, title, how many, and their themes (each
    with its words in the reader's language)."""

    game: str
    rules: str
    title: str
    count: int
    themes: dict[str, str]


class PuzzleView(Intro):
    """A puzzle before it is solved (never its solution): its id, rule set, theme, rating,
    how many moves the player makes, whether it is a player's own, the player's side, the
    start position, and the game's title, summary and board; a shipped puzzle's set edition
    and its number in it (what a browser marks as shown: ``/api/puzzles/next``'s ``seen``),
    null for a player's own."""

    id: str
    game: str
    rules: str
    theme: str
    theme_text: str
    rating: int
    moves: int
    own: bool
    player: str
    position: Position
    rules_title: str
    edition: str | None = None
    number: int | None = None


class DailyPuzzle(PuzzleView):
    """Today's puzzle and the day (UTC, ISO 8601)."""

    date: str


class Frame(BaseModel):
    """A picture of a solution: the move (its notation; None for the start), the pieces and
    marked points after it and its gesture."""

    move: str | None
    pieces: list[str]
    marked: list[int]
    last: list[tuple[str, int]]


class RatingChange(BaseModel):
    """A player's puzzle rating before and after a counted outcome, and the change."""

    before: float
    after: float
    change: float


class RunView(BaseModel):
    """A streak or rush run: its score, mistakes, whether it is over, the seconds left (a
    rush) and its current puzzle (None once over)."""

    id: str
    mode: str
    rules: str
    score: int
    mistakes: int
    over: bool
    seconds_left: float | None
    puzzle: PuzzleView | None


class AnsweredPuzzle(BaseModel):
    """The verdict on the player's moves (right, solved or wrong), the reply and position
    after a right move, the rating change when the outcome counted, and (else left out) the
    solution's ``frames`` once solved and the ``run`` the puzzle is part of."""

    verdict: Literal["right", "solved", "wrong"]
    reply: str | None
    position: Position | None
    rating: RatingChange | None
    frames: list[Frame] | None = omitted_if_none()
    run: RunView | None = omitted_if_none()


class PuzzleSolution(BaseModel):
    """A puzzle's solution line and its frames, and the rating change if asking counted."""

    line: list[str]
    frames: list[Frame]
    rating: RatingChange | None


class PuzzleAttempt(BaseModel):
    """A counted attempt: the puzzle, its rule set, whether solved, the rating after it and
    the change, and when (ISO 8601)."""

    puzzle: str
    rules: str
    solved: bool
    rating: float
    change: float
    at: str


class PuzzlePlayer(BaseModel):
    """A player's puzzle rating, best runs and history (newest first)."""

    name: str
    rating: float
    deviation: float
    provisional: bool
    attempts: int
    best_streak: int
    best_rush: int
    history: list[PuzzleAttempt]


# --- game reports -----------------------------------------------------------------------------
@dataclass
class ReportPly(PlyValue):
    """A position of a report as the pages show it: its analysis, the value as the evaluation
    bar writes it for White (``text``) and White's ``share``."""

    text: str = ""
    share: float = 0.0


class GameReport(BaseModel):
    """A report: ``status`` (pending, running, ready or failed), ``done`` and ``total``
    positions, a record's report ``key``, and once ready the game, rule set, every position,
    every move's verdict and each side's figures (the fields that do not apply are left
    out)."""

    key: str | None = omitted_if_none()
    status: Literal["pending", "running", "ready", "failed"]
    done: int
    total: int
    game: str | None = omitted_if_none()
    rules: str | None = omitted_if_none()
    plies: list[ReportPly] | None = omitted_if_none()
    moves: list[MoveVerdict] | None = omitted_if_none()
    sides: dict[str, SideSummary] | None = omitted_if_none()

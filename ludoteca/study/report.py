"""The game report: every position of a game analysed once, and what the figures say of each
move and each side.

A position is analysed by :func:`analyse_ply` (the best move, its line and the value, from a
solved table where one covers the position, else by the search within one fixed limit); the
figures are pure functions of those values (:func:`assess`):

- **expected score** for White (0..1) of a value: :func:`~ludoteca.ai.analysis.share_for_white`
  (1 or 0 for a forced win or loss, ½ for an exact draw, else ``1 / (1 + 10^(-v/400))`` of the
  search's score ``v``, 1000 being a won-looking position);
- a move's **loss**: the mover's expected score before the move less after it (never below 0;
  0 when the move played is the best move found);
- its **judgement**: a blunder from a loss of :data:`BLUNDER`, a mistake from :data:`MISTAKE`,
  an inaccuracy from :data:`INACCURACY`; and, where a solved table values both positions, any
  move that turns a win into a draw or a loss, or a draw into a loss, is a blunder;
- its **accuracy** (0..100): lichess's curve ``103.1668 e^(-0.04354 d) - 3.1669`` of the loss
  ``d`` in percentage points, clamped to 0..100 (100 for a move that loses nothing);
- a side's accuracy: the mean of its moves' accuracies.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from ..ai.analysis import analyse, share_for_white
from ..ai.base import Limit
from ..ai.search import WIN, SearchAgent
from ..core import Color, State

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "REPORT_LIMIT",
    "MoveVerdict",
    "PlyValue",
    "SideSummary",
    "analyse_ply",
    "analyse_run",
    "assess",
    "judge",
    "move_accuracy",
    "outcome_value",
]

#: the bound on the analysis of each position: a node budget, so that every game's positions get
#: the same effort and a game's report is the same on any machine (40,000 nodes, searched from
#: the table of the position before: as close to a 300,000-node search's verdicts as 100,000
#: fresh nodes were, at less than half their time; docs/ai.md)
REPORT_LIMIT = Limit(depth=12, nodes=40_000)
INACCURACY = 0.10
MISTAKE = 0.15
BLUNDER = 0.30


@dataclass
class PlyValue:
    """The analysis of one position of a game: its value for White (the search's units, or
    ``±(WIN - plies)`` for a forced result), whether a solved table (or the game's end) gave
    it, the side to move, the best move and its line (None
    and [] once the game is over), and the move played from it with its touches (None at the
    end)."""

    white: int
    exact: bool
    turn: str
    best: str | None = None
    line: list[str] = field(default_factory=list)
    best_touches: list[list[object]] = field(default_factory=list)
    played: str | None = None
    played_touches: list[list[object]] = field(default_factory=list)


def outcome_value(state: State) -> int:
    """The value for White of a position whose game is over by the rules."""
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return WIN if outcome.winner is Color.WHITE else -WIN


def analyse_ply(
    state: State, played: int | None, limit: Limit, agent: SearchAgent | None = None
) -> PlyValue:
    """Analyse ``state`` within ``limit`` (deterministic for a depth or node limit); ``played``
    is the code of the move played from it (None at the end of the game); ``agent``: searched
    by that agent from its table of the position before (see :func:`analyse_run`)."""
    touches = [] if played is None else [list(t) for t in state.gesture(played)]
    move = None if played is None else str(state.move_of(played))
    turn = state.turn.name.lower()
    if state.outcome() is not None:
        return PlyValue(outcome_value(state), True, turn, None, [], [], move, touches)
    found = analyse(state, limit, seed=0, agent=agent)
    white = found.score if state.turn is Color.WHITE else -found.score
    return PlyValue(
        white,
        found.exact,
        turn,
        str(found.move),
        [str(m) for m in found.pv],
        [list(t) for t in state.gesture(found.move.code)],
        move,
        touches,
    )


def analyse_run(
    start: State, plies: list[int], moves: list[int], limit: Limit
) -> dict[int, PlyValue]:
    """The analyses (:func:`analyse_ply`) of the positions ``plies`` (ascending) of the game
    that plays the move codes ``moves`` from ``start``, searched in order by one agent that
    keeps its transposition table from one position to the next (it starts empty): a position
    is the child of the one before, so the table's entries save part of its search and the
    node budget goes deeper.  The same run gives the same values each time."""
    agent = SearchAgent(0)
    state = start.copy()
    wanted = set(plies)
    found = {}
    for ply in range(plies[-1] + 1 if plies else 0):
        if ply in wanted:
            played = moves[ply] if ply < len(moves) else None
            found[ply] = analyse_ply(state, played, limit, agent)
        if ply < len(moves):
            state.push_code(moves[ply])
    return found


def _mover_share(value: PlyValue, mover: str) -> float:
    white = share_for_white(value.white, Color.WHITE)
    return white if mover == "white" else 1.0 - white


def _category(value: PlyValue, mover: str) -> int:
    """1, 0 or -1: a win, a draw or a loss for ``mover`` (exact values only)."""
    white = (value.white > 0) - (value.white < 0)
    return white if mover == "white" else -white


def move_accuracy(loss: float) -> float:
    """A move's accuracy (0..100) from its loss of expected score (0..1)."""
    points = 100.0 * loss
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


def judge(before: PlyValue, after: PlyValue, loss: float) -> str | None:
    """ "blunder", "mistake", "inaccuracy" or None for the move from ``before`` to ``after``
    that lost ``loss`` of the mover's expected score."""
    mover = before.turn
    if before.exact and after.exact and _category(after, mover) < _category(before, mover):
        return "blunder"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass
class MoveVerdict:
    """What the report says of one move: its index in the game, its mover, the loss, the
    judgement (or None) and the accuracy."""

    index: int
    side: str
    loss: float
    judgement: str | None
    accuracy: float


@dataclass
class SideSummary:
    """One side's figures: the counts of each judgement and the mean accuracy (None without a
    move)."""

    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    accuracy: float | None = None


def assess(plies: list[PlyValue]) -> tuple[list[MoveVerdict], dict[str, SideSummary]]:
    """The verdict on every move of a game from the analyses of its positions in order (the
    move ``i`` leads from ``plies[i]`` to ``plies[i + 1]``), and each side's summary."""
    verdicts = []
    for index, (before, after) in enumerate(itertools.pairwise(plies)):
        mover = before.turn
        loss = 0.0
        if before.played != before.best:
            loss = max(0.0, _mover_share(before, mover) - _mover_share(after, mover))
        verdicts.append(
            MoveVerdict(
                index, mover, round(loss, 4), judge(before, after, loss), move_accuracy(loss)
            )
        )
    sides = {}
    for side in ("white", "black"):
        own = [v for v in verdicts if v.side == side]
        sides[side] = SideSummary(
            sum(v.judgement == "inaccuracy" for v in own),
            sum(v.judgement == "mistake" for v in own),
            sum(v.judgement == "blunder" for v in own),
            round(sum(v.accuracy for v in own) / len(own), 1) if own else None,
        )
    return verdicts, sides

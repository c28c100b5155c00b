"""The lessons of Felli (see :mod:`ludoteca.lessons`): steps, leaps, capture chains and
Mullahs, each step's answer decided by the rules (a leap is a capture move, a chain one that
captures more than once, a Mullah a piece the rules promoted)."""

from __future__ import annotations

from functools import cache

from ...core import Color, State
from ...i18n import N_
from ...lessons import Lesson, Step, setup
from .board import MULLAH, POINTS
from .rules import Felli, FelliState

__all__ = ["lessons"]

BASIC, MULLAHS = "felli", "felli-mullah"


def _state(state: State) -> FelliState:
    assert isinstance(state, FelliState)
    return state


def steps_forward(state: State, code: int) -> bool:
    """The move is a step (no capture) that ends on a row nearer the opponent's side."""
    felli = _state(state)
    move = felli.move_of(code)
    ahead = 1 if felli.turn is Color.WHITE else -1
    rank = [int(POINTS[p][1]) for p in (move.path[0], move.path[-1])]
    return not move.capture and (rank[1] - rank[0]) * ahead > 0


def leaps(state: State, code: int) -> bool:
    """The move captures: it leaps over an enemy man."""
    return state.is_tactical(code)


def chains(state: State, code: int) -> bool:
    """The move captures at least two men, leap after leap."""
    move = _state(state).move_of(code)
    return move.capture and len(move.path) > 2


def promotes(state: State, code: int) -> bool:
    """The move makes a man a Mullah."""
    felli = _state(state)
    path = felli.move_of(code).path
    if felli.board[path[0]] & MULLAH:
        return False
    felli.push_code(code)
    promoted = bool(felli.board[path[-1]] & MULLAH)
    felli.pop_code()
    return promoted


def mullah_captures(state: State, code: int) -> bool:
    """The move is a capture by a Mullah."""
    felli = _state(state)
    move = felli.move_of(code)
    return move.capture and bool(felli.board[move.path[0]] & MULLAH)


@cache
def lessons() -> tuple[Lesson, ...]:
    """Felli, from a man's first step to the Mullah's long leaps."""
    basic, mullahs = Felli.of(BASIC), Felli.of(MULLAHS)
    white = Color.WHITE
    return (
        Lesson(
            "steps",
            N_("Steps and leaps"),
            BASIC,
            N_(
                "A man steps one point along a line, in any direction, or captures by leaping "
                "over an enemy man next to it onto the empty point beyond."
            ),
            (
                Step(
                    setup(basic, white, w="c1 b2", b="c5 b4"),
                    N_("Step a man forward, towards Black's side of the board."),
                    steps_forward,
                    N_("Forward is up the board: b2 may go to c3, c1 to c2."),
                    N_(
                        "A man may step in any direction along a line, backwards and sideways "
                        "too; forward brings it into the fight."
                    ),
                    N_("That move does not step a man forward."),
                ),
                Step(
                    setup(basic, white, w="b2 c1", b="c3 c5"),
                    N_(
                        "Capture: leap over the black man next to yours onto the empty point "
                        "beyond it."
                    ),
                    leaps,
                    N_("b2, c3 and d4 are on one line, and d4 is empty."),
                    N_(
                        "The man you leap over is taken off the board. In this rule set a "
                        "capture is never compulsory."
                    ),
                    N_("That move captures nothing."),
                ),
            ),
        ),
        Lesson(
            "chains",
            N_("Capture chains"),
            MULLAHS,
            N_(
                "With the Mullah rules a capture is compulsory, and a man that lands where it "
                "can leap again goes on leaping in the same move."
            ),
            (
                Step(
                    setup(mullahs, white, w="a1 d4", b="b2 c4 e5"),
                    N_("Capture two black men in one move."),
                    chains,
                    N_("From a1, leap over b2 to c3; from c3 a second leap is waiting."),
                    N_(
                        "A chain goes on as long as a leap is possible: choose the capture that "
                        "takes the most."
                    ),
                    N_("That capture takes only one man."),
                ),
            ),
        ),
        Lesson(
            "mullahs",
            N_("Mullahs"),
            MULLAHS,
            N_(
                "A man reaching one of the far corners becomes a Mullah, which moves and leaps "
                "any distance along a line, like a flying king in draughts."
            ),
            (
                Step(
                    setup(mullahs, white, w="b4 c1", b="d2 c5"),
                    N_("Make a Mullah: bring a man to one of Black's corners, a5 or e5."),
                    promotes,
                    N_("The man on b4 is one step from a5."),
                    N_("The man is now a Mullah, drawn with a ring."),
                    N_("That move makes no Mullah."),
                ),
                Step(
                    setup(mullahs, white, w="c1", W="a1", b="c2 d4"),
                    N_("Capture with your Mullah, from a distance."),
                    mullah_captures,
                    N_(
                        "Your Mullah on a1 looks along the line to d4: the points between "
                        "are empty."
                    ),
                    N_(
                        "A Mullah leaps over an enemy man however far it stands, onto any empty "
                        "point beyond."
                    ),
                    N_("That capture is by a man, not by your Mullah."),
                ),
            ),
        ),
    )

"""The lessons of Morelli (see :mod:`ludoteca.lessons`), on the 9x9 board: the bands, the
queen's moves inward, flanking, frames and the Throne changing hands, each step's answer
decided by the rules (the stones a move converts, the King it seats).

Every Morelli position has all its stones on the board, so each step's position is the start's
full red ring (:data:`RING`) with a few stones moved inside."""

from __future__ import annotations

from functools import cache

from ...core import Color, State
from ...i18n import N_
from ...lessons import Lesson, Step, setup
from .board import geometry
from .rules import Morelli, MorelliState

__all__ = ["lessons"]

RULES = "morelli-9"
#: the colours of the red ring's squares in the setup's order (clockwise from A1, up the left
#: edge first): each half alternates, and the second half is the first's opposite, as opposite
#: red squares always are
RING = "bw" * 8 + "wb" * 8


def _state(state: State) -> MorelliState:
    assert isinstance(state, MorelliState)
    return state


def _ends(state: State, code: int) -> tuple[tuple[int, int], tuple[int, int]]:
    morelli = _state(state)
    squares = morelli.n * morelli.n
    src, dst = divmod(code, squares)
    return divmod(src, morelli.n)[::-1], divmod(dst, morelli.n)[::-1]


def next_to_throne(state: State, code: int) -> bool:
    """The move ends on the innermost band, around the Throne."""
    return _state(state).geo.band[code % (_state(state).n ** 2)] == 1


def diagonal(state: State, code: int) -> bool:
    """The move goes along a diagonal."""
    (x0, y0), (x1, y1) = _ends(state, code)
    return x0 != x1 and y0 != y1


def converts(state: State, code: int) -> bool:
    """The move flanks an enemy stone, which turns to the mover's colour."""
    return bool(_state(state).conversions(code))


def seats_king(state: State, code: int) -> bool:
    """The move seats the mover's King on the Throne (a new one, or in place of the
    opponent's)."""
    morelli = _state(state)
    before = morelli.king
    morelli.push_code(code)
    after = morelli.king
    morelli.pop_code()
    return after != before


def position(turn: Color, moved: str = "", **extra: str) -> str:
    """The position code of the full ring (:data:`RING`) with the stones ``moved`` ("A1-B2
    A2-C3": from a ring square to an inside one) and the pieces ``extra`` (as for
    :func:`~ludoteca.lessons.setup`)."""
    game = Morelli.of(RULES)
    names = geometry(game.size).names
    ring = {names[s]: RING[i] for i, s in enumerate(geometry(game.size).perimeter)}
    for pair in moved.split():
        start, end = pair.split("-")
        ring[end] = ring.pop(start)
    where: dict[str, str] = {}
    for name, token in ring.items():
        where[token] = f"{where.get(token, '')} {name}"
    for token, names_ in extra.items():
        where[token] = f"{where.get(token, '')} {names_}"
    return setup(game, turn, None, **where)


@cache
def lessons() -> tuple[Lesson, ...]:
    """Morelli, from the first move inward to winning the Throne."""
    black = Color.BLACK
    framed = "A3-C3 G9-G7 I2-G3"
    return (
        Lesson(
            "bands",
            N_("Bands and moves"),
            RULES,
            N_(
                "The board is a rainbow of square bands around the Throne in the centre. A stone "
                "moves like a chess queen, any distance along a line over empty squares, but it "
                "must end on a band nearer the centre. Black moves first."
            ),
            (
                Step(
                    position(black),
                    N_("Move a stone all the way to the innermost band, next to the Throne."),
                    next_to_throne,
                    N_("The stone on A1 can run along the diagonal to D4."),
                    N_(
                        "The nearer the centre, the fewer moves a stone has left: stones move "
                        "inward only, never back."
                    ),
                    N_("That move stops short of the innermost band."),
                ),
                Step(
                    position(black),
                    N_("Move a stone diagonally, like a bishop."),
                    diagonal,
                    N_("A corner stone has a long diagonal in front of it."),
                    N_(
                        "Straight or diagonal, any distance: a queen's move, as long as it ends "
                        "nearer the centre."
                    ),
                    N_("That move goes straight, not along a diagonal."),
                ),
            ),
        ),
        Lesson(
            "flanking",
            N_("Flanking"),
            RULES,
            N_(
                "When the stone you move ends next to a single enemy stone that has one of your "
                "stones right behind it, in any of the eight directions, the enemy stone turns "
                "to your colour."
            ),
            (
                Step(
                    position(black, "A2-C3 A1-B2"),
                    N_("Turn the white stone on C3 black: flank it."),
                    converts,
                    N_("C3 lies between B2, which is yours, and D4: bring a stone to D4."),
                    N_("Flanked stones change colour; they are never taken off the board."),
                    N_("That move flanks no white stone."),
                ),
            ),
        ),
        Lesson(
            "throne",
            N_("Frames and the Throne"),
            RULES,
            N_(
                "Four stones of yours a quarter turn apart around the centre make a frame: your "
                "King takes the Throne. When the player to move has no move, the owner of the "
                "King wins."
            ),
            (
                Step(
                    position(black, framed),
                    N_("Seat your King: complete the frame C3, G3, G7, C7."),
                    seats_king,
                    N_("C7 is still empty, and the stone on A9 can reach it."),
                    N_("Your King now holds the Throne: keep it until nobody can move."),
                    N_("That move completes no frame."),
                ),
                Step(
                    position(black, framed, kw="E5"),
                    N_("White's King holds the Throne: take it from White by completing a frame."),
                    seats_king,
                    N_("The frame C3, G3, G7, C7 lacks only C7."),
                    N_(
                        "The Throne has changed hands: a frame of yours seats your King in place "
                        "of the opponent's."
                    ),
                    N_("That move completes no frame."),
                ),
            ),
        ),
    )

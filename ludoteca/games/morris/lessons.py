"""The lessons of Nine Men's Morris (see :mod:`ludoteca.lessons`): placing, mills, removal,
moving and flying, each step's answer decided by the rules (a move that closes a mill is one
that removes a man)."""

from __future__ import annotations

from functools import cache

from ...core import Color, State
from ...i18n import N_
from ...lessons import Lesson, Step, setup
from .rules import Morris, MorrisState

__all__ = ["lessons"]

RULES = "morris"


def _state(state: State) -> MorrisState:
    assert isinstance(state, MorrisState)
    return state


def closes_mill(state: State, code: int) -> bool:
    """The move closes a mill (so it removes an enemy man)."""
    return state.is_tactical(code)


def makes_two(state: State, code: int) -> bool:
    """The move leaves the moved man in a line of two of the mover's men whose third point
    is empty: a mill one move away."""
    morris = _state(state)
    move = morris.move_of(code)
    board, side = morris.board, morris.turn
    own = morris.men[side] | 1 << move.dst
    if move.src is not None:
        own &= ~(1 << move.src)
    taken = morris.men[1 - side]
    return any(
        (own & mask).bit_count() == 2 and not taken & mask for mask in board.mills_at[move.dst]
    )


def removes_threat(state: State, code: int) -> bool:
    """The move removes an enemy man (with a mill, or a removal alone) from a line where the
    enemy has two men and the third point holds none of the mover's men after the move (a
    mill the enemy would close next)."""
    morris = _state(state)
    move = morris.move_of(code)
    if move.remove is None:
        return False
    board, enemy = morris.board, 1 - morris.turn
    after = morris.men[morris.turn]
    if not move.removal_only:
        after = after & ~(0 if move.src is None else 1 << move.src) | 1 << move.dst
    return any(
        (morris.men[enemy] & mask).bit_count() == 2 and not after & mask
        for mask in board.mills_at[move.remove]
    )


def moves_into_mill(state: State, code: int) -> bool:
    """The move takes a man already on the board along a line and closes a mill."""
    return _state(state).move_of(code).src is not None and state.is_tactical(code)


def flies_into_mill(state: State, code: int) -> bool:
    """The move flies a man to a point that is not its neighbour, closing a mill."""
    morris = _state(state)
    move = morris.move_of(code)
    if move.src is None or not state.is_tactical(code):
        return False
    return not morris.board.adjacent[move.src] >> move.dst & 1


@cache
def lessons() -> tuple[Lesson, ...]:
    """Nine Men's Morris, from placing the first man to flying with the last three."""
    game = Morris.of(RULES)
    white = Color.WHITE
    return (
        Lesson(
            "placing",
            N_("Placing and mills"),
            RULES,
            N_(
                "Each player has nine men and places them one at a time on the empty points. "
                "Three of your men in a row on a line make a mill."
            ),
            (
                Step(
                    setup(game, white, (8, 8), w="a1", b="g7"),
                    N_(
                        "Place a man on a line with your man on a1, so that one more man there "
                        "would make a mill."
                    ),
                    makes_two,
                    N_("The lines through a1 run up to a4 and a7, and across to d1 and g1."),
                    N_(
                        "Two men in a line with the third point empty threaten a mill: your "
                        "opponent has to block it."
                    ),
                    N_("That man makes no line of two with an empty third point."),
                ),
                Step(
                    setup(game, white, (7, 7), w="a1 a4", b="g7 d2"),
                    N_("Close a mill: place your third man in the line a1, a4, a7."),
                    closes_mill,
                    N_("The empty point of the line is a7."),
                    N_("A mill! Whenever you close one, you remove one of your opponent's men."),
                    N_("That move closes no mill."),
                ),
            ),
        ),
        Lesson(
            "removal",
            N_("Removing a man"),
            RULES,
            N_(
                "Closing a mill removes an enemy man of your choice, but not one standing in a "
                "mill of its own, unless every enemy man does."
            ),
            (
                Step(
                    setup(game, white, (6, 6), w="a1 a4 d6", b="g1 g4 d2"),
                    N_(
                        "Close your mill and remove a black man that threatens to close a mill "
                        "on Black's next move."
                    ),
                    removes_threat,
                    N_("Black has two men on the line g1, g4, g7 with g7 empty: take one of them."),
                    N_(
                        "Taking a man out of your opponent's line of two stops the mill it "
                        "threatened."
                    ),
                    N_("That move does not take a man out of Black's threatening line."),
                ),
            ),
        ),
        Lesson(
            "moving",
            N_("Moving"),
            RULES,
            N_(
                "Once every man is placed, a move takes a man along a line to a neighbouring "
                "empty point. Mills are closed, and men removed, as before."
            ),
            (
                Step(
                    setup(game, white, (0, 0), w="a1 a4 d7 e4", b="g1 g4 f4 b2"),
                    N_("Move a man to a neighbouring point so that it closes a mill."),
                    moves_into_mill,
                    N_("The man on d7 is next to a7, the empty point of the line a1, a4, a7."),
                    N_(
                        "Moving a man into a line closes a mill just like placing one; moving it "
                        "out and back in closes it again."
                    ),
                    N_("That move closes no mill."),
                ),
            ),
        ),
        Lesson(
            "flying",
            N_("Flying"),
            RULES,
            N_(
                "A player down to three men may fly: move a man to any empty point, not only to "
                "a neighbour. With fewer than three men, or no move, you lose."
            ),
            (
                Step(
                    setup(game, white, (0, 0), w="a1 a4 e4", b="g1 g4 f2 f6 b2"),
                    N_("You have three men left: fly a man to a7 to close the mill a1, a4, a7."),
                    flies_into_mill,
                    N_("The man on e4 may fly to a7 at once."),
                    N_(
                        "Flying makes three men dangerous: any empty point of a line of two is "
                        "one move away."
                    ),
                    N_("That move does not fly a man into a mill."),
                ),
            ),
        ),
    )

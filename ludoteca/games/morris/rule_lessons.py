"""The lessons of the rules where a rule set of the Morris family differs from Nine Men's
Morris (see :mod:`ludoteca.lessons`; Nine Men's Morris's own are :mod:`.lessons`): the diagonal
lines of the twelve-men board, moving while placing, marked points, a man for each mill,
removal from the hand, removals by mill counts and one-time mills.  Each lesson's positions are
of a rule set that has its rule, and each step's answer is decided by that rule set's engine
(a move takes a man when the engine writes a removal in it, a man leaves the hand when the
hand is smaller after the move)."""

from __future__ import annotations

from functools import cache

from ...core import Color, State
from ...i18n import N_
from ...lessons import Lesson, Step
from .board import MorrisBoard
from .lessons import closes_mill, moves_into_mill, removes_threat
from .rules import Morris, MorrisState

__all__ = ["rule_lessons"]


def position(
    rules: str,
    turn: Color,
    hand: tuple[int, int],
    *,
    marked: str = "",
    used: tuple[str, str] = ("", ""),
    due: tuple[int, int] = (0, 0),
    w: str = "",
    b: str = "",
) -> str:
    """The position code of a position of ``rules``: White's men on the points ``w``, Black's on
    ``b`` (names separated by spaces), the side to move, the men in hand, the points ``marked``
    (under marking), each side's points of closed mills (``used``, under one-time mills) and
    each side's removals due; its ply the men placed (every man on the board and taken), its
    quiet plies 0."""
    game = Morris.of(rules)
    index = game.variant.board.index

    def mask(names: str) -> int:
        return sum(1 << index[name] for name in names.split())

    state = MorrisState(
        game,
        (mask(w), mask(b)),
        hand,
        turn,
        ply=max(2 * game.variant.men - hand[0] - hand[1], 0),
        marked=mask(marked),
        used=(mask(used[0]), mask(used[1])),
        due=due,
    )
    return state.position_code()


def _state(state: State) -> MorrisState:
    assert isinstance(state, MorrisState)
    return state


def filled(state: State, code: int) -> list[int]:
    """The mills (as masks) through the point a placement or move reaches that the mover's
    men fill after it, whether or not they take a man."""
    morris = _state(state)
    move = morris.move_of(code)
    if move.removal_only:
        return []
    own = morris.men[morris.turn] | 1 << move.dst
    if move.src is not None:
        own &= ~(1 << move.src)
    return [mask for mask in morris.board.mills_at[move.dst] if own & mask == mask]


def diagonal(board: MorrisBoard, points: int) -> bool:
    """Whether the points of the mask ``points`` lie on a diagonal: no two share a file or a
    rank."""
    names = [board.points[p] for p in range(board.size) if points >> p & 1]
    return len({n[0] for n in names}) == len({n[1:] for n in names}) == len(names)


def closes_diagonal_mill(state: State, code: int) -> bool:
    """The move takes a man with a mill on a diagonal line."""
    board = _state(state).board
    return closes_mill(state, code) and any(diagonal(board, mask) for mask in filled(state, code))


def moves_along_diagonal_into_mill(state: State, code: int) -> bool:
    """The move takes a man along a diagonal line and closes a mill that takes a man."""
    morris = _state(state)
    move = morris.move_of(code)
    return (
        moves_into_mill(state, code)
        and move.src is not None
        and diagonal(morris.board, 1 << move.src | 1 << move.dst)
    )


def closes_two_mills(state: State, code: int) -> bool:
    """The move takes a man and fills two mills or more at once."""
    return closes_mill(state, code) and len(filled(state, code)) >= 2


def takes_from_hand(state: State, code: int) -> bool:
    """The move leaves the opponent fewer men in hand than before it (the opponent does not
    place during it, so a man left the hand)."""
    morris = _state(state)
    other = 1 - morris.turn
    before = morris.hand[other]
    morris.push_code(code)
    after = morris.hand[other]
    morris.pop_code()
    return after < before


def fills_mill(state: State, code: int) -> bool:
    """The move fills a mill through the point it reaches (whatever the mill takes)."""
    return bool(filled(state, code))


@cache
def rule_lessons() -> tuple[Lesson, ...]:
    """A lesson for each rule of the family that changes what a player must do, in a rule set
    that has it."""
    white = Color.WHITE
    return (
        Lesson(
            "diagonals",
            N_("Diagonal lines"),
            "morris-12",
            N_(
                "Twelve Men's Morris adds four diagonal lines at the corners: a1 b2 c3, g1 f2 e3, "
                "a7 b6 c5 and g7 f6 e5. Three men on one make a mill, and men move along them."
            ),
            (
                Step(
                    position("morris-12", white, (8, 8), w="b2 c3 f4 g4", b="d2 d6 a4 e3"),
                    N_("Close a mill on a diagonal line."),
                    closes_diagonal_mill,
                    N_("The diagonal a1, b2, c3 has its corner a1 empty."),
                    N_("A mill on a diagonal takes a man like any other mill."),
                    N_("That move closes no mill on a diagonal."),
                ),
                Step(
                    position(
                        "morris-12",
                        white,
                        (0, 0),
                        w="a4 a7 b2 e5 f4 g4",
                        b="d1 d5 f2 c4 g7",
                    ),
                    N_("Move a man along a diagonal line so that it closes a mill."),
                    moves_along_diagonal_into_mill,
                    N_("The man on b2 is a neighbour of a1 along the diagonal a1, b2, c3."),
                    N_(
                        "Men step along a diagonal as along any line: b2 is a neighbour of a1 "
                        "and of c3."
                    ),
                    N_("That move does not go along a diagonal into a mill."),
                ),
            ),
        ),
        Lesson(
            "lasker",
            N_("Moving while placing"),
            "morris-lasker",
            N_(
                "In Lasker Morris each player has ten men, and while you still have men in hand "
                "a turn may move one of your men to a neighbouring empty point instead of "
                "placing one."
            ),
            (
                Step(
                    position("morris-lasker", white, (7, 7), w="a1 a4 d7", b="b4 d2 f6"),
                    N_(
                        "Close the mill a1, a4, a7 by moving a man, and keep your men in hand "
                        "for later."
                    ),
                    moves_into_mill,
                    N_("The man on d7 is a neighbour of a7."),
                    N_(
                        "A mill closed by moving takes a man just as one closed by placing, and "
                        "your hand still holds seven men."
                    ),
                    N_("That move does not move a man into a mill."),
                ),
            ),
        ),
        Lesson(
            "marked",
            N_("Marked points"),
            "cheng-san-qi",
            N_(
                "In Cheng San Qi a man taken while placing leaves the game, but his point stays "
                "marked: no man may be placed there until the last man is placed."
            ),
            (
                Step(
                    position(
                        "cheng-san-qi",
                        white,
                        (3, 3),
                        marked="a7",
                        w="a1 a4 g1 c3 d3 e3",
                        b="d2 f4 b6 d6 g7",
                    ),
                    N_("Black's man on a7 was taken while placing, so a7 is marked. Close a mill."),
                    closes_mill,
                    N_("a7 is blocked until placing ends; the line a1, d1, g1 has d1 empty."),
                    N_(
                        "The man your mill takes leaves his point marked in turn, blocked until "
                        "the last man is placed."
                    ),
                    N_("That move closes no mill."),
                ),
            ),
        ),
        Lesson(
            "each-mill",
            N_("A man for each mill"),
            "da-san-qi",
            N_(
                "In Da San Qi a move that closes two mills at once takes two men: the first with "
                "the move, the second on a turn of its own, straight after it."
            ),
            (
                Step(
                    position(
                        "da-san-qi",
                        white,
                        (6, 6),
                        w="a4 a7 b2 c3 f4 g4",
                        b="d2 d5 d6 g1 c4 b4",
                    ),
                    N_("Place a man that closes two mills at once."),
                    closes_two_mills,
                    N_(
                        "a1 is the empty point of both the line a1, a4, a7 and the diagonal "
                        "a1, b2, c3."
                    ),
                    N_("Two mills: this move takes one man, your next turn the other."),
                    N_("That move does not close two mills."),
                ),
                Step(
                    position(
                        "da-san-qi",
                        white,
                        (5, 6),
                        due=(1, 0),
                        marked="d2",
                        w="a1 a4 a7 b2 c3 f4 g4",
                        b="d5 d6 g1 c4 b4",
                    ),
                    N_(
                        "Your man on a1 closed two mills and took the man on d2. Take the second "
                        "man, a turn of its own: a man of Black's line of two whose third point is "
                        "empty."
                    ),
                    removes_threat,
                    N_("Black has two men on the line d5, d6, d7 with d7 empty: take one of them."),
                    N_(
                        "A turn that only takes a man is written alone, like xd6; then Black plays."
                    ),
                    N_("That man is not in Black's threatening line."),
                ),
            ),
        ),
        Lesson(
            "hand",
            N_("Removal from the hand"),
            "dooz",
            N_(
                "In Dooz a mill closed while placing takes a man from your opponent's hand, not "
                "from the board, while they hold any; once their hand is empty, from the board."
            ),
            (
                Step(
                    position("dooz", white, (8, 8), w="a1 a4 d3 f4", b="d2 e5 b6 g1"),
                    N_("Close a mill, and see where the man it takes comes from."),
                    takes_from_hand,
                    N_("The line a1, a4, a7 has a7 empty."),
                    N_("Black's hand holds one man fewer, and the board keeps all of Black's men."),
                    N_("That move takes no man from Black's hand."),
                ),
                Step(
                    position(
                        "dooz",
                        white,
                        (2, 0),
                        w="a1 a4 c3 d3 f2 e4 b6 d7",
                        b="g1 g4 d2 d6 c5 f6 b4 e3 b2",
                    ),
                    N_(
                        "Black's hand is empty, so your mill takes a man from the board. Close "
                        "it and take a man of Black's line of two whose third point is empty."
                    ),
                    removes_threat,
                    N_("a7 closes your mill; Black has two men on g1, g4 with g7 empty."),
                    N_("With the hand empty, a mill takes from the board as in Nine Men's Morris."),
                    N_("That move does not take a man out of Black's threatening line."),
                ),
            ),
        ),
        Lesson(
            "mill-counts",
            N_("Removals by mill counts"),
            "el-filja",
            N_(
                "In El Filja each player places twelve men, so the board fills up. A mill closed "
                "while placing takes nothing; when placing ends, each player removes men by the "
                "mills on the board."
            ),
            (
                Step(
                    position("el-filja", white, (8, 8), w="a1 a4 d3 f4", b="d2 e5 b6 g1"),
                    N_("Close a mill: it takes nothing now, but it will count when placing ends."),
                    fills_mill,
                    N_("The line a1, a4, a7 has a7 empty."),
                    N_(
                        "When placing ends, if nobody has a mill, each player removes one of "
                        "their own men; if only one has mills, they remove two enemy men and the "
                        "other one; else each removes as many as the fewer mills, and the one "
                        "with more mills one more."
                    ),
                    N_("That move closes no mill."),
                ),
            ),
        ),
        Lesson(
            "one-time",
            N_("One-time mills"),
            "one-time-mill",
            N_(
                "In One-Time Mill a mill takes a man only once: closed again on points where you "
                "closed mills before, it takes nothing."
            ),
            (
                Step(
                    position(
                        "one-time-mill",
                        white,
                        (0, 0),
                        used=("a1 a4 a7", ""),
                        w="a1 a4 d7 g1 g4 c3",
                        b="b4 d2 f2 e5 c5 f6",
                    ),
                    N_(
                        "Your mill a1, a4, a7 has taken its man already, and you moved out of it "
                        "to d7. Close a mill that takes a man."
                    ),
                    closes_mill,
                    N_("The line g1, g4, g7 has never been a mill of yours."),
                    N_("A new mill takes a man; the old one, closed again, would take nothing."),
                    N_("That move takes no man."),
                ),
            ),
        ),
    )

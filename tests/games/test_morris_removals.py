"""Removals as turns of their own (``xg7``) and the rule sets that need them: Zhi Qi, Da San Qi,
El Filja and Dooz (docs/rules.md), in hand-checked positions and against the second
implementation (checks/morris_reference.py) from positions where removals are due."""

from __future__ import annotations

import pytest

from checks import morris_reference as ref
from ludoteca import Color, IllegalMoveError, InvalidMoveError, InvalidPositionError, Termination
from ludoteca.games.morris import Morris
from ludoteca.games.morris.board import NINE, TWELVE, MorrisBoard
from ludoteca.games.morris.rules import MorrisMove, MorrisState, mill_count_removals
from ludoteca.perft import perft


def code(
    board: MorrisBoard,
    white: str,
    black: str,
    side: str,
    hands: tuple[int, int] = (0, 0),
    extra: str = "",
    quiet: int = 0,
    ply: int = 24,
    marked: str = "",
) -> str:
    """A position code from the points of each side (space-separated)."""
    chars = {p: "W" for p in white.split()} | {p: "B" for p in black.split()}
    chars |= {p: "X" for p in marked.split()}
    rows = "/".join("".join(chars.get(board.points[p], ".") for p in row) for row in board.rows)
    fields = [rows, side, str(hands[0]), str(hands[1]), *extra.split(), str(quiet), str(ply)]
    return " ".join(fields)


def state_of(rules: str, text: str) -> MorrisState:
    state = Morris.of(rules).from_position_code(text)
    assert isinstance(state, MorrisState)
    return state


def reference_of(state: MorrisState) -> ref.Position:
    """The reference's position for ``state`` (a fresh history)."""
    names = state.board.points
    occupant = {
        names[p]: "WB"[c] for c in (0, 1) for p in range(state.board.size) if state.men[c] >> p & 1
    }
    occupant |= {names[p]: ref.MARK for p in range(state.board.size) if state.marked >> p & 1}
    pos = ref.Position(
        str(state.rules),
        occupant,
        {"W": state.hand[0], "B": state.hand[1]},
        "W" if turn(state) is Color.WHITE else "B",
        state.quiet,
        due={"W": state.due[0], "B": state.due[1]},
        closing=state.closing,
    )
    pos.seen[pos.key()] += 1
    return pos


def moves(state: MorrisState) -> list[str]:
    return sorted(str(m) for m in morris_moves(state))


def morris_moves(state: MorrisState) -> list[MorrisMove]:
    return [state.move_of(code) for code in state.legal_codes()]


def turn(state: MorrisState) -> Color:
    """The side to move (a call, so that a type checker does not narrow it between moves)."""
    return state.turn


# --- a twelve-men board filled without a mill (the last man, Black's, still to be placed on g7)
FULL_W = "a7 b2 b6 c4 d1 d3 d5 d6 e5 f2 f4 g4"
FULL_B = "a1 a4 b4 c3 c5 d2 d7 e3 e4 f6 g1"
BEFORE_FULL = code(TWELVE, FULL_W, FULL_B, "b", (0, 1), ply=23)


def test_mill_count_removals_follow_sanmills_counts() -> None:
    assert mill_count_removals(0, 0) == (-1, -1)  # each removes one of their own
    assert mill_count_removals(2, 0) == (2, 1)
    assert mill_count_removals(0, 3) == (1, 2)
    assert mill_count_removals(2, 2) == (2, 2)
    assert mill_count_removals(3, 1) == (2, 1)  # the smaller count, one more for the larger
    assert mill_count_removals(1, 4) == (1, 2)


def test_a_removal_alone_is_written_and_read() -> None:
    move = MorrisMove.parse("xg7", TWELVE.key)
    assert move.removal_only and move.src is None and move.dst == move.remove
    assert str(move) == "xg7"
    assert str(MorrisMove.parse("d6xg7", TWELVE.key)) == "d6xg7"
    assert not MorrisMove.parse("d6xg7", TWELVE.key).removal_only
    with pytest.raises(InvalidMoveError):
        MorrisMove.parse("x", TWELVE.key)
    with pytest.raises(InvalidMoveError):
        MorrisMove.parse("xz9", TWELVE.key)


# --- Da San Qi: several removals for one move, the defender moves first, a full board loses ---
#: White to place on a1, closing a1 d1 g1 and a1 a4 a7 at once (the diagonal a1 b2 c3 not)
DOUBLE = code(TWELVE, "d1 g1 a4 a7", "b6 d6 f6 c3", "w", (8, 8), ply=8)


def test_a_double_mill_takes_two_men_the_second_alone() -> None:
    state = state_of("da-san-qi", DOUBLE)
    first = [m for m in moves(state) if m.startswith("a1")]
    assert first == sorted(f"a1x{p}" for p in "b6 d6 f6 c3".split())
    state.push("a1xd6")
    assert turn(state) is Color.WHITE and state.due == [1, 0]
    assert moves(state) == sorted(f"x{p}" for p in "b6 f6 c3".split())
    assert state.position_code().split()[4] == "x1/0"
    with pytest.raises(IllegalMoveError):
        state.push("b4")  # the removal comes first
    state.push("xf6")
    assert turn(state) is Color.BLACK and state.due == [0, 0]
    names = TWELVE.points
    assert {names[p] for p in range(24) if state.marked >> p & 1} == {"d6", "f6"}
    state.pop()
    state.pop()
    assert state.position_code() == DOUBLE


def test_a_single_mill_takes_one_man() -> None:
    state = state_of("da-san-qi", code(TWELVE, "d1 g1 a7", "b6 d6 c3", "w", (9, 9), ply=6))
    state.push("a1xd6")
    assert turn(state) is Color.BLACK and state.due == [0, 0]


def test_the_second_player_moves_first_once_placing_ends() -> None:
    white = "a7 b2 b6 c4 d1 d3 d5 d6 e5 f2 f4"
    state = state_of("da-san-qi", code(TWELVE, white, FULL_B, "b", (0, 1), ply=23))
    state.push("g4")  # Black places the last man, White's g4 point
    assert turn(state) is Color.BLACK  # and moves first
    assert all(m.src is not None for m in morris_moves(state))


#: Black's last man, on g7, closes g7 d7 a7 and g7 g4 g1
LAST_DOUBLE = code(
    TWELVE,
    "b6 b2 c4 d1 d3 d5 d6 e5 f2 f4 c3 e3",
    "a7 d7 g4 g1 a1 a4 b4 c5 d2 e4 f6",
    "b",
    (0, 1),
    ply=23,
)


def test_a_double_mill_with_the_last_man_then_the_defender_moves() -> None:
    state = state_of("da-san-qi", LAST_DOUBLE)
    state.push("g7xb6")
    assert turn(state) is Color.BLACK and state.due == [0, 1] and state.closing
    assert state.position_code().split()[4] == "x0/1+"
    again = state_of("da-san-qi", state.position_code())
    assert again.position_code() == state.position_code() and again.closing
    state.push("xb2")
    assert turn(state) is Color.BLACK and not state.closing and not state.marked
    assert all(m.src is not None for m in morris_moves(state))  # Black moves first


def test_da_san_qi_full_board_loses_for_the_first_player() -> None:
    state = state_of("da-san-qi", BEFORE_FULL)
    assert moves(state) == ["g7"]
    state.push("g7")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.FULL_BOARD, Color.BLACK)


# --- Zhi Qi: a full board, each player removes a man -------------------------------------------
def test_zhi_qi_full_board_each_player_removes_then_white_moves() -> None:
    state = state_of("zhi-qi", BEFORE_FULL)
    state.push("g7")
    assert turn(state) is Color.WHITE and state.due == [1, 1]
    assert moves(state) == sorted(f"x{p}" for p in (*FULL_B.split(), "g7"))
    state.push("xg7")
    assert turn(state) is Color.BLACK and state.due == [0, 1]
    assert moves(state) == sorted(f"x{p}" for p in FULL_W.split())
    state.push("xa7")
    assert turn(state) is Color.WHITE and state.due == [0, 0]
    assert state.outcome() is None
    # a7 and g7 are empty: White's b6 (on the diagonal) and g4 are next to them, no flying
    assert moves(state) == ["b6-a7", "g4-g7"]


def test_zhi_qi_full_board_perft_against_the_reference() -> None:
    state = state_of("zhi-qi", BEFORE_FULL)
    assert perft(state, 2) == 12
    assert perft(state, 3) == 12 * 12
    for depth in (3, 4):
        assert perft(state, depth) == ref.perft(reference_of(state), depth)


# --- Dooz: a mill while placing takes from the hand; a full board, White removes a man ---------
def test_dooz_mill_while_placing_takes_from_the_hand() -> None:
    state = state_of("dooz", code(TWELVE, "d1 g1", "b6 d6", "w", (10, 10), ply=4))
    assert "a1" in moves(state) and not any(m.startswith("a1x") for m in moves(state))
    state.push("a1")
    assert state.hand == [9, 9] and turn(state) is Color.BLACK
    assert state.men[1].bit_count() == 2
    state.pop()
    assert state.hand == [10, 10]


def test_dooz_mill_takes_from_the_board_once_the_hand_is_empty() -> None:
    state = state_of("dooz", code(TWELVE, "d1 g1", "b6 d6 f2 c5", "w", (5, 0), ply=20))
    assert [m for m in moves(state) if m.startswith("a1")] == sorted(
        f"a1x{p}" for p in "b6 d6 f2 c5".split()
    )


def test_dooz_a_side_moves_while_the_other_places() -> None:
    text = code(TWELVE, "d1 g1 a7 c5", "b6 d6 f2", "b", (3, 0), quiet=2, ply=30)
    state = state_of("dooz", text)
    assert state.position_code() == text
    assert all(m.src is not None for m in morris_moves(state))  # Black has none in hand
    state.push(next(m for m in morris_moves(state) if m.remove is None))
    assert turn(state) is Color.WHITE and all(m.src is None for m in morris_moves(state))


def test_dooz_full_board_white_removes_then_black_moves() -> None:
    state = state_of("dooz", BEFORE_FULL)
    state.push("g7")
    assert turn(state) is Color.WHITE and state.due == [1, 0]
    assert state.position_code().split()[4] == "x1/0"
    assert moves(state) == sorted(f"x{p}" for p in (*FULL_B.split(), "g7"))
    state.push("xa1")
    assert turn(state) is Color.BLACK and state.due == [0, 0]
    # a1 is empty: Black's men next to it are a4 (and c3, b2 is White's on the diagonal)
    assert moves(state) == ["a4-a1"]
    assert perft(state_of("dooz", BEFORE_FULL), 3) == ref.perft(
        reference_of(state_of("dooz", BEFORE_FULL)), 3
    )


# --- El Filja: removals by mill counts when placing ends ---------------------------------------
def test_el_filja_mills_take_nothing_while_placing() -> None:
    state = state_of("el-filja", code(NINE, "d1 g1", "b6 d6", "w", (10, 10), ply=4))
    assert "a1" in moves(state) and not any("x" in m for m in moves(state))


FILJA_WHITE = "a7 b4 b6 c5 d2 d3 d7 e3 e4 f2 f6 g1"
FILJA_BLACK = "a1 a4 b2 c3 c4 d1 d5 d6 e5 f4 g4"
#: El Filja's board full without a mill but for Black's last man, on g7 (no mill either)
FILJA_NO_MILLS = code(NINE, FILJA_WHITE, FILJA_BLACK, "b", (0, 1), ply=23)


def test_el_filja_without_mills_each_removes_one_of_their_own() -> None:
    white, black = FILJA_WHITE, FILJA_BLACK
    state = state_of("el-filja", FILJA_NO_MILLS)
    state.push("g7")
    assert turn(state) is Color.WHITE and state.due == [-1, -1]
    assert state.position_code().split()[4] == "x-1/-1"
    assert moves(state) == sorted(f"x{p}" for p in white.split())  # White's own men
    state.push("xa7")
    assert turn(state) is Color.BLACK and moves(state) == sorted(
        f"x{p}" for p in (*black.split(), "g7")
    )
    state.push("xg7")
    assert turn(state) is Color.WHITE and state.men[0].bit_count() == state.men[1].bit_count() == 11


@pytest.mark.parametrize(
    ("white", "black", "last", "due"),
    [
        # White's mill e4 f4 g4, Black none: White removes 2, Black 1
        ("a4 a7 b4 c3 d1 d5 d6 e4 f2 f4 g4 g7", "a1 b2 b6 c4 c5 d2 d3 d7 e3 e5 f6", "g1", (2, 1)),
        # White's a1 d1 g1 and d1 d2 d3 against Black's c5 d5 e5: the smaller count, one more
        ("a1 b4 b6 c4 d1 d2 d3 d7 e3 f4 g1 g4", "a4 a7 b2 c3 c5 d5 d6 e4 e5 f2 f6", "g7", (2, 1)),
    ],
)
def test_el_filja_removals_by_mill_counts(
    white: str, black: str, last: str, due: tuple[int, int]
) -> None:
    state = state_of("el-filja", code(NINE, white, black, "b", (0, 1), ply=23))
    state.push(last)
    assert turn(state) is Color.WHITE and tuple(state.due) == due
    for depth in (1, 2, 3):
        assert perft(state, depth) == ref.perft(reference_of(state), depth)


# --- position codes ----------------------------------------------------------------------------
def test_removals_due_in_position_codes() -> None:
    text = code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x1/1")
    assert state_of("zhi-qi", text).position_code() == text
    bad = {
        code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x-1/1"): "own men",
        code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x0/1"): "side to move",
        code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x1/1+"): "several men",
        code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="xa/1"): "xWHITE/BLACK",
        code(TWELVE, "b2 d6 f2", FULL_B + " g7", "w", extra="x1/4"): r"on the board \(3\)",
    }
    for text, words in bad.items():
        with pytest.raises(InvalidPositionError, match=words):
            state_of("zhi-qi", text)
    # a rule set without removals due reads the field as one field too many
    with pytest.raises(InvalidPositionError, match="6 fields"):
        state_of("morris-12", code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x1/1"))


def test_removals_due_are_part_of_the_position_key() -> None:
    text = code(TWELVE, FULL_W, FULL_B + " g7", "w")
    assert (
        state_of("zhi-qi", text).position_key()
        != state_of(
            "zhi-qi", code(TWELVE, FULL_W, FULL_B + " g7", "w", extra="x1/1")
        ).position_key()
    )


def test_why_a_move_is_illegal_with_removals_due() -> None:
    state = state_of("da-san-qi", DOUBLE)
    state.push("a1xd6")
    assert "must first remove" in state.why_illegal(state.read_move("b4"), state.legal_codes())
    assert "no Black man" in state.why_illegal(state.read_move("xa4"), state.legal_codes())
    fresh = state_of("da-san-qi", DOUBLE)
    assert "only when removals are due" in fresh.why_illegal(
        fresh.read_move("xa1"), fresh.legal_codes()
    )

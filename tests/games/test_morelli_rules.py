"""Every rule and worked example of Morelli (docs/rules.md), and a differential test of moves."""

from __future__ import annotations

import random

import pytest

import ludoteca
from checks import morelli_reference as ref
from ludoteca import (
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    Termination,
    record,
)
from ludoteca.cli import main
from ludoteca.games.morelli.board import frames
from ludoteca.games.morelli.rules import Morelli, MorelliState
from ludoteca.perft import perft_counts

SETUP = "BBBBBBBBBBBBBWWWWWWWWWWWWWWWWWWWWWWWWBBBBBBBBBBB"
LETTERS = "ABCDEFGHIJKLM"


def xy(name: str) -> tuple[int, int]:
    return LETTERS.index(name[0]), int(name[1:]) - 1


def red_squares(n: int = 13) -> list[tuple[int, int]]:
    return [
        (x, y)
        for x in range(n)
        for y in range(n)
        if max(abs(x - n // 2), abs(y - n // 2)) == n // 2
    ]


def position(
    black: str, white: str, turn: str = "b", king: str = "-", ply: int | None = None
) -> MorelliState:
    """A 13x13 position with these stones; the other red squares are filled in opposite pairs
    (Black on the lower-left of each pair) until there are 48 stones."""
    stones = {xy(s): "b" for s in black.split()} | {xy(s): "w" for s in white.split()}
    for x, y in red_squares():
        if len(stones) >= 48:
            break
        other = (12 - x, 12 - y)
        if (x, y) not in stones and other not in stones and (x, y) < other:
            stones[(x, y)] = "b"
            if len(stones) < 48:
                stones[other] = "w"
    rows = "/".join("".join(stones.get((x, y), ".") for x in range(13)) for y in range(12, -1, -1))
    if ply is None:
        ply = 20 if turn == "b" else 21
    return Morelli.of().from_position_code(f"{rows} {turn} {king} {ply}")


def targets(state: ludoteca.State, square: str) -> set[str]:
    return {str(m).split("-")[1] for m in state.legal_moves if str(m).startswith(square + "-")}


def test_setup_facts_on_random_setups() -> None:
    corners = {"A1", "A13", "M1", "M13"}
    mids = {"A7", "G13", "M7", "G1"}
    for seed in range(60):
        state = Morelli.of().new(seed=seed)
        assert state.turn is Color.BLACK and state.king == 0
        assert state.legal_moves.count() == 480
        black = {s for s in corners | mids if state.board[xy(s)[1] * 13 + xy(s)[0]] == 1}
        assert len(black & corners) == 2 and len(black & mids) == 2
    assert Morelli.of().new(seed=5).setup == Morelli.of().new(seed=5).setup


def test_setup_string_order() -> None:
    state = Morelli.of().new(setup=SETUP)
    column_a = [state.board[y * 13] for y in range(13)]
    assert column_a == [1] * 13  # A1..A13 are the first 13 letters
    assert state.board[13 * 12 + 1] == 2  # B13 is the 14th letter
    assert state.board[12] == 2 and state.board[11] == 1  # M1 is W (letter 37), L1 is B (38)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (SETUP[:-1], "48 letters"),
        (SETUP.replace("B", "X", 1), "48 letters"),
        ("B" * 48, "pair rule: A1 and M13"),
        (SETUP[:13] + "B" + SETUP[14:], "pair rule: B13 and L1"),
    ],
)
def test_bad_setups(setup: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Morelli.of().new(setup=setup)


def test_worked_example_1_a5() -> None:
    state = Morelli.of().new(setup=SETUP)
    expected = {f"{c}5" for c in "BCDEFGHIJKL"} | {
        "B6",
        "C7",
        "D8",
        "E9",
        "F10",
        "G11",
        "H12",
        "B4",
        "C3",
        "D2",
    }
    assert targets(state, "A5") == expected and len(expected) == 21


def test_worked_example_2_three_conversions() -> None:
    state = position("C5 E7 G3 E1", "D5 E6 F4")
    state.push("E1-E5")
    for square in ("D5", "E6", "F4"):
        x, y = xy(square)
        assert state.board[y * 13 + x] == 1, square


def test_worked_example_3_moving_into_a_sandwich_is_safe() -> None:
    state = position("D4 F6", "E1", turn="w")
    state.push("E1-E5")
    assert state.board[xy("D4")[1] * 13 + 3] == 1 and state.board[5 * 13 + 5] == 1
    assert state.board[4 * 13 + 4] == 2


def test_worked_example_4_king_blocks_the_line() -> None:
    start = Morelli.of().new(setup=SETUP)
    assert len(targets(start, "A7")) == 20
    crowned = Morelli.of().from_position_code(start.position_code().replace(" b - 0", " b b 10"))
    assert len(targets(crowned, "A7")) == 15
    assert "H7" in targets(start, "A7") and "H7" not in targets(crowned, "A7")
    with pytest.raises(IllegalMoveError, match="King on the Throne blocks"):
        crowned.push("A7-H7")


def test_worked_example_5_a_rectangle_is_not_a_frame() -> None:
    state = position("C5 K5 C9 M11", "")
    state.push("M11-K9")
    assert state.king == 0


def test_frame_geometry() -> None:
    for n, count in ((13, 30), (11, 20), (9, 12)):
        found = frames(n)
        assert len(found) == count
        c = n - 1
        for frame in found:
            squares = {(s % n, s // n) for s in frame}
            assert len(squares) == 4
            assert {(c - y, x) for x, y in squares} == squares  # closed under a 90° turn
            assert all(0 < max(abs(x - c // 2), abs(y - c // 2)) < c // 2 for x, y in squares)


@pytest.mark.parametrize(
    ("dx", "dy"), [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
)
def test_capture_in_each_direction(dx: int, dy: int) -> None:
    # Black moves from the red edge to E4 (4, 3), up column E or, when that path is taken by
    # the sandwich, along row 4
    tx, ty = 4, 3
    near = f"{LETTERS[tx + dx]}{ty + dy + 1}"
    far = f"{LETTERS[tx + 2 * dx]}{ty + 2 * dy + 1}"
    origin = "A4" if (dx, dy) == (0, -1) else "E1"
    state = position(f"{far} {origin}", near)
    state.push(f"{origin}-E4")
    assert state.board[(ty + dy) * 13 + tx + dx] == 1


def test_several_captures_no_chains_no_x_o_o_x() -> None:
    # E5 flanks D5 (C5 black) and F4 (G3 black) but not E6-E7 (two white stones before E8);
    # the converted D5 would flank C6 against B7, but converted stones do not capture
    state = position("C5 E8 G3 E1 B7", "D5 E6 E7 F4 C6")
    state.push("E1-E5")
    colour = {sq: state.board[xy(sq)[1] * 13 + xy(sq)[0]] for sq in ("D5", "E6", "E7", "F4", "C6")}
    assert colour == {"D5": 1, "E6": 2, "E7": 2, "F4": 1, "C6": 2}


def test_only_the_moved_stone_captures() -> None:
    # White D5 already sits between Black C5 and E5 before the move: it is not taken
    state = position("C5 E5 A3", "D5")
    state.push("A3-B3")
    assert state.board[4 * 13 + 3] == 2


def test_the_throne_and_king_never_take_part_in_captures() -> None:
    # Black lands on G9 with White on G8 and the (Black) King beyond on G7: no capture
    state = position("G13", "G8", king="b")
    state.push("G13-G9")
    assert state.board[7 * 13 + 6] == 2


def test_frame_completion_and_the_throne_changing_hands() -> None:
    state = position("E5 I5 I9 A13", "G6 H7 G8 A7")
    state.push("A13-E9")
    assert state.king == 1  # Black completes the square E5 I5 I9 E9
    state.push("A7-F7")
    assert state.king == 2  # White completes the diamond G6 H7 G8 F7 and replaces the King
    state.pop()
    assert state.king == 1
    state.pop()
    assert state.king == 0


def test_frame_completed_by_a_conversion() -> None:
    # Black moves to J5 converting I5; E5 I5 I9 E9 then all black: the conversion completes it
    state = position("E5 I9 E9 H5 M1", "I5")
    state.push("M1-J4")
    assert state.king == 0
    state = position("E5 I9 E9 H5 J1", "I5")
    state.push("J1-J5")
    assert state.board[4 * 13 + 8] == 1 and state.king == 1


def test_standing_frames_do_nothing_and_breaking_keeps_the_king() -> None:
    state = position("E5 I5 I9 E9 A2", "", king="w")
    state.push("A2-B2")
    assert state.king == 2  # the untouched frame does not crown Black
    state = position("E5 I5 I9 A13", "F9 A12", king="-")
    state.push("A13-E9")
    assert state.king == 1
    state.push("A12-D9")  # White D9 and F9 flank E9, which turns White: the frame breaks
    assert state.board[8 * 13 + 4] == 2
    assert state.king == 1


def test_moves_that_break_the_rules() -> None:
    state = Morelli.of().new(setup=SETUP)
    before = state.position_code()
    with pytest.raises(IllegalMoveError, match="land on the Throne"):
        state.push("A1-G7")
    with pytest.raises(IllegalMoveError, match="no stone on M5"):
        state.push("M5-L5")
    with pytest.raises(IllegalMoveError, match="not along a row"):
        state.push("A5-C6")
    with pytest.raises(InvalidMoveError, match="off the 13"):
        state.push("A14-B13")
    with pytest.raises(InvalidMoveError):
        state.push("A5L5")
    assert state.position_code() == before and not state.move_stack


def test_not_inward_is_rejected() -> None:
    state = position("E5 A1", "M13")
    with pytest.raises(IllegalMoveError, match="closer to the Throne"):
        state.push("E5-C3")
    assert "E5-F6" in {str(m) for m in state.legal_moves}


def test_indigo_stones_never_move() -> None:
    state = position("F6", "")
    assert targets(state, "F6") == set()


def test_end_of_game_results() -> None:
    seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = Morelli.of().new(seed=seed)
        while state.legal_codes():
            state.push_code(rng.choice(state.legal_codes()))
        outcome = state.outcome()
        assert outcome is not None and state.ply <= 176
        if state.king:
            assert outcome.termination is Termination.THRONE
            assert outcome.winner is (Color.BLACK if state.king == 1 else Color.WHITE)
        else:
            assert (outcome.termination, outcome.winner) == (Termination.VACANT_THRONE, None)
        seen.add((outcome.termination, outcome.winner))
    assert len(seen) == 3


def test_position_code_checks() -> None:
    state = Morelli.of().new(setup=SETUP)
    code = state.position_code()
    assert Morelli.of().from_position_code(code).position_code() == code
    rows, rest = code.split(" ", 1)
    bad = [
        (rows[:-1] + " " + rest, "13 rows of 13"),
        (rows.replace(".", "b", 1) + " " + rest, "48 stones"),
        (rows.replace("b", ".", 1) + " " + rest, "48 stones"),
        (code.replace(" b - 0", " w - 0"), "Black moves first"),
        (code.replace(" b - 0", " b x 0"), "King"),
        (code.replace(" b - 0", " b - zero"), "number"),
        ("x " + rest, "13 rows"),
    ]
    centre = list(rows)
    centre[6 * 14 + 6] = "b"
    centre[0] = "."
    bad.append(("".join(centre) + " " + rest, "Throne"))
    for text, reason in bad:
        with pytest.raises(InvalidPositionError, match=reason):
            Morelli.of().from_position_code(text)


def test_annotations_are_checked() -> None:
    state = position("C5 E7 G3 E1", "D5 E6 F4")
    assert str(state.parse_move("E1-E5x3")) == "E1-E5"
    with pytest.raises(IllegalMoveError, match="says 2 conversion"):
        state.parse_move("E1-E5x2")
    with pytest.raises(IllegalMoveError, match="does not seat a King"):
        state.parse_move("E1-E5K")
    crown = position("E5 I5 I9 A13", "")
    assert str(crown.parse_move("a13-e9K")) == "A13-E9"
    game = record.loads(
        f'[Game "morelli"]\n[Position "{crown.position_code()}"]\n\n11. A13-E9 K *\n'
    )
    assert game.state.king == 1
    with pytest.raises(InvalidRecordError, match="does not seat a King"):
        record.loads(f'[Game "morelli"]\n[Position "{state.position_code()}"]\n\n11. E1-E5 K *\n')


def test_records_keep_the_setup() -> None:
    state = Morelli.of().new(seed=11)
    for _ in range(6):
        state.push(state.legal_moves[0])
    text = record.dumps(state)
    assert f'[Setup "{state.setup}"]' in text
    assert record.loads(text).state.position_code() == state.position_code()
    flipped = "".join("W" if c == "B" else "B" for c in state.setup or "")
    with pytest.raises(InvalidRecordError, match="ply 1"):
        record.loads(text.replace(state.setup or "", flipped))
    with pytest.raises(InvalidRecordError, match="pair rule"):
        record.loads(text.replace(state.setup or "", "B" * 48))


@pytest.mark.parametrize("rules", ["morelli-11", "morelli-9"])
def test_smaller_boards(rules: str) -> None:
    state = Morelli.of(rules).new(seed=3)
    n = state.n
    assert len(state.setup or "") == 4 * (n - 1)
    assert sum(1 for v in state.board if v) == 4 * (n - 1)
    rng = random.Random(1)
    while state.legal_codes():
        state.push_code(rng.choice(state.legal_codes()))
    assert state.outcome() is not None
    assert record.loads(record.dumps(state)).state.position_code() == state.position_code()


def board_dict(state: MorelliState) -> dict[tuple[int, int], str]:
    return {(s % 13, s // 13): "BW"[v - 1] for s, v in enumerate(state.board) if v}


def test_perft_2_matches_an_independent_count(capsys: pytest.CaptureFixture[str]) -> None:
    board = board_dict(Morelli.of().new(setup=SETUP))
    first = ref.legal(board, "B", None)
    depth2 = sum(len(ref.legal(ref.play(board, move, None)[0], "W", None)) for move in first)
    assert main(["perft", "morelli", "2", "--setup", SETUP]) == 0
    assert capsys.readouterr().out == f"1 {len(first)}\n2 {depth2}\n"
    assert len(first) == 480


def test_move_lists_match_the_reference_in_random_games() -> None:
    compared = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = Morelli.of().new(seed=seed)
        board, king = board_dict(state), None
        while True:
            colour = "B" if state.turn is Color.BLACK else "W"
            expected = ref.legal(board, colour, king)
            ours = {
                ((m.src % 13, m.src // 13), (m.dst % 13, m.dst // 13))  # type: ignore
                for m in state.legal_moves
            }
            assert ours == expected
            compared += 1
            if not expected:
                break
            move = rng.choice(sorted(expected))
            board, king = ref.play(board, move, king)
            (x, y), (tx, ty) = move
            state.push_code((y * 13 + x) * 169 + ty * 13 + tx)
            assert board_dict(state) == board
            assert "-BW"[state.king] == (king or "-")
    assert compared > 500


def test_perft_command_checks_its_setup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "morelli", "1", "--setup", "B" * 48]) == 2
    assert "pair rule" in capsys.readouterr().err
    assert list(perft_counts(Morelli.of().new(setup=SETUP), 1)) == [(1, 480)]


def test_tactical_moves_are_the_capturing_legal_moves() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        state = Morelli.of().new(seed=seed)
        while codes := state.legal_codes():
            capturing = sorted(c for c in codes if state.conversions(c))
            assert state.tactical_moves() == capturing == sorted(state.tactical_codes(codes))
            state.push_code(rng.choice(codes))

"""Every rule of Felli (docs/rules.md) on hand-made positions, and a differential test of moves."""

from __future__ import annotations

import random

import pytest

import ludoteca
from checks import felli_reference as ref
from ludoteca import Color, IllegalMoveError, InvalidMoveError, InvalidPositionError, Termination
from ludoteca.games.felli.board import EDGES, POINTS
from ludoteca.games.felli.rules import Felli
from ludoteca.perft import perft

ROWS = ["a5 c5 e5", "b4 c4 d4", "c3", "b2 c2 d2", "a1 c1 e1"]


def position(
    pieces: str, turn: str = "w", rules: str | None = None, quiet: int = 0, ply: int = 20
) -> ludoteca.State:
    """Build a code by hand: ``pieces`` like "w:a1 b:c1 W:e5" (W/B: Mullahs)."""
    where = dict(reversed(item.split(":")) for item in pieces.split())
    rows = "/".join("".join(where.get(p, ".") for p in row.split()) for row in ROWS)
    return Felli.of(rules).from_position_code(f"{rows} {turn} {quiet} {ply}")


def moves(state: ludoteca.State) -> set[str]:
    return {str(m) for m in state.legal_moves}


def test_board() -> None:
    assert len(POINTS) == 13 and len(EDGES) == 20
    names = {frozenset((POINTS[a], POINTS[b])) for a, b in EDGES}
    assert frozenset(("a1", "b2")) in names and frozenset(("c3", "b4")) in names
    assert frozenset(("a1", "c2")) not in names and frozenset(("c1", "b2")) not in names
    assert names == {
        frozenset((line[i], line[i + 1])) for line in ref.LINES for i in range(len(line) - 1)
    }


def test_start_and_first_moves() -> None:
    state = ludoteca.new_game("felli")
    assert state.position_code() == "bbb/bbb/./www/www w 0 0"
    assert state.turn is Color.WHITE
    assert moves(state) == {"b2-c3", "c2-c3", "d2-c3"}
    replies = {"b2-c3": "d4xb2", "c2-c3": "c4xc2", "d2-c3": "b4xd2"}
    for first, reply in replies.items():
        assert moves(state.child(first)) == {reply}


def test_steps_go_any_direction_along_lines_only() -> None:
    state = position("w:c3 b:a5 b:e1")
    assert moves(state) == {"c3-b2", "c3-c2", "c3-d4", "c3-b4", "c3-c4", "c3-d2"}
    with pytest.raises(IllegalMoveError):
        state.push("c3-e5")
    state = position("w:a1 b:e5")
    assert moves(state) == {"a1-b2", "a1-c1"}
    with pytest.raises(InvalidMoveError, match="not on one line"):
        state.push("a1-c2")


def test_capture_is_optional_and_one_leap_in_the_basic_game() -> None:
    state = position("w:a1 b:b2 b:d4 b:c5")
    legal = moves(state)
    assert "a1xc3" in legal and "a1-c1" in legal
    with pytest.raises(IllegalMoveError, match="at most one leap"):
        state.push("a1xc3xe5")


def test_forced_capture_applies_to_every_piece() -> None:
    state = position("w:a1 w:e1 b:b2 b:c5", rules="felli:forced_capture")
    assert moves(state) == {"a1xc3"}
    with pytest.raises(IllegalMoveError, match="capture is compulsory"):
        state.push("e1-d2")
    assert moves(position("w:a1 w:e1 b:b2 b:c5")) >= {"a1xc3", "e1-d2", "e1-c1"}


def test_multi_capture_chain_lands_where_a_captured_piece_stood() -> None:
    state = position("w:a1 b:c1 b:c2 b:d2", rules="felli:multi_capture")
    assert "a1xe1xc3xc1" in moves(state)
    with pytest.raises(IllegalMoveError, match="must go on capturing"):
        state.push("a1xe1")
    state.push("a1xe1xc3xc1")
    assert state.position_code() == ".../..././.../.w. b 0 21"
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.ALL_CAPTURED, Color.WHITE)


def test_multi_capture_choice_among_continuations() -> None:
    state = position("w:c3 b:b4 b:c5 b:d4 b:c1", rules="felli:multi_capture")
    assert {m for m in moves(state) if "x" in m} == {"c3xa5xe5xc3", "c3xe5xa5xc3"}


def test_promotion_is_refused_mid_chain() -> None:
    state = position("w:c3 b:b4 b:c5 b:d4 b:c1", rules="felli-mullah")
    assert moves(state) == {"c3xa5xe5xc3", "c3xe5xa5xc3"}
    state.push("c3xa5xe5xc3")
    assert state.position_code() == ".../.../w/.../.b. b 0 21"  # still a man


def test_promotion_at_the_end_of_a_turn() -> None:
    state = position("w:b4 b:c1 b:d2", rules="felli-mullah")
    state.push("b4-a5")
    assert state.position_code().startswith("W..")
    state.pop()
    assert state.position_code().startswith("...") and state.board[7] == 1  # type: ignore[attr-defined]
    state = position("w:c3 b:b4 b:c1", rules="felli-mullah")
    state.push("c3xa5")
    assert state.position_code() == "W../..././.../.b. b 0 21"
    black = position("b:b2 w:c5 w:c4", turn="b", rules="felli-mullah")
    black.push("b2-a1")
    assert black.position_code().endswith("/B.. w 0 21")


def test_mullah_slides_along_a_whole_line() -> None:
    state = position("W:a1 b:e5 b:d2", rules="felli-mullah")
    assert moves(state) == {"a1-b2", "a1-c3", "a1-d4", "a1-c1", "a1-e1"}


def test_mullah_long_capture_through_the_centre() -> None:
    state = position("W:a1 b:d4 b:c2", rules="felli-mullah")
    assert moves(state) == {"a1xe5"}  # capture is compulsory; it passes b2 and c3
    state = position("W:a1 b:c3 b:c5", rules="felli-mullah")
    # any empty point beyond the captured piece; from e5 the chain must go on over c5
    assert moves(state) == {"a1xd4", "a1xe5xa5"}


def test_mullah_changes_line_between_leaps() -> None:
    state = position("W:a1 b:b2 b:c4 b:a5", rules="felli-mullah")
    # diagonal then vertical; diagonal then the middle line; or one leap to e5, where no
    # capture is left
    assert moves(state) == {"a1xc3xc5", "a1xd4xb4", "a1xe5"}


def test_mullahs_are_captured_like_men() -> None:
    state = position("b:c3 W:b2 w:e1", turn="b", rules="felli-mullah")
    assert moves(state) == {"c3xa1"}


def test_no_pieces_or_no_moves_loses() -> None:
    blocked = position("w:a1 b:b2 b:c1 b:c3 b:e1")
    outcome = blocked.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.NO_LEGAL_MOVES, Color.BLACK)
    state = position("w:c1 b:c2 b:a5", rules="felli")
    state.push("c1xc3")
    state.push("a5-b4")
    state.push("c3xa5")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    # Black's last man was taken: the ending says so, not that Black is shut in
    assert outcome.termination is Termination.ALL_CAPTURED
    assert outcome.explain() == "White wins: every man of the loser has been taken."


def test_threefold_repetition_and_move_rule() -> None:
    state = position("w:a1 b:e5")
    for word in ["a1-b2", "e5-d4", "b2-a1", "d4-e5"] * 2:
        assert state.outcome() is None
        state.push(word)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.THREEFOLD_REPETITION, None)
    state = position("w:a1 b:e5", quiet=99, ply=99, rules="felli:repetition=0")
    state.push("a1-b2")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_RULE


def test_promotion_and_capture_reset_the_move_rule() -> None:
    state = position("w:b4 b:c1 b:d2", rules="felli-mullah", quiet=50, ply=60)
    state.push("b4-a5")
    assert state.quiet == 0


@pytest.mark.parametrize("text", ["", "b2", "b2-c3-d4", "a2-b2", "b2--c3", "b2xc3-d4", "z9-a1"])
def test_malformed_moves(text: str) -> None:
    state = ludoteca.new_game("felli")
    with pytest.raises(InvalidMoveError):
        state.push(text)
    assert state.position_code() == "bbb/bbb/./www/www w 0 0"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("bbb/bbb/./www/www w 0", "4 fields"),
        ("bbb/bbb/./www/ww w 0 0", "5 rows"),
        ("bbb/bbb/./www/wwz w 0 0", "unknown board character"),
        ("bbb/bbb/w/www/www w 0 0", "more than six"),
        ("bbb/bbb/./www/www n 0 0", "side to move"),
        ("bbb/bbb/./www/www w 5 2", "between 0 and the ply"),
        ("Wbb/bbb/./www/ww. w 0 0", "has no Mullahs"),
        ("b../..././.../... b 0 9", "no piece left"),
    ],
)
def test_bad_codes(code: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Felli.of().from_position_code(code)


def test_promotion_corner_man_is_rejected_with_mullahs() -> None:
    with pytest.raises(InvalidPositionError, match="already be a Mullah"):
        Felli.of("felli-mullah").from_position_code("w.b/..././.../... b 0 9")


RULE_SETS = [
    "felli",
    "felli:forced_capture",
    "felli:multi_capture",
    "felli:forced_capture,multi_capture",
    "felli-mullah",
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_move_lists_match_the_reference_implementation(rules: str) -> None:
    compared = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = ludoteca.new_game("felli", rules=rules)
        while state.legal_codes():
            board = {POINTS[p]: ".wb..WB"[v].replace(".", "") for p, v in enumerate(state.board)}  # type: ignore[attr-defined]
            side = "w" if state.turn is Color.WHITE else "b"
            expected = ref.legal(
                board, side, bool(state.rules["forced_capture"]), bool(state.rules["multi_capture"])
            )
            assert moves(state) == expected, state.position_code()
            compared += 1
            state.push_code(rng.choice(state.legal_codes()))
    assert compared > 1000


def reference_perft(board: dict[str, str], side: str, depth: int, forced: bool, multi: bool) -> int:
    """Perft with the reference move generator and its own move execution (men only)."""
    moves = ref.legal(board, side, forced, multi)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        after = ref.play(board, move, mullahs=False)
        total += reference_perft(after, "b" if side == "w" else "w", depth - 1, forced, multi)
    return total


@pytest.mark.parametrize("rules", RULE_SETS[:4])
def test_perft_matches_the_reference(rules: str) -> None:
    state = ludoteca.new_game("felli", rules=rules)
    board = {p: "" for p in ref.POINTS}
    board.update({p: "w" for p in "a1 c1 e1 b2 c2 d2".split()})
    board.update({p: "b" for p in "b4 c4 d4 a5 c5 e5".split()})
    ours = [perft(state, d) for d in range(1, 8)]
    theirs = [
        reference_perft(
            board, "w", d, bool(state.rules["forced_capture"]), bool(state.rules["multi_capture"])
        )
        for d in range(1, 8)
    ]
    assert ours == theirs
    assert ours[:2] == [3, 3]

"""The game report's figures (ludoteca.study.report), against values worked out by hand from
the formulas in docs/ai.md."""

from __future__ import annotations

from typing import Any

import pytest

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.search import WIN
from ludoteca.study.report import PlyValue, analyse_ply, assess, judge, move_accuracy


def ply(white: int, turn: str, played: str | None, best: str | None, exact: bool = False) -> Any:
    return PlyValue(white, exact, turn, best, [best] if best else [], [], played, [])


def test_accuracy_follows_the_drop_in_expected_score() -> None:
    # 103.1668 e^(-0.04354 d) - 3.1669 for a loss of d percentage points
    assert move_accuracy(0.0) == pytest.approx(99.9999)
    assert move_accuracy(0.10) == pytest.approx(63.58, abs=0.01)  # e^-0.4354 = 0.64705
    assert move_accuracy(1.0) == 0.0  # 103.1668 * 0.01285 - 3.1669 < 0: clamped


@pytest.mark.parametrize(
    ("loss", "judgement"),
    [(0.0, None), (0.099, None), (0.10, "inaccuracy"), (0.15, "mistake"), (0.30, "blunder")],
)
def test_judgements_by_the_loss(loss: float, judgement: str | None) -> None:
    before, after = ply(0, "white", "a", "b"), ply(-100, "black", None, "c")
    assert judge(before, after, loss) == judgement


def test_a_solved_win_turned_into_a_draw_is_a_blunder_whatever_the_loss() -> None:
    win = ply(WIN - 7, "white", "a", "b", exact=True)  # White wins in 7
    assert judge(win, ply(0, "black", None, "c", exact=True), 0.0) == "blunder"
    assert judge(win, ply(WIN - 9, "black", None, "c", exact=True), 0.0) is None  # slower win
    draw = ply(0, "black", "a", "b", exact=True)  # Black holds a draw, then loses
    assert judge(draw, ply(WIN - 4, "white", None, "c", exact=True), 0.0) == "blunder"


def test_moves_and_sides_are_assessed() -> None:
    plies = [
        ply(0, "white", "x", "y"),  # White's x (not the best move) ...
        ply(-400, "black", "z", "z"),  # ... leaves White 1/(1 + 10) = 0.0909: a loss of 0.4091
        ply(-400, "white", None, "w"),
    ]
    moves, sides = assess(plies)
    assert [(m.index, m.side, m.judgement) for m in moves] == [
        (0, "white", "blunder"),
        (1, "black", None),  # Black played the best move: no loss
    ]
    assert moves[0].loss == pytest.approx(0.4091, abs=1e-4)
    assert moves[1].loss == 0.0
    # 103.1668 e^(-0.04354 * 40.91) - 3.1669 = 103.1668 * 0.16841 - 3.1669 = 14.21
    assert sides["white"].accuracy == 14.2 and sides["white"].blunders == 1
    assert sides["black"].accuracy == 100.0
    assert (sides["black"].inaccuracies, sides["black"].mistakes, sides["black"].blunders) == (
        0,
        0,
        0,
    )


def test_a_move_that_gains_loses_nothing() -> None:
    moves, _ = assess([ply(0, "white", "x", "y"), ply(300, "black", None, "z")])
    assert moves[0].loss == 0.0 and moves[0].judgement is None


def test_a_position_is_analysed_with_the_move_played_from_it() -> None:
    state = ludoteca.new_game("morris")
    value = analyse_ply(state, state.parse_move("d6").code, Limit(depth=2))
    assert value.turn == "white" and value.played == "d6" and not value.exact
    assert value.best is not None and value.line[0] == value.best
    assert value.played_touches == [["to", state.board.points.index("d6")]]  # a man placed
    over = ludoteca.load("felli").from_position_code(".../..././.../w.. b 0 0")
    assert over.outcome() is not None
    end = analyse_ply(over, None, Limit(depth=2))
    assert (end.white, end.exact, end.best, end.line) == (WIN, True, None, [])

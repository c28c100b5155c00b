"""The searches where a side moves twice in a row (a removal as a move of its own, the defender
moving first in the Morris family): a move's score is its child's as it is when the same side
is to move again, not negated; and games of the rule sets with such moves play to their end."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ludoteca import Color, State
from ludoteca.ai import Limit
from ludoteca.ai.search import WIN, SearchAgent
from ludoteca.ai.tournament import play_game
from ludoteca.games.morris import Morris
from ludoteca.games.morris.board import TWELVE
from ludoteca.games.morris.kernel import evaluate

from ..games.test_morris_removals import LAST_DOUBLE, code

#: Da San Qi's moving phase: White has two removals due, Black four men: the two removals,
#: White's two moves in a row, leave Black with two men, lost
TWO_DUE = code(TWELVE, "a7 d7 g7 a1 d1 g1", "b2 d2 f2 c3", "w", extra="x2/0", ply=40)


@pytest.mark.parametrize("compiled", [True, False])
def test_two_removals_in_a_row_win_for_the_side_that_makes_them(compiled: bool) -> None:
    state = Morris.of("da-san-qi").from_position_code(TWO_DUE)
    for depth in (1, 2, 3, 4):
        result = SearchAgent(seed=1, compiled=compiled).analyse(state, Limit(depth=depth))
        assert str(result.move).startswith("x")
        if depth >= 2:
            assert result.score == WIN - 2, depth  # White wins at ply 2, by its own two moves
        else:
            assert result.score > 0, depth  # a man ahead, and one more due


def white_value(state: State, depth: int, ply: int, leaf: Callable[[State], int]) -> int:
    """Plain minimax from White's side, no negation: White maximises and Black minimises
    whoever moved before; a win at ply ``p`` is worth ``WIN - p``, a leaf ``leaf``'s value for
    the side to move, turned to White's."""
    ending = state.outcome()
    if ending is not None:
        if ending.winner is None:
            return 0
        return WIN - ply if ending.winner is Color.WHITE else -(WIN - ply)
    if depth == 0:
        value = leaf(state)
        return value if state.turn is Color.WHITE else -value
    values = []
    for move in state.legal_codes():
        state.push_code(move)
        values.append(white_value(state, depth - 1, ply + 1, leaf))
        state.pop_code()
    return max(values) if state.turn is Color.WHITE else min(values)


@pytest.mark.parametrize("compiled", [True, False])
def test_black_moving_three_times_in_a_row_keeps_its_scores(compiled: bool) -> None:
    """Black's last man closes two mills: Black places (taking a man), removes the second man
    alone, then moves first, three moves in a row before White's reply.  Every root move's
    score at four plies (three where a win is found) is what plain minimax finds with the same
    evaluation at the leaves."""
    state = Morris.of("da-san-qi").from_position_code(LAST_DOUBLE)
    kernel = state.game.kernel
    assert kernel is not None

    def leaf(position: State) -> int:
        if compiled:
            return int(evaluate(kernel.pack(position), kernel.prm))
        return round(1000 * position.evaluate())

    result = SearchAgent(seed=1, compiled=compiled, quiesce=0).analyse(
        state, Limit(depth=4), exact=True
    )
    assert len(result.scores) == 12
    assert result.depth >= 3  # the readable search stops at the depth that finds a win
    for move, score in result.scores.items():
        state.push_code(move)
        assert score == -white_value(state, result.depth - 1, 1, leaf), str(state.move_of(move))
        state.pop_code()


@pytest.mark.parametrize("rules", ["zhi-qi", "da-san-qi", "el-filja", "dooz"])
def test_two_search_levels_play_a_game_to_its_end(rules: str) -> None:
    result = play_game(
        "morris",
        rules,
        ("search:depth=1,noise=400", "search:depth=2"),
        (0, 1),
        seed=5,
        setup_seed=5,
        max_plies=400,
    )
    assert result.failure is None
    assert result.plies >= 24  # every man placed
    assert '[Termination "' in result.record_text  # a rule of the game ended it

"""Every rule of docs/rules.md (Nine Men's Morris) on hand-made positions."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import Color, IllegalMoveError, InvalidMoveError, Termination
from ludoteca.games.morris.board import NINE
from ludoteca.games.morris.rules import Morris

ADJACENT, POINTS = NINE.adjacent, NINE.points
MILLS = [tuple(p for p in range(24) if m >> p & 1) for m in NINE.mill_masks]

# The diagram of docs/rules.md (Nine Men's Morris), row by row, as written there (top to bottom).
ROWS = ["a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4 e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1"]
# The 32 neighbour pairs read off the diagram by hand.
DIAGRAM_EDGES = """
a7-d7 d7-g7 b6-d6 d6-f6 c5-d5 d5-e5 a4-b4 b4-c4 e4-f4 f4-g4 c3-d3 d3-e3 b2-d2 d2-f2 a1-d1 d1-g1
a7-a4 a4-a1 b6-b4 b4-b2 c5-c4 c4-c3 d7-d6 d6-d5 d3-d2 d2-d1 e5-e4 e4-e3 f6-f4 f4-f2 g7-g4 g4-g1
""".split()


def position(
    white: str = "",
    black: str = "",
    turn: str = "w",
    hands: tuple[int, int] = (0, 0),
    quiet: int = 0,
    ply: int | None = None,
    rules: str | None = None,
) -> ludoteca.State:
    """Build a position code by hand (independently of the engine's writer) and read it."""
    w, b = set(white.split()), set(black.split())
    rows = "/".join(
        "".join("W" if p in w else "B" if p in b else "." for p in row.split()) for row in ROWS
    )
    if ply is None:
        ply = 18 - sum(hands) if sum(hands) else 40
    return Morris.of(rules).from_position_code(f"{rows} {turn} {hands[0]} {hands[1]} {quiet} {ply}")


def moves(state: ludoteca.State) -> set[str]:
    return {str(m) for m in state.legal_moves}


def test_board_geometry_matches_the_diagram() -> None:
    assert len(POINTS) == 24
    engine_edges = {
        frozenset((POINTS[a], POINTS[b]))
        for a in range(24)
        for b in range(24)
        if ADJACENT[a] >> b & 1
    }
    assert engine_edges == {frozenset(e.split("-")) for e in DIAGRAM_EDGES}
    assert len(engine_edges) == 32
    assert len(MILLS) == 16
    assert {"a1 d1 g1", "a4 b4 c4", "e4 f4 g4", "d1 d2 d3", "d5 d6 d7"} <= {
        " ".join(POINTS[p] for p in m) for m in MILLS
    }


def test_first_moves() -> None:
    state = ludoteca.new_game("morris")
    assert state.turn is Color.WHITE
    assert state.legal_moves.count() == 24
    state.push("d6")
    assert state.turn is Color.BLACK
    assert state.legal_moves.count() == 23
    assert "d6" not in moves(state)


def test_no_mill_before_ply_five_and_a_mill_at_ply_five() -> None:
    state = ludoteca.new_game("morris")
    for word in ("a1", "b6", "d1"):
        state.push(word)
        assert all(m.remove is None for m in state.legal_moves)  # type: ignore[attr-defined]
    state.push("d6")
    assert {str(m) for m in state.legal_moves if str(m).startswith("g1")} == {"g1xb6", "g1xd6"}
    with pytest.raises(IllegalMoveError, match="closes a mill"):
        state.push("g1")


def test_placing_needs_an_empty_point_and_no_moving_while_men_in_hand() -> None:
    state = ludoteca.new_game("morris")
    state.push("a1")
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.push("a1")
    with pytest.raises(IllegalMoveError, match="in hand"):
        state.push("a1-a4")
    assert state.ply == 1


def test_moving_goes_to_a_neighbouring_empty_point_only() -> None:
    state = position("a1 d1 b2 f4", "a7 g7 d6 e4", ply=30)
    assert moves(state) == {"a1-a4", "d1-g1", "d1-d2", "b2-b4", "b2-d2", "f4-f2", "f4-f6", "f4-g4"}
    with pytest.raises(IllegalMoveError, match="not neighbours"):
        state.push("a1-g1")
    with pytest.raises(IllegalMoveError, match="no man on"):
        state.push("a4-a1")
    with pytest.raises(IllegalMoveError, match="no men in hand"):
        state.push("c4")


def test_flying_with_exactly_three_men() -> None:
    state = position("a1 d1 b2", "a7 g7 d6 e4", ply=30)
    legal = moves(state)
    # every man to every empty point (24 - 7 occupied); b2-g1 closes a mill with 4 choices
    assert {m.split("x")[0] for m in legal} == {
        f"{s}-{d}"
        for s in ("a1", "d1", "b2")
        for d in POINTS
        if d not in ("a1", "d1", "b2", "a7", "g7", "d6", "e4")
    }
    assert {m for m in legal if m.startswith("b2-g1")} == {
        "b2-g1xa7",
        "b2-g1xg7",
        "b2-g1xd6",
        "b2-g1xe4",
    }
    no_flying = position("a1 d1 b2", "a7 g7 d6 e4", ply=30, rules="morris:flying=false")
    assert "a1-e5" not in moves(no_flying)


def test_removal_prefers_men_outside_mills() -> None:
    state = position("a1 d1 g4 b2", "a7 d7 g7 f6", ply=30)
    assert {m for m in moves(state) if m.startswith("g4-g1")} == {"g4-g1xf6"}
    with pytest.raises(IllegalMoveError, match="stands in a mill"):
        state.push("g4-g1xa7")


def test_any_man_may_be_taken_when_all_stand_in_mills() -> None:
    state = position("a1 d1 g4 b2", "a7 d7 g7", ply=30)
    assert {m for m in moves(state) if m.startswith("g4-g1")} == {
        "g4-g1xa7",
        "g4-g1xd7",
        "g4-g1xg7",
    }


def test_nothing_removed_when_the_opponent_has_no_man_on_the_board() -> None:
    state = position("a1 d1", "", hands=(7, 7))
    assert "g1" in moves(state)
    assert not any("x" in m for m in moves(state))


def test_a_double_mill_removes_one_man() -> None:
    state = position("a1 d1 g4 g7", "b6 d6 c5 e5", hands=(5, 5))
    closing = {m for m in moves(state) if m.startswith("g1")}
    assert closing == {"g1xb6", "g1xd6", "g1xc5", "g1xe5"}
    state.push("g1xd6")
    assert state.position_code().startswith("..W/B../B.B/")


def test_a_mill_opened_and_closed_again_counts_again() -> None:
    state = position("a1 d1 g1 b2", "a7 d7 f6 b6", ply=30)
    state.push("g1-g4")
    state.push("b6-b4")
    assert "g4-g1" not in moves(state)
    assert {"g4-g1xa7", "g4-g1xd7", "g4-g1xf6", "g4-g1xb4"} <= moves(state)


def test_loss_with_fewer_than_three_men() -> None:
    state = position("a1 d1 g4 b2", "a7 d7 f6", ply=30)
    state.push("g4-g1xf6")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.FEWER_THAN_THREE, Color.WHITE)
    assert state.legal_moves.count() == 0


def test_men_in_hand_count_towards_three() -> None:
    state = position("a1 d1", "b6 d6", hands=(1, 1))
    assert state.outcome() is None
    state.push("g1xb6")  # Black keeps one on the board and one in hand
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FEWER_THAN_THREE


def test_loss_when_blocked() -> None:
    state = position("d2 g4 a7 b4", "a1 d1 g1 a4", turn="b", ply=31)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.NO_LEGAL_MOVES, Color.WHITE)
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.push("a4-a7")


def test_three_men_fly_out_of_a_blockade() -> None:
    state = position("d2 g4 a4 b2", "a1 d1 g1", turn="b", ply=31)
    assert state.outcome() is None
    assert "a1-e5" in moves(state)


def test_threefold_repetition_is_a_draw() -> None:
    state = position("a1 d1 b2 f2", "a7 g7 d6 e4", ply=30)
    shuffle = ["a1-a4", "a7-d7", "a4-a1", "d7-a7"]
    for word in shuffle + shuffle[:3]:
        state.push(word)
        assert state.outcome() is None
    state.push(shuffle[3])  # the start position for the third time
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.THREEFOLD_REPETITION, None)
    state.pop()
    assert state.outcome() is None


def test_hundred_quiet_plies_is_a_draw_and_a_removal_resets_the_count() -> None:
    state = position("a1 d1 b2 f2", "a7 g7 d6 e4", ply=30, rules="morris:repetition=0")
    shuffle = ["a1-a4", "a7-d7", "a4-a1", "d7-a7"]
    for i in range(99):
        state.push(shuffle[i % 4])
        assert state.outcome() is None
    assert state.quiet == 99
    state.push(shuffle[99 % 4])
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_RULE
    assert outcome.winner is None

    state = position("a1 d1 g4 b2", "a7 d7 f6 b6", quiet=57, rules="morris:repetition=0")
    state.push("g4-g1xf6")
    assert state.quiet == 0


def test_draw_rules_are_settings() -> None:
    rules = Morris.parse_rules("morris:move_rule=4")
    assert str(rules) == "morris:move_rule=4"
    state = position("a1 d1 b2 f2", "a7 g7 d6 e4", ply=30, rules="morris:move_rule=4")
    for word in ["a1-a4", "a7-d7", "a4-a1"]:
        state.push(word)
    state.push("g7-g4")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_RULE


@pytest.mark.parametrize("text", ["", "d8", "h1", "a1-", "a1--a4", "a1-a1", "d6x", "xx", "a1 a4"])
def test_malformed_notation(text: str) -> None:
    state = ludoteca.new_game("morris")
    with pytest.raises(InvalidMoveError):
        state.push(text)
    assert state.ply == 0 and state.position_code() == ludoteca.new_game("morris").position_code()


def test_illegal_moves_change_nothing() -> None:
    state = position("a1 d1 g4 b2", "a7 d7 g7 f6", ply=30)
    before = (state.position_code(), state.position_key(), len(state.move_stack))
    for word in ("g4-g1", "g4-g1xa7", "a1-a7", "g4-g1xb2", "d6", "a7-a4"):
        with pytest.raises(IllegalMoveError):
            state.push(word)
    assert (state.position_code(), state.position_key(), len(state.move_stack)) == before


def test_notation_round_trip_for_every_move_kind() -> None:
    for text in ("d6", "a1-a4", "d6xg7", "a1-a4xg7"):
        assert str(ludoteca.games.morris.rules.MorrisMove.parse(text)) == text

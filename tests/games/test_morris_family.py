"""The Morris family rule sets against the second implementation
(checks/morris_reference.py), the facts of docs/rules.md, and hand-checked positions."""

from __future__ import annotations

import random

import pytest

import ludoteca
from checks import morris_reference as ref
from ludoteca import Color, IllegalMoveError, Termination
from ludoteca.games.morris import Morris
from ludoteca.perft import perft

FAMILY = list(ref.VARIANTS)
LABELS = {
    Termination.FEWER_THAN_THREE: "fewer than three",
    Termination.NO_LEGAL_MOVES: "no legal moves",
    Termination.THREEFOLD_REPETITION: "threefold repetition",
    Termination.MOVE_RULE: "move rule",
    Termination.FULL_BOARD: "full board",
    Termination.THREE_MEN_RULE: "three men rule",
}


def _colour(c: str | None) -> Color | None:
    return None if c is None else Color.WHITE if c == "W" else Color.BLACK


@pytest.mark.parametrize("rules", FAMILY)
def test_perft_from_the_start_agrees(rules: str) -> None:
    state = ludoteca.new_game(rules)
    for depth in (1, 2, 3):
        assert perft(state, depth) == ref.perft(ref.start(rules), depth), depth


@pytest.mark.parametrize("rules", FAMILY)
def test_first_moves_and_no_mill_in_four_plies(rules: str) -> None:
    state = ludoteca.new_game(rules)
    points = 16 if rules == "morris-6" else 24
    assert state.legal_moves.count() == points
    assert not _removal_within(state, 4)
    # El Filja's mills take nothing while men are placed; Dooz's take from the hand (unwritten)
    assert _removal_within(state, 5) == (rules not in ("el-filja", "dooz"))


def _removal_within(state: ludoteca.State, depth: int) -> bool:
    """Whether some move path of at most ``depth`` plies ends with a removal."""
    for code in state.legal_codes():
        if state.is_tactical(code):
            return True
        if depth > 1:
            state.push_code(code)
            found = _removal_within(state, depth - 1)
            state.pop_code()
            if found:
                return True
    return False


@pytest.mark.parametrize("rules", FAMILY)
@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_move_for_move(rules: str, seed: int) -> None:
    """Every position of seeded random games (with the draw rules on): the same legal moves,
    the same position code after a round trip, and the same ending."""
    rng = random.Random(seed)
    state = ludoteca.new_game(rules)
    pos = ref.start(rules)
    while True:
        ours = sorted(str(m) for m in state.legal_moves)
        assert ours == sorted(ref.legal(pos)), (seed, state.position_code())
        again = Morris.of(state.rules).from_position_code(state.position_code())
        assert again.position_code() == state.position_code()
        outcome = state.outcome()
        theirs = ref.outcome(pos)
        if outcome is None:
            assert theirs is None
        else:
            assert theirs is not None
            assert (_colour(theirs[0]), theirs[1]) == (outcome.winner, LABELS[outcome.termination])
            break
        if state.ply % 15 == 7 and state.ply < 60:  # perft from the middle of a game
            assert perft(state, 2) == ref.perft(pos, 2)
        move = rng.choice(ours)
        state.push(move)
        pos = ref.play(pos, move)


def test_morabaraba_dark_cows_start_and_the_diagonals_are_mills() -> None:
    state = ludoteca.new_game("morabaraba")
    assert state.turn is Color.BLACK
    for move in ["a1", "a7", "b2", "g7", "c3xa7"]:
        state.push(move)
    assert state.in_hand() == (10, 9)
    nine = ludoteca.new_game("morris")
    for move in ["a7", "a1", "g7", "b2", "d5"]:
        nine.push(move)
    with pytest.raises(IllegalMoveError):  # no diagonal mill on the nine men's board
        nine.push("c3xa7")


def test_six_mens_morris_has_no_flying_and_joins_form_no_mill() -> None:
    state = Morris.of("morris-6").from_position_code("W.W/.B./W..B/.B./... w 0 0 0 30")
    assert sorted(str(m) for m in state.legal_moves) == ["a3-a1", "a3-b3", "a5-c5", "e5-c5"]
    # a3-b3 and d3-e3 hold two points each: no mill along the middle row
    state = Morris.of("morris-6").from_position_code("B.B/.../WW.W/.../B.. w 0 0 0 30")
    moves = sorted(str(m) for m in state.legal_moves)
    assert moves == ["b3-b2", "b3-b4", "e3-d3", "e3-e1"]


def test_twelve_mens_morris_full_board_is_a_draw() -> None:
    code = "WBW/BWB/WBW/BWBWBW/BWB/WBW/BWB b 0 0 0 24"
    state = Morris.of("morris-12").from_position_code(code)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FULL_BOARD
    assert outcome.winner is None and not state.legal_moves


def test_lasker_may_move_while_men_are_in_hand() -> None:
    state = ludoteca.new_game("morris-lasker")
    for move in ["a1", "g7"]:
        state.push(move)
    moves = {str(m) for m in state.legal_moves}
    assert {"a1-d1", "a1-a4", "d1"} <= moves and len(moves) == 22 + 2
    state.push("a1-d1")
    assert state.in_hand() == (9, 9) and state.quiet == 1


def test_morabaraba_three_men_rule() -> None:
    code = "B.B/.B./.../W....W/.../.W./WW. w 0 0 19 60"
    state = Morris.of("morabaraba").from_position_code(code)
    assert state.outcome() is None
    state.push("g4-f4")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.THREE_MEN_RULE
    assert outcome.winner is None


# Marking while placing (Cheng San Qi, Cham Gonu) and removal from mills (Cham Gonu).


@pytest.mark.parametrize(
    ("rules", "plain"), [("cheng-san-qi", "morris"), ("cham-gonu", "morris-12")]
)
def test_marking_perft_by_hand(rules: str, plain: str) -> None:
    """Plies 1-5 as without marking (no mill before ply 5, and a mill's mark matters only after
    it); at ply 6 each ply-5 mill leaves Black one empty point fewer: 19, not 20.  The ply-5
    mills: 48 choices of two of a mill's points for White's men (60 on the 20-mill board), in
    either order, times Black's 21 * 20 ordered placements off the mill, times two removals.
    Black's man taken is in no mill and White's men stand in no mill before ply 5, so removal
    from mills changes nothing yet."""
    from ludoteca.compiled.drivers import perft_counts

    gaps = 48 if plain == "morris" else 60
    ours = perft_counts(ludoteca.new_game(rules), 6)
    theirs = perft_counts(ludoteca.new_game(plain), 6)
    assert ours[:5] == theirs[:5]
    assert ours[5] == theirs[5] - gaps * 2 * 21 * 20 * 2


def test_a_marked_point_is_blocked_until_placing_ends() -> None:
    state = ludoteca.new_game("cheng-san-qi")
    for move in ["a1", "b6", "d1", "d6", "g1xb6"]:
        state.push(move)
    assert state.position_code() == ".../XB./.../....../.../.../WWW b 6 7 0 5"
    names = state.game.board.points
    assert [names[p] for p in state.marked_points()] == ["b6"]  # the X of the code
    assert state.pieces()[names.index("b6")] == ""
    assert "b6" not in {str(m) for m in state.legal_moves} and state.legal_moves.count() == 19
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.push("b6")
    again = Morris.of("cheng-san-qi").from_position_code(state.position_code())
    assert again.position_code() == state.position_code()
    assert again.legal_codes() == state.legal_codes()
    state.pop()
    assert not state.marked and not state.marked_points()
    assert state.legal_moves.count() == 21  # g1 closes a1-d1-g1: 2 ways


def test_marks_are_freed_when_the_last_man_is_placed() -> None:
    """Black's last man closes b2-d2-f2: the man taken leaves, and placing is over, so the
    mark at d6 is freed with it; the moving phase starts with both points empty."""
    code = "W.W/.X./W.W/WB..BW/.W./B.B/WBW b 0 1 0 17"
    state = Morris.of("cheng-san-qi").from_position_code(code)
    assert [state.game.board.points[p] for p in state.marked_points()] == ["d6"]
    state.push("d2xd3")
    assert state.position_code() == "W.W/.../W.W/WB..BW/.../BBB/WBW w 0 0 0 18"
    assert state.marked_points() == []
    state.pop()
    assert state.position_code() == code
    with pytest.raises(ludoteca.InvalidPositionError, match="marked"):
        Morris.of("cheng-san-qi").from_position_code(code.replace("b 0 1 0 17", "b 0 0 0 18"))
    with pytest.raises(ludoteca.InvalidPositionError, match="board character"):
        Morris.of("morris").from_position_code(code)


def test_removal_from_mills_may_take_a_man_in_a_mill() -> None:
    """g4-g1 closes a1-d1-g1; Black's a7-d7-g7 is a mill and c5 is free: Twelve Men's Morris
    protects the mill, Cham Gonu takes any man."""
    code = "BBB/.../B../.....W/..W/.../WW. w 0 0 0 40"
    plain = Morris.of("morris-12").from_position_code(code)
    any_man = Morris.of("cham-gonu").from_position_code(code)
    closing = {str(m) for m in plain.legal_moves if m.remove is not None}
    assert closing == {"g4-g1xc5"}
    closing = {str(m) for m in any_man.legal_moves if m.remove is not None}
    assert closing == {"g4-g1xc5", "g4-g1xa7", "g4-g1xd7", "g4-g1xg7"}


# One-time mills (One-Time Mill, after Sanmill's oneTimeUseMill; docs/rules.md).


def opened(used: str = "") -> str:
    """White a1 g1 d2 f4, Black a7 d7 b6 e4, moving (White closed a1-d1-g1 before and stepped
    d1-d2); ``used``: the points of closed mills, as the field after the hands."""
    return f"BB./B../.../...BW./.../.W./W.W w 0 0 {used} 0 40".replace("  ", " ")


#: placing: White a1 g1 d2 d3 (d1 taken by Black's mill b6-d6-f6 after a1-d1-g1), Black b6 d6 f6
#: c5; both sides have closed a mill
PLACING = ".../BBB/B../....../.W./.W./W.W w 4 4 a1d1g1/b6d6f6 0 10"


def test_one_time_mill_perft_by_hand() -> None:
    """Plies 1-6 as in Nine Men's Morris: the first mill (ply 5 at the earliest) is new, and at
    ply 6 Black can close one only if White closed none, so White has no man in a mill and
    removal from mills changes nothing either."""
    from ludoteca.compiled.drivers import perft_counts

    ours = perft_counts(ludoteca.new_game("one-time-mill"), 6)
    assert ours == perft_counts(ludoteca.new_game("morris"), 6)
    assert ours[:5] == [24, 552, 12_144, 255_024, 5_140_800]  # docs/rules.md's counts


def test_a_mill_closed_again_takes_nothing() -> None:
    """d2-d1 closes a1-d1-g1 again: Nine Men's Morris takes one of Black's four men (none in a
    mill), One-Time Mill nothing; the other ten moves alike.  Writing a removal is refused with
    the reason."""
    plain = Morris.of("morris").from_position_code(opened())
    once = Morris.of("one-time-mill").from_position_code(opened("a1d1g1/-"))
    quiet = {"a1-a4", "a1-d1", "g1-g4", "g1-d1", "d2-d3", "d2-b2", "d2-f2"}
    quiet |= {"f4-f6", "f4-f2", "f4-g4"}
    assert {str(m) for m in plain.legal_moves} == quiet | {
        f"d2-d1x{p}" for p in "a7 d7 b6 e4".split()
    }
    assert {str(m) for m in once.legal_moves} == quiet | {"d2-d1"}
    with pytest.raises(IllegalMoveError, match="closed mills before"):
        once.push("d2-d1xa7")
    once.push("d2-d1")
    assert once.position_code() == "BB./B../.../...BW./.../.../WWW b 0 0 a1d1g1/- 1 41"


def test_the_record_is_of_points_not_of_mills() -> None:
    """Sanmill records the points of the mills a side closes, not the mills: with a1-a4-a7,
    g1-g4-g7 and d1-d2-d3 closed before, a1-d1-g1 (never closed) takes nothing either."""
    state = Morris.of("one-time-mill").from_position_code(opened("a1a4a7d1d2d3g1g4g7/-"))
    assert "d2-d1" in {str(m) for m in state.legal_moves}
    assert state.legal_moves.count() == 11


def test_a_new_mill_with_a_used_one_takes_and_both_are_recorded() -> None:
    """Placing d1 closes a1-d1-g1 (closed before; Black's mill took d1 since) and d1-d2-d3
    (new): it takes any of Black's four men (removal from mills: b6-d6-f6 too), and d2, d3
    join White's record.  The 15 other empty points close nothing."""
    state = Morris.of("one-time-mill").from_position_code(PLACING)
    taking = sorted(str(m) for m in state.legal_moves if "x" in str(m))
    assert taking == ["d1xb6", "d1xc5", "d1xd6", "d1xf6"]
    assert state.legal_moves.count() == 4 + 15
    state.push("d1xc5")
    assert state.position_code().endswith(" b 3 4 a1d1g1d2d3/b6d6f6 0 11")
    state.pop()
    assert state.position_code() == PLACING


def test_one_time_mill_positions_against_the_reference() -> None:
    """Perft 1-3 from the positions above, by the engine and by checks/morris_reference.py."""
    for code in [opened("a1d1g1/-"), PLACING]:
        state = Morris.of("one-time-mill").from_position_code(code)
        names = state.board.points
        pos = ref.start("one-time-mill")
        pos.occupant = {
            names[p]: "WB"[c] for c in (0, 1) for p in range(24) if state.men[c] >> p & 1
        }
        pos.hand = {"W": state.hand[0], "B": state.hand[1]}
        pos.turn = "WB"[state.turn]
        pos.used = {
            s: frozenset(names[p] for p in range(24) if state.used[c] >> p & 1)
            for c, s in enumerate("WB")
        }
        for depth in (1, 2, 3):
            assert perft(state, depth) == ref.perft(pos, depth), (code, depth)


def test_one_time_mill_position_codes() -> None:
    """The field after the hands (White's points of closed mills / Black's) only under one-time
    mills and only when some are recorded; whole mills only; a six-field code records none."""
    game = Morris.of("one-time-mill")
    assert game.from_position_code(opened()).used == [0, 0]
    with_field = game.from_position_code(opened("a1d1g1/-"))
    assert with_field.position_key() != game.from_position_code(opened()).position_key()
    for bad in ["a1d1/-", "a1d1g1", "a1d1g1/-/-", "a1x1d1g1/-", "a1d1g1/h9"]:
        with pytest.raises(ludoteca.InvalidPositionError):
            game.from_position_code(opened(bad))
    with pytest.raises(ludoteca.InvalidPositionError, match="6 fields"):
        Morris.of("morris").from_position_code(opened("a1d1g1/-"))


def test_one_time_mill_evaluation_leaves_out_mills_that_would_take_nothing() -> None:
    """White's a1 and g1 make an open two (d1 empty, no Black man on the line): a threat in
    Nine Men's Morris, none once a1-d1-g1 is recorded for White, in the kernel's features and
    in the readable engine's evaluation alike."""
    import numpy as np

    from ludoteca.games.morris.kernel import FEATURES, features

    values = []
    for rules, used, twos in [("morris", "", 1), ("one-time-mill", "a1d1g1/-", 0)]:
        state = Morris.of(rules).from_position_code(opened(used))
        kernel = state.game.kernel
        out = np.zeros(len(FEATURES))
        features(kernel.pack(state), kernel.prm, out)
        assert out[FEATURES.index("open_two")] == twos, rules
        values.append(state.evaluate())
    assert values[0] > values[1]

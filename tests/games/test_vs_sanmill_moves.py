"""bench/vs_sanmill_moves.py, the comparison of our legal moves with Sanmill's engine's, run
against the tiny UCI engine of tests/support/uci_engine.py (Sanmill's ``d`` and ``analyze`` in
its own reading of the tokens; Sanmill itself is not here): hand-counted positions whose whole
moves it builds from the engine's tokens and removals, an engine that gets the mill rule wrong
and one playing other rules caught, seeded random games agreeing in every rule set's kind
(colours exchanged, marked points, mill records); and the rule options the benchmark sets."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bench import vs_sanmill_moves as bench
from ludoteca.core import Color
from ludoteca.games import load
from ludoteca.games.morris.rules import MorrisState
from ludoteca.games.morris.uci import UciEngine, UciError, engine_rules, from_uci

ENGINE = [sys.executable, "-m", "tests.support.uci_engine"]
#: White (the first player) a1 a4 b2, Black g7 g4 g1 (a mill, closed by g1, which took d2);
#: Black's d6 stands alone.  The first player, to move, closes a1-a4-a7 with a7, and may take
#: d6 only: the mill g7-g4-g1 is protected.
HISTORY = "a1 g7 a4 g4 d2 g1 xd2 b2 d6".split()


def reached(rules: str) -> MorrisState:
    state = load(rules).new()
    assert isinstance(state, MorrisState)
    pending = ""
    for token in HISTORY:
        if token.startswith("x"):
            state.push(pending + token)
        elif token == "g1":
            pending = token
        else:
            state.push(token)
    return state


@pytest.mark.parametrize(
    ("rules", "count", "mills"),
    [
        # 17 empty points, a7 closing the mill; its one removal d6
        ("morris", 17, {"a7xd6"}),
        # Cheng San Qi: Black's mill marked d2, which stays blocked: 16 placements
        ("cheng-san-qi", 16, {"a7xd6"}),
        # Morabaraba: Black places first (the engine's White), and c3 closes the diagonal
        # a1-b2-c3 as a7 closes a1-a4-a7
        ("morabaraba", 17, {"a7xd6", "c3xd6"}),
    ],
)
def test_the_whole_moves_of_a_hand_counted_position_agree(
    rules: str, count: int, mills: set[str]
) -> None:
    state = reached(rules)
    swapped = rules == "morabaraba"
    engine = UciEngine([*ENGINE, "--rules", rules], {})
    try:
        board, theirs, notes = bench.their_moves(engine, HISTORY)
        verdict = bench.compare(engine, state, HISTORY, swapped)
    finally:
        engine.close()
    assert len(theirs) == count and not notes
    assert {m for m in theirs if "x" in m} == mills
    assert ("X" in board.cells) == (rules == "cheng-san-qi")
    assert verdict.agrees, verdict


def test_an_engine_that_lets_a_mill_be_taken_disagrees_there() -> None:
    engine = UciEngine([*ENGINE, "--lax"], {})
    try:
        verdict = bench.compare(engine, reached("morris"), HISTORY, False)
    finally:
        engine.close()
    assert verdict.ours_only == [] and verdict.notes == []
    assert verdict.theirs_only == ["a7xg1", "a7xg4", "a7xg7"]


def test_an_engine_under_other_rules_differs_in_its_board() -> None:
    """The engine plays Cheng San Qi where we play Nine Men's Morris: its d2 is marked."""
    engine = UciEngine([*ENGINE, "--rules", "cheng-san-qi"], {})
    try:
        verdict = bench.compare(engine, reached("morris"), HISTORY, False)
    finally:
        engine.close()
    assert verdict.ours_only == ["d2"] and verdict.theirs_only == []
    assert len(verdict.notes) == 1 and "board differs" in verdict.notes[0]


@pytest.mark.parametrize("rules", ["morris-lasker", "morabaraba", "one-time-mill", "cham-gonu"])
def test_random_games_agree(rules: str) -> None:
    report = bench.run([*ENGINE, "--rules", rules], rules, 12, seed=3, every=2)
    assert report.positions == 12 and report.disagreements == []
    assert report.kinds["placing"] + report.kinds["moving"] + report.kinds["over"] > 0


def test_the_records_of_one_time_mills_are_compared() -> None:
    """A mill record that is ours but not the engine's is a board difference."""
    state = reached("one-time-mill")
    assert state.used[1]  # Black's g7-g4-g1
    engine = UciEngine([*ENGINE, "--rules", "morris"], {})
    try:
        verdict = bench.compare(engine, state, HISTORY, False)
    finally:
        engine.close()
    assert any("board differs" in note for note in verdict.notes)


def test_the_bench_prints_its_counts(capsys: pytest.CaptureFixture[str]) -> None:
    engine = " ".join(ENGINE)
    assert bench.main(["--engine", engine, "--positions", "5", "--rules", "morris"]) == 0
    out = capsys.readouterr().out
    assert "morris: 5 positions compared" in out and "5 agree, 0 disagree" in out
    assert "not compared: morris-6" in out


def test_the_rule_options_of_each_rule_set() -> None:
    """Sanmill's options for each rule set, after its presets (docs/rules.md) and our
    settings; its draws off in the benchmark."""
    played, others = bench.compared_rule_sets()
    assert set(others) == {"morris-6"}
    assert played == {
        "morris": False,
        "morris-12": False,
        "morabaraba": True,
        "morris-lasker": False,
        "cheng-san-qi": False,
        "cham-gonu": False,
        "one-time-mill": False,
        "zhi-qi": False,
        "da-san-qi": False,
        "el-filja": False,
        "dooz": False,
    }
    # the removals as turns of their own, in Sanmill's enums' numbers (src/rule.h)
    zhi = engine_rules(load("zhi-qi").rules)
    assert (zhi["MillFormationActionInPlacingPhase"], zhi["BoardFullAction"]) == ("4", "1")
    da = engine_rules(load("da-san-qi").rules)
    assert (da["MayRemoveMultiple"], da["IsDefenderMoveFirst"], da["BoardFullAction"]) == (
        "true",
        "true",
        "0",
    )
    filja = engine_rules(load("el-filja").rules)
    assert (filja["MillFormationActionInPlacingPhase"], filja["PiecesCount"]) == ("5", "12")
    dooz = engine_rules(load("dooz").rules)
    assert (dooz["MillFormationActionInPlacingPhase"], dooz["BoardFullAction"]) == ("1", "3")
    assert dooz["MayFly"] == "true" and dooz["MayRemoveFromMillsAlways"] == "true"
    # both remove, the defender (the last placer) first: Sanmill's secondAndFirstPlayerRemovePiece
    both = engine_rules(
        load("morris-custom:board=12,men=12,defender_first,full_board=both-remove").rules
    )
    assert both["BoardFullAction"] == "2"
    # what the engine's options cannot hold, named
    with pytest.raises(UciError, match="its MillFormationActionInPlacingPhase has no value"):
        engine_rules(load("morris-custom:marking,hand_removal").rules)
    with pytest.raises(UciError, match="its BoardFullAction has no value"):
        engine_rules(load("morris-custom:board=12,men=12,defender_first").rules)
    cham = bench.engine_options("cham-gonu", False)
    assert (cham["PiecesCount"], cham["HasDiagonalLines"], cham["MayFly"]) == (
        "12",
        "true",
        "false",
    )
    assert cham["MillFormationActionInPlacingPhase"] == "4"  # markAndDelayRemovingPieces
    assert cham["MayRemoveFromMillsAlways"] == "true" and cham["BoardFullAction"] == "0"
    assert cham["ThreefoldRepetitionRule"] == "false" and cham["NMoveRule"] == "200"
    lasker = engine_rules(load("morris-lasker").rules)
    assert (lasker["PiecesCount"], lasker["MayMoveInPlacingPhase"]) == ("10", "true")
    once = engine_rules(load("one-time-mill").rules)
    assert (once["OneTimeUseMill"], once["MayRemoveFromMillsAlways"]) == ("true", "true")
    twelve = engine_rules(load("morris-12").rules)
    assert twelve["BoardFullAction"] == "4" and twelve["EndgameNMoveRule"] == "100"
    defender = engine_rules(
        load("morris-custom:board=12,men=12,defender_first,full_board=first-loses").rules
    )
    assert (defender["IsDefenderMoveFirst"], defender["BoardFullAction"]) == ("true", "0")
    assert twelve["IsDefenderMoveFirst"] == "false"
    mora = engine_rules(load("morabaraba").rules, swapped=True)
    assert mora["EndgameNMoveRule"] == "20" and mora["BoardFullAction"] == "4"
    with pytest.raises(UciError, match="needs the colours exchanged"):
        engine_rules(load("morabaraba").rules)
    with pytest.raises(UciError, match="need no exchange"):
        engine_rules(load("morris").rules, swapped=True)


#: Sanmill's C++ engine, built as bench/results/sanmill_moves.txt says (``LUDOTECA_SANMILL``, else
#: its scratch folder); where it is not built, the test engine stands in (it plays our rules:
#: then a check of the driver and the benchmark, not of the rules), as in the tests above
SANMILL = Path(os.environ.get("LUDOTECA_SANMILL", "/tmp/scratch/sanmill/src/sanmill"))
REMOVALS = ["zhi-qi", "da-san-qi", "el-filja", "dooz"]


def sanmill_or_test_engine(rules: str) -> list[str]:
    """Sanmill's engine when it is here, else the test engine playing ``rules``."""
    if SANMILL.is_file() and os.access(SANMILL, os.X_OK):
        return [str(SANMILL)]
    return [*ENGINE, "--rules", rules]


@pytest.mark.parametrize("rules", REMOVALS)
def test_random_games_with_removals_as_turns_of_their_own_agree(rules: str) -> None:
    """A slice of the benchmark's run over the rule sets whose removals are turns of their own
    (the results file has 3,000 positions of each)."""
    report = bench.run(sanmill_or_test_engine(rules), rules, 20, seed=1, every=8)
    assert report.positions == 20 and report.disagreements == []


#: histories (Sanmill's tokens, from seeded random games) that reach a removal alone:
#: Zhi Qi's full board (24 placements without a mill: White removes, then Black); Dooz's (White
#: removes, then Black moves); Da San Qi's placement that closed two mills (c5: the second
#: removal still due while men are in hand)
ALONE = {
    "zhi-qi": "d2 d6 g1 b4 f2 f6 d7 g7 d5 a4 d3 d1 e5 a1 a7 e4 g4 c5 c3 f4 b6 e3 c4 b2",
    "dooz": "d6 e3 e4 g7 b6 a1 e5 a4 g1 d7 d2 b2 c4 c5 d3 d5 f2 g4 c3 d1 f4 f6 a7 b4",
    "da-san-qi": "a1 d7 b2 d5 c3 xd5 g4 b4 e4 b6 xg4 d2 a4 d6 c4 xd6 f6 a7 xe4 e5 c5 xf6",
}


@pytest.mark.parametrize("rules", sorted(ALONE))
def test_a_removal_alone_agrees_with_the_engine(rules: str) -> None:
    tokens = ALONE[rules].split()
    state = load(rules).new()
    assert isinstance(state, MorrisState)
    for move in from_uci(tokens, state):
        state.push(move)
    moves = [str(m) for m in state.legal_moves]
    theirs = state.men[1 - state.turn].bit_count()
    # every enemy man may be taken (removal from mills), each alone
    assert len(moves) == theirs and all(m.startswith("x") for m in moves)
    if rules != "da-san-qi":
        assert theirs == 12 and state.turn is Color.WHITE  # the full board: White first
    engine = UciEngine(sanmill_or_test_engine(rules), bench.engine_options(rules, False))
    try:
        verdict = bench.compare(engine, state, tokens, False)
        # and the next turn: Zhi Qi's Black removes too; Dooz's Black moves
        first = moves[0]
        state.push(first)
        after = bench.compare(engine, state, [*tokens, first], False)
    finally:
        engine.close()
    assert verdict.agrees, verdict
    assert after.agrees, after
    assert all(str(m).startswith("x") for m in state.legal_moves) == (rules == "zhi-qi")

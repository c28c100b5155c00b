"""ludoteca.games.morris.uci: the translation between our Morris moves and a UCI
engine's tokens
(Sanmill's: ``d6``, ``a1-a4``, then ``xg7`` for a mill's removal) on hand-checked examples and
random legal games, the rule sets the engine plays, and the engine driven as an agent (the
tiny engine of tests/support/uci_engine.py, which reads the tokens its own way): its moves
legal, an illegal answer refused with a clear error and the engine stopped; and
bench/vs_uci_mill.py, which drives it through this module, playing it (its board checked)."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import vs_uci_mill
from ludoteca.core import Color
from ludoteca.games import load
from ludoteca.games.morris.rules import MorrisMove, MorrisState
from ludoteca.games.morris.uci import (
    UciAgent,
    UciError,
    engine_rules,
    from_uci,
    read_action,
    to_uci,
)
from ludoteca.games.morris.uci import uci_history as history

from ..support import uci_engine

ENGINE = f"{sys.executable} -m tests.support.uci_engine"
#: White to move and flying (three men: a7, d7, c3); Black's b2-d2-f2 a mill, a1 and b4 not
FLYING = "WW./.../.../.B..../W../BBB/B.. w 0 0 0 30"
#: White to move, moving (a4, e5, d1, g1): a4-a1 closes the mill a1-d1-g1
MOVING = ".../B../.BW/W...../.../B.B/.WW w 0 0 0 30"


def state_of(code: str | None = None) -> MorrisState:
    game = load("morris")
    state = game.new() if code is None else game.from_position_code(code)
    assert isinstance(state, MorrisState)
    return state


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("d6", ["d6"]),
        ("a1-a4", ["a1-a4"]),
        ("d6xg7", ["d6", "xg7"]),
        ("a1-a4xg7", ["a1-a4", "xg7"]),
        ("c3-g7", ["c3-g7"]),
        ("c3-g7xa1", ["c3-g7", "xa1"]),
    ],
)
def test_our_moves_in_the_engine_tokens(ours: str, theirs: list[str]) -> None:
    assert to_uci(MorrisMove.parse(ours)) == theirs


def test_a_six_mens_morris_move_is_refused_and_a_diagonal_mill_read() -> None:
    six = load("morris-6").new()
    with pytest.raises(UciError, match="not a move on the 24-point Morris board"):
        to_uci(next(iter(six.legal_moves)))
    twelve = load("morris-12").new()
    for text in ["a1", "g7", "b2", "g4"]:
        twelve.push(text)
    assert read_action(twelve, "c3").move is None  # the diagonal a1-b2-c3
    assert to_uci(twelve.push("c3xg7")) == ["c3", "xg7"]


def test_placing_with_a_mill_reads_back() -> None:
    tokens = "a7 b6 d7 f6 g7 xb6 b6".split()
    assert [str(m) for m in from_uci(tokens)] == ["a7", "b6", "d7", "f6", "g7xb6", "b6"]
    state = state_of()
    for text in ["a7", "b6", "d7", "f6"]:
        state.push(text)
    assert read_action(state, "g7").move is None  # a mill: its removal is still to come
    assert str(read_action(state, "g7", "xb6").move) == "g7xb6"
    assert str(read_action(state, "d6").move) == "d6"


def test_moving_with_a_mill_reads_back() -> None:
    state = state_of(MOVING)
    assert read_action(state, "a4-a1").move is None
    assert str(read_action(state, "a4-a1", "xd5").move) == "a4-a1xd5"
    assert str(read_action(state, "e5-e4").move) == "e5-e4"
    assert [str(m) for m in from_uci(["a4-a1", "xb2", "b6-a7"], state)] == ["a4-a1xb2", "b6-a7"]


def test_flying_reads_back() -> None:
    state = state_of(FLYING)
    assert str(read_action(state, "c3-g1").move) == "c3-g1"
    assert str(read_action(state, "c3-g7", "xa1").move) == "c3-g7xa1"
    with pytest.raises(UciError, match="illegal removal 'xd2'"):  # d2 stands in a mill
        read_action(state, "c3-g7", "xd2")


@pytest.mark.parametrize(
    ("tokens", "error"),
    [
        (["a1-g7"], "illegal move 'a1-g7'"),
        (["z9"], "unreadable move 'z9'"),
        (["xd6"], "a removal where a man's move is due"),
        (["d6xg7"], "a removal joined to a move"),
        (["d6", "d6"], "illegal move 'd6'"),
        (["a7", "b6", "d7", "f6", "g7"], "'g7' closes a mill and no removal follows"),
        (["a7", "b6", "d7", "f6", "g7", "xa7"], "illegal removal 'xa7'"),
        (["a7", "b6", "d7", "f6", "g7", "f4"], "illegal removal 'f4'"),
        (["a7", "b6", "d7", "f6", "g4", "xb6"], "illegal move 'xb6'|a removal where"),
        (["none"], "unreadable move 'none'"),
        (["draw"], "unreadable move 'draw'"),
    ],
)
def test_malformed_tokens_are_refused(tokens: list[str], error: str) -> None:
    with pytest.raises(UciError, match=error):
        from_uci(tokens)


def test_a_removal_after_a_move_that_closes_no_mill_is_refused() -> None:
    with pytest.raises(UciError, match="closes no mill"):
        read_action(state_of(), "d6", "xg7")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=120))
def test_random_legal_games_round_trip(choices: list[int]) -> None:
    state = state_of()
    for choice in choices:
        codes = state.legal_codes()
        if not codes:
            break
        state.push(state.move_of(codes[choice % len(codes)]))
    tokens = history(state.moves)
    assert from_uci(tokens) == state.moves
    # the test engine, which reads the tokens its own way, reaches the same position
    replayed, pending = uci_engine.replay(tokens)
    assert pending is None and replayed.position_code() == state.position_code()
    # a move cut before its removal: the engine's reading waits for it, ours refuses the cut
    if any("x" in str(m) for m in state.moves):
        cut = tokens[: max(i for i, t in enumerate(tokens) if t.startswith("x"))]
        assert uci_engine.replay(cut)[1] == cut[-1]
        with pytest.raises(UciError, match="no removal follows"):
            from_uci(cut)


def test_the_engine_plays_the_rule_sets_of_the_24_point_board() -> None:
    options = engine_rules(load("morris").rules)
    assert options["MayFly"] == "true" and options["NMoveRule"] == "100"
    assert options["PiecesCount"] == "9" and options["HasDiagonalLines"] == "false"
    assert engine_rules(load("morris:move_rule=50").rules)["NMoveRule"] == "50"
    assert engine_rules(load("morris:repetition=0").rules)["ThreefoldRepetitionRule"] == "false"
    assert engine_rules(load("morris:flying=false").rules)["MayFly"] == "false"
    assert engine_rules(load("morris-12").rules)["HasDiagonalLines"] == "true"
    assert engine_rules(load("cheng-san-qi").rules)["MillFormationActionInPlacingPhase"] == "4"
    with pytest.raises(UciError, match="only the Morris family"):
        engine_rules(load("felli").rules)
    with pytest.raises(UciError, match="only the 24-point boards"):
        engine_rules(load("morris-6").rules)
    with pytest.raises(UciError, match="White starts"):
        engine_rules(load("morabaraba").rules)
    with pytest.raises(UciError, match="threefold repetition or never"):
        engine_rules(load("morris:repetition=2").rules)


def test_the_engine_as_an_agent_plays_legal_moves() -> None:
    rules = load("morris").rules
    agent = UciAgent(ENGINE, rules, seconds=1.0)
    state = state_of()
    try:
        while state.outcome() is None and state.ply < 40:
            move = agent.choose(state)
            assert move.code in state.legal_codes()
            # the engine's choice: the first legal move in the order of its text
            assert str(move) == min(str(m) for m in state.legal_moves)
            state.push(move)
    finally:
        agent.close()
    assert state.ply >= 20 and any("x" in str(m) for m in state.moves)


def test_an_illegal_answer_is_a_clear_error_and_stops_the_engine() -> None:
    agent = UciAgent(ENGINE + " --illegal", load("morris").rules)
    with pytest.raises(UciError, match="illegal move 'a1-g7'"):
        agent.choose(state_of())
    assert agent.engine.pipe.proc.poll() is not None


def test_a_position_not_from_the_empty_board_is_refused() -> None:
    agent = UciAgent(ENGINE, load("morris").rules)
    with pytest.raises(UciError, match="only games from the empty board"):
        agent.choose(state_of(MOVING))


def test_an_engine_that_is_no_engine_is_a_clear_error() -> None:
    with pytest.raises(UciError, match="exited"):
        UciAgent([sys.executable, "-c", "pass"], load("morris").rules)


def test_the_bench_plays_the_test_engine(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    for name, flag in [("engine", ""), ("illegal", " --illegal")]:
        script = tmp_path / name
        script.write_text(
            f"#!/bin/sh\ncd {shlex.quote(str(root))} && "
            f"exec {shlex.quote(sys.executable)} -m tests.support.uci_engine{flag}\n"
        )
        script.chmod(0o755)
    options = engine_rules(load("morris").rules)
    for game in range(2):
        opening = vs_uci_mill.random_opening(random.Random(game))
        ours = Color.WHITE if game % 2 == 0 else Color.BLACK
        row = vs_uci_mill.play(str(tmp_path / "engine"), options, "random", opening, ours, 1.0, 1)
        assert "error" not in row and row["plies"] > 10, (
            row
        )  # each engine move legal, its board ours
        assert row["moves"].startswith(" ".join(opening)) and row["score"] in (0.0, 0.5, 1.0)
    bad = vs_uci_mill.play(str(tmp_path / "illegal"), options, "random", [], Color.BLACK, 1.0, 1)
    assert "illegal move 'a1-g7'" in bad["error"] and "score" not in bad


def test_the_bench_plays_another_rule_set(tmp_path: Path) -> None:
    """``--rules``: Lasker Morris against the test engine playing Lasker Morris (moves while
    placing, ten men), each engine move legal and its board ours; the same engine playing Nine
    Men's Morris is caught by its board (its hands of nine)."""
    root = Path(__file__).resolve().parents[2]
    for name, rules in [("lasker", "morris-lasker"), ("nine", "morris")]:
        script = tmp_path / name
        script.write_text(
            f"#!/bin/sh\ncd {shlex.quote(str(root))} && "
            f"exec {shlex.quote(sys.executable)} -m tests.support.uci_engine --rules {rules}\n"
        )
        script.chmod(0o755)
    options = engine_rules(load("morris-lasker").rules)
    opening = vs_uci_mill.random_opening(random.Random(3), "morris-lasker")
    row = vs_uci_mill.play(
        str(tmp_path / "lasker"), options, "random", opening, Color.WHITE, 1.0, 1, "morris-lasker"
    )
    assert "error" not in row and row["plies"] > 10, row
    assert row["moves"].startswith(" ".join(opening))
    wrong = vs_uci_mill.play(
        str(tmp_path / "nine"), options, "random", opening, Color.WHITE, 1.0, 1, "morris-lasker"
    )
    assert "is not ours" in wrong["error"], wrong


def test_the_bench_plays_a_candidate_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--spec``: the games are played by that spec (here the random player), not the top
    level's, and each record names it."""
    root = Path(__file__).resolve().parents[2]
    script = tmp_path / "engine"
    script.write_text(
        f"#!/bin/sh\ncd {shlex.quote(str(root))} && "
        f"exec {shlex.quote(sys.executable)} -m tests.support.uci_engine\n"
    )
    script.chmod(0o755)
    out = tmp_path / "games.jsonl"
    argv = ["--engine", str(script), "--games", "2", "--spec", "random", "--out", str(out)]
    assert vs_uci_mill.main(argv) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["spec"] for row in rows] == ["random", "random"], rows
    assert "Ludoteca random (top level search:" in capsys.readouterr().out


@pytest.mark.parametrize("rules", ["zhi-qi", "da-san-qi", "el-filja", "dooz"])
def test_removals_alone_are_bare_tokens_and_read_back(rules: str) -> None:
    """A removal that is a turn of its own (El Filja's mill counts, a full board's, a double
    mill's second) is the engine's bare ``xP``, read back where removals are due and refused
    where a move is due; random games round-trip through the engine's tokens."""
    rng = random.Random(rules)
    alone = 0
    for _ in range(6):
        state = load(rules).new()
        assert isinstance(state, MorrisState)
        while state.outcome() is None and state.ply < 80:
            state.push_code(rng.choice(state.legal_codes()))
        moves = list(state.moves)
        for move in moves:
            if move.removal_only:  # type: ignore[attr-defined]
                assert to_uci(move) == [str(move)]
                alone += 1
        tokens = history(moves)
        assert [str(m) for m in from_uci(tokens, load(rules).new())] == [str(m) for m in moves]
    assert alone > 0 or rules != "el-filja"  # El Filja's placing always ends with removals
    filja = load("el-filja").new()
    assert isinstance(filja, MorrisState)
    while not filja.due[filja.turn]:
        filja.push_code(filja.legal_codes()[0])
    removal = filja.move_of(filja.legal_codes()[0])
    assert read_action(filja, str(removal)).move == removal
    with pytest.raises(UciError, match="a man's move where a removal is due"):
        read_action(filja, "d6")
    with pytest.raises(UciError, match="illegal removal"):
        read_action(filja, "xd4")  # no such point


def test_balanced_openings_are_the_random_ones_a_search_scores_near_even() -> None:
    """``--balanced``: the openings played are, in order, those of the plain random draws whose
    score (a fixed-depth search for the side to move) is within the margin; the draws outside
    it are skipped, not replaced by others."""
    margin = 60
    plain, picky = random.Random(5), random.Random(5)
    drawn = [vs_uci_mill.random_opening(plain, "morris-12") for _ in range(6)]
    scores = []
    for opening in drawn:
        state = load("morris-12").new()
        for word in opening:
            state.push(state.parse_move(word))
        scores.append(vs_uci_mill.opening_score(state))
    kept = [o for o, s in zip(drawn, scores, strict=True) if abs(s) <= margin]
    assert kept and len(kept) < len(drawn), scores  # the filter keeps some, drops some
    balanced = [vs_uci_mill.random_opening(picky, "morris-12", margin) for _ in kept]
    assert balanced == kept

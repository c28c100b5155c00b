"""The Felli solver against plain minimax, the perfect player, and ``ludoteca solve``."""

from __future__ import annotations

import random
import time
from functools import cache
from math import factorial
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.perfect import OutOfTime, PerfectAgent
from ludoteca.cli import main
from ludoteca.core import State
from ludoteca.games.felli.rules import Felli, FelliState
from ludoteca.games.felli.solver import FelliTable, index_of, solve

ROWS = ((10, 11, 12), (7, 8, 9), (6,), (3, 4, 5), (0, 1, 2))
COMBOS = ["felli", "felli:forced_capture,multi_capture"]


@pytest.fixture(scope="module", params=COMBOS)
def table(request: pytest.FixtureRequest) -> FelliTable:
    return solve(request.param)


def small_positions(rules: str, count: int, seed: int) -> list[FelliState]:
    """Random positions with one or two men a side, either side to move."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        points = rng.sample(range(13), 4)
        white = points[: rng.randint(1, 2)]
        black = points[2 : 2 + rng.randint(1, 2)]
        board = ["."] * 13
        for p in white:
            board[p] = "w"
        for p in black:
            board[p] = "b"
        rows = "/".join("".join(board[p] for p in row) for row in ROWS)
        out.append(
            Felli.of(
                rules
                + (",repetition=0,move_rule=0" if ":" in rules else ":repetition=0,move_rule=0")
            ).from_position_code(f"{rows} {rng.choice('wb')} 0 10")
        )
    return out


def minimax(state: FelliState) -> tuple[object, object]:
    """``wins(d)``: the mover can force a win within d plies; ``loses(d)``: the opponent can."""

    @cache
    def wins(key: int, d: int) -> bool:
        if d <= 0:
            return False
        for code in state.legal_codes():
            state.push_code(code)
            won = loses(state.position_key(), d - 1)
            state.pop_code()
            if won:
                return True
        return False

    @cache
    def loses(key: int, d: int) -> bool:
        codes = state.legal_codes()
        if not codes:
            return True
        if d <= 0:
            return False
        for code in codes:
            state.push_code(code)
            escaped = not wins(state.position_key(), d - 1)
            state.pop_code()
            if escaped:
                return False
        return True

    return wins, loses


def test_table_agrees_with_minimax(table: FelliTable) -> None:
    horizon = 0
    for state in small_positions(str(table.rules), 400, 1):
        horizon = max(horizon, int(table.lookup(state)[1]))
    horizon += 2
    checked = {1: 0, -1: 0, 0: 0}
    for state in small_positions(str(table.rules), 50, 2):
        value, plies = table.lookup(state)
        wins, loses = minimax(state)
        key = state.position_key()
        if value == 1:
            assert wins(key, plies) and not wins(key, plies - 2), state.position_code()
        elif value == -1:
            assert loses(key, plies) and (plies < 2 or not loses(key, plies - 2)), (
                state.position_code()
            )
        else:
            assert not wins(key, horizon) and not loses(key, horizon), state.position_code()
        checked[value] += 1
    assert all(checked.values()), checked


def test_value_is_consistent_with_children(table: FelliTable) -> None:
    """Every position's value and depth follow from its children's (the Bellman equations)."""
    rng = random.Random(5)
    rules = str(table.rules)
    for _ in range(300):
        state = small_positions(rules, 1, rng.randrange(10**6))[0]
        codes = state.legal_codes()
        value, plies = table.lookup(state)
        if not codes:
            assert (value, plies) == (-1, 0)
            continue
        children = []
        for code in codes:
            state.push_code(code)
            children.append(table.lookup(state))
            state.pop_code()
        if any(v == -1 for v, _ in children):
            assert (value, plies) == (1, 1 + min(d for v, d in children if v == -1))
        elif all(v == 1 for v, _ in children):
            assert (value, plies) == (-1, 1 + max(d for _, d in children))
        else:
            assert value == 0


def test_index_covers_the_start(table: FelliTable) -> None:
    state = Felli.of(table.rules).new()
    assert index_of(state) == sum(3**p for p in range(6)) + 2 * sum(3**p for p in range(7, 13))
    assert table.value.shape == (3**13,) and set(np.unique(table.value)) <= {-1, 0, 1}


@pytest.mark.parametrize("opponent", ["random", "perfect"])
def test_perfect_player_never_gives_value_away(
    opponent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Felli.parse_rules("felli:forced_capture")
    perfect = PerfectAgent(rules, seed=1)
    other = PerfectAgent(rules, seed=2) if opponent == "perfect" else None
    rng = random.Random(3)
    checked = 0
    for game in range(8):
        state = ludoteca.new_game("felli", rules=rules)
        for _ in range(rng.randrange(0, 6)):  # vary the start
            if state.legal_codes():
                state.push_code(rng.choice(state.legal_codes()))
        while state.outcome() is None:
            agent = perfect if state.turn.value == game % 2 else other
            if agent is None:
                state.push_code(rng.choice(state.legal_codes()))
                continue
            before = perfect.evaluate(state)
            state.push(agent.choose(state))
            after = perfect.evaluate(state)
            if state.outcome() is None or after[0] != 0:  # a draw by rule may only help
                assert after[0] == -before[0]
                if before[0]:
                    assert after[1] == before[1] - 1
                checked += 1
    assert checked > 50


def test_perfect_player_keeps_a_drawn_game_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the drawn basic game, between two perfect players, each picks among its drawing
    moves one that lets the fewest replies end the game in a draw by rule, so the game goes on
    far longer than a repetition needs."""
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Felli.parse_rules("felli")
    players = [PerfectAgent(rules, seed=s) for s in (4, 5)]
    state = ludoteca.new_game("felli", rules=rules)
    while state.outcome() is None:
        agent = players[state.turn.value]
        best = max(agent.score(state, c) for c in state.legal_codes())
        fewest = min(
            _drawing_replies(state, c) for c in state.legal_codes() if agent.score(state, c) == best
        )
        move = agent.choose(state)
        assert agent.score(state, move.code) == best
        assert _drawing_replies(state, move.code) == fewest
        state.push(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert len(state.move_stack) > 60


def test_the_perfect_players_look_for_traps_keeps_to_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting traps two plies ahead takes thousands of lookups: given no time, the perfect
    player counts them one ply ahead only (far fewer lookups), still plays a best move, and a
    look past its deadline leaves the position as it was."""
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Felli.parse_rules("felli")
    player = PerfectAgent(rules, seed=6)
    state = ludoteca.new_game("felli", rules=rules)
    assert len(state.legal_codes()) <= 12  # where the player looks two plies ahead
    looked = 0
    score = player.score

    def counted(at: State, code: int) -> tuple[int, int]:
        nonlocal looked
        looked += 1
        return score(at, code)

    monkeypatch.setattr(player, "score", counted)
    best = max(score(state, c) for c in state.legal_codes())
    lookups = {}
    for limit in (Limit(seconds=0.0), None):
        looked = 0
        move = player.choose(state, limit)
        assert score(state, move.code) == best
        lookups[limit is None] = looked
    assert lookups[False] < lookups[True]
    code, before = state.legal_codes()[0], state.position_code()
    with pytest.raises(OutOfTime):
        player.pitfalls(state, code, 2, deadline=time.monotonic() - 1.0)
    assert state.position_code() == before


def _drawing_replies(state: State, code: int) -> int:
    """Replies to ``code`` that end the game drawn (all, plus one, if ``code`` itself does)."""
    child = state.child(state.move_of(code))
    if child.outcome() is not None:
        return 0 if child.outcome().winner is not None else 1000  # type: ignore[union-attr]
    return sum(
        1
        for r in child.legal_codes()
        if (end := child.child(child.move_of(r)).outcome()) and end.winner is None
    )


def test_mullah_table_waits_for_its_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The full Mullah table takes minutes: players use it once ``ludoteca solve`` built it;
    until then the top level searches, and ``perfect`` says how to build it."""
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Felli.parse_rules("felli-mullah")
    with pytest.raises(ludoteca.InvalidRulesError, match="ludoteca solve"):
        PerfectAgent(rules)
    assert Felli.of(rules).ladder[-1].spec == "search:time=1"
    assert main(["solve", "felli", "--rules", "felli-mullah", "--men", "2"]) == 0
    out = capsys.readouterr().out
    assert "at most 2 pieces a side" in out and "value:" not in out  # the start has six
    assert main(["solve", "felli", "--rules", "felli-mullah", "--men", "7"]) == 2


def test_solve_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    assert main(["solve", "felli", "--rules", "felli:forced_capture"]) == 0
    out, err = capsys.readouterr()
    table = solve("felli:forced_capture")
    value, plies = table.lookup(Felli.of("felli:forced_capture").new())
    word = {1: "win", -1: "loss", 0: "draw"}[value]
    assert out.startswith(f"value: {word}")
    assert (f"plies: {plies}\n" in out) == (value != 0)
    counts = table.counts()
    assert f"win {counts['win']}, loss {counts['loss']}, draw {counts['draw']}" in out
    assert "solved in" in out and "ply 1:" in err
    assert list(tmp_path.glob("*.npz"))
    assert main(["solve", "felli", "--rules", "felli:forced_capture"]) == 0
    assert "read from the cache" in capsys.readouterr().out
    assert main(["solve", "felli", "--rules", "felli", "--men", "3"]) == 2
    assert main(["solve", "felli", "--rules", "felli:forced"]) == 2
    assert "unknown setting" in capsys.readouterr().err


def test_counts_are_the_positions_with_at_most_six_a_side(table: FelliTable) -> None:
    counts = table.counts()
    by_formula = sum(
        factorial(13) // (factorial(s) * factorial(n) * factorial(13 - s - n))
        for s in range(7)
        for n in range(7)
    )
    assert counts["positions"] == by_formula == 1_264_173
    assert counts["win"] + counts["loss"] + counts["draw"] == counts["positions"]

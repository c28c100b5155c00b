"""Properties every game must have, checked on random play with hypothesis."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludoteca
from ludoteca import Termination, record
from ludoteca.games import game_names

GAMES = game_names()


def random_walk(name: str, seed: int, plies: int) -> ludoteca.State:
    rng = random.Random(seed)
    state = ludoteca.new_game(name, seed=seed)
    for _ in range(plies):
        codes = state.legal_codes()
        if not codes:
            break
        state.push_code(rng.choice(codes))
    return state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150))
def test_push_pop_restores_the_position(name: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    state = ludoteca.new_game(name, seed=seed)
    trail = []
    for _ in range(plies):
        codes = state.legal_codes()
        if not codes:
            break
        trail.append((state.position_code(), state.position_key(), sorted(codes), state.outcome()))
        state.push_code(rng.choice(codes))
    while trail:
        state.pop()
        code, key, legal, outcome = trail.pop()
        assert state.position_code() == code
        assert state.position_key() == key
        assert sorted(state.legal_codes()) == legal
        assert state.outcome() == outcome


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_codes_and_records_round_trip(name: str, seed: int, plies: int) -> None:
    state = random_walk(name, seed, plies)
    again = state.game.from_position_code(state.position_code())
    assert again.position_code() == state.position_code()
    outcome = state.outcome()
    if outcome is None or outcome.termination is not Termination.THREEFOLD_REPETITION:
        # a position code carries no history, so it cannot know of earlier repetitions
        assert sorted(map(str, again.legal_moves)) == sorted(map(str, state.legal_moves))
    text = record.dumps(state)
    replayed = record.loads(text)
    assert replayed.state.position_code() == state.position_code()
    assert record.dumps(replayed) == text
    assert record.from_json(record.to_json(replayed)).state.position_code() == state.position_code()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_with_a_named_termination(name: str, seed: int) -> None:
    state = random_walk(name, seed, 100_000)
    outcome = state.outcome()
    assert outcome is not None
    assert isinstance(outcome.termination, Termination)
    assert outcome.explain()
    assert state.legal_moves.count() == 0


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_every_legal_move_parses_from_its_notation(name: str, seed: int, plies: int) -> None:
    state = random_walk(name, seed, plies)
    for move in state.legal_moves:
        assert state.parse_move(str(move)) is move
        assert eval(repr(move), vars(__import__(type(move).__module__, fromlist=["*"]))) is move


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_a_moves_gesture_and_notation_depend_on_its_code_alone(
    name: str, seed: int, plies: int
) -> None:
    """As State.gesture promises (the server keeps a move's entry across positions)."""
    state = random_walk(name, seed, plies)
    fresh = state.game.new(seed=0)
    for code in state.legal_codes():
        assert state.gesture(code) == fresh.gesture(code)
        assert str(state.move_of(code)) == str(fresh.move_of(code))


@pytest.mark.parametrize("name", [*GAMES, "morris-lasker", "morris-6", "felli:multi_capture"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150))
def test_action_paths_spell_the_legal_moves_one_way_each(name: str, seed: int, plies: int) -> None:
    state = random_walk(name, seed, plies)
    size = state.game.num_distinct_actions
    paths = [state.action_path(code) for code in state.legal_codes()]
    assert len(set(paths)) == len(paths)
    assert all(path and all(0 <= a < size for a in path) for path in paths)
    whole = set(paths)
    assert not any(path[:k] in whole for path in paths for k in range(1, len(path)))

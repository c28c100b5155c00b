"""Our games through OpenSpiel's Python-game interface."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludoteca
from checks.vector_check import Shadow

from ..support.need import need

pyspiel = need("pyspiel")

from ludoteca.adapters.openspiel import register  # noqa: E402


@pytest.mark.parametrize("name", ["morris", "felli", "morelli"])
def test_random_games_through_openspiel(name: str) -> None:
    game = pyspiel.load_game(register(name))
    assert game.num_distinct_actions() == {"morris": 600, "felli": 169, "morelli": 28561}[name]
    rng = random.Random(2)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions == sorted(actions) and actions
            assert all(0 <= a < game.num_distinct_actions() for a in actions)
            obs = np.array(state.observation_tensor())
            assert obs.shape == (int(np.prod(game.observation_tensor_shape())),)
            state.apply_action(rng.choice(actions))
        outcome = state.engine.outcome()
        assert outcome is not None
        returns = state.returns()
        assert sum(returns) == 0
        if outcome.winner is not None:
            assert returns[int(outcome.winner)] == 1.0


@pytest.mark.parametrize(
    ("rules", "actions", "first"),
    [
        ("morris-6", 16 + 16 * 16, 16),
        ("morris-12", 24 + 24 * 24, 24),
        ("morabaraba", 24 + 24 * 24, 24),
        ("morris-lasker", 24 + 24 * 24, 24),
    ],
)
def test_morris_family_through_openspiel(rules: str, actions: int, first: int) -> None:
    game = pyspiel.load_game(register("morris"), {"rules": rules})
    assert game.num_distinct_actions() == actions
    rng = random.Random(rules)
    state = game.new_initial_state()
    shadow = ludoteca.new_game(rules)
    assert len(state.legal_actions()) == first
    prefix: tuple[int, ...] = ()  # the actions taken of the move in progress
    while not state.is_terminal():
        assert state.current_player() == int(shadow.turn)
        paths = {shadow.action_path(c): c for c in shadow.legal_codes()}
        going_on = sorted({p[len(prefix)] for p in paths if p[: len(prefix)] == prefix})
        assert state.legal_actions() == going_on
        prefix += (rng.choice(going_on),)
        state.apply_action(prefix[-1])
        if prefix in paths:
            shadow.push_code(paths[prefix])
            prefix = ()
    assert state.engine.outcome() == shadow.outcome() is not None


def test_a_mill_is_a_move_then_a_removal_by_the_same_player() -> None:
    game = pyspiel.load_game(register("morris"), {"rules": "morris"})
    state = game.new_initial_state()
    a1, d1, g1, b2, d2, a4 = 0, 1, 2, 3, 4, 9
    for point in (a1, b2, d1, d2):  # White a1, d1; Black b2, d2
        state.apply_action(point)
    assert g1 in state.legal_actions()
    assert state.action_to_string(0, g1) == str(g1)  # the move goes on
    state.apply_action(g1)  # closes a1-d1-g1
    assert state.current_player() == 0  # White removes a man: either of Black's
    assert state.legal_actions() == [b2, d2]
    assert state.action_to_string(0, d2) == "g1xd2"
    state.apply_action(d2)
    assert state.current_player() == 1
    assert state.engine.men[1] == 1 << b2 and len(state.legal_actions()) == 24 - 4
    state.apply_action(a4)  # Black places on a4 (the same action as removing from a4)
    assert state.engine.men[1] == 1 << b2 | 1 << a4


def test_felli_chain_is_one_action_per_leap() -> None:
    code = ".../..././.bb/wb. w 0 10"  # a1xe1xc3xc1 (see the rules tests)
    game = pyspiel.load_game(register("felli"), {"rules": "felli:multi_capture", "position": code})
    state = game.new_initial_state()
    a1, e1, c3, c1 = 0, 2, 6, 1
    assert a1 * 13 + e1 in state.legal_actions()
    state.apply_action(a1 * 13 + e1)
    assert state.current_player() == 0  # the chain goes on
    assert state.legal_actions() == [e1 * 13 + c3]
    state.apply_action(e1 * 13 + c3)
    state.apply_action(c3 * 13 + c1)
    assert state.engine.moves[-1] == ludoteca.games.felli.rules.FelliMove.parse("a1xe1xc3xc1")
    with pytest.raises(Exception, match="not legal"):
        state.clone().apply_action(12 * 13 + 11)


def test_openspiel_mcts_bot_plays_our_games() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(register("felli"))
    bot = mcts.MCTSBot(
        game,
        2.0,
        30,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    action = bot.step(state)
    assert action in state.legal_actions()


@pytest.mark.parametrize(
    "rules", ["felli:multi_capture,forced_capture", "felli-mullah:repetition=2", "morelli-9"]
)
def test_openspiel_states_follow_the_engine(rules: str) -> None:
    game = pyspiel.load_game(register(rules.split("-")[0].split(":")[0]), {"rules": rules})
    shape = game.observation_tensor_shape()
    rng = random.Random(rules)
    for _ in range(4):
        state = game.new_initial_state()
        shadow = Shadow(ludoteca.load(rules).new(seed=0))  # the engine, action by action
        taken: list[int] = []
        while shadow.next_actions():
            assert state.legal_actions() == shadow.next_actions()
            assert state.current_player() == int(shadow.state.turn)
            observed = np.reshape(state.observation_tensor(), shape)
            assert np.array_equal(observed, shadow.observation())
            action = rng.choice(state.legal_actions())
            if len(taken) % 7 == 3:
                state = state.clone()  # a clone goes on from the same point
            state.apply_action(action)
            shadow.take(action)
            taken.append(action)
        outcome = shadow.state.outcome()
        assert state.is_terminal() and outcome is not None
        expected = [0.0, 0.0]
        if outcome.winner is not None:
            expected = [1.0, -1.0] if outcome.winner is ludoteca.Color.WHITE else [-1.0, 1.0]
        assert state.returns() == expected
        assert state.history() == taken and state.move_number() == len(taken)
        assert state.engine.move_stack == shadow.state.move_stack


@pytest.mark.parametrize(
    ("rules", "games"),
    [
        ("morris", 30),
        ("morris-6", 30),
        ("morris-12", 10),
        ("morabaraba", 10),
        ("morris-lasker", 10),
        ("felli", 40),
        ("felli:multi_capture,forced_capture", 40),
        ("felli-mullah:repetition=2", 40),
        ("morelli-9", 4),
    ],
)
def test_kernel_states_agree_with_the_engine_move_for_move(rules: str, games: int) -> None:
    """Seeded random games through pyspiel, the readable engine alongside: at every action the
    same legal actions, player to act and terminal flag, at the end the same returns; a third
    of the actions are taken through OpenSpiel's C++ ``child`` (its own clone and apply)."""
    game = pyspiel.load_game(register(rules.split("-")[0].split(":")[0]), {"rules": rules})
    rng = random.Random(rules)
    for _ in range(games):
        state = game.new_initial_state()
        shadow = Shadow(ludoteca.load(rules).new(seed=0))
        while shadow.next_actions():
            assert not state.is_terminal()
            assert state.legal_actions() == shadow.next_actions()
            assert state.current_player() == int(shadow.state.turn)
            assert state.returns() == [0.0, 0.0]
            action = rng.choice(state.legal_actions())
            if rng.random() < 1 / 3:
                state = state.child(action)
            else:
                state.apply_action(action)
            shadow.take(action)
        outcome = shadow.state.outcome()
        assert outcome is not None and state.is_terminal()
        assert state.current_player() == int(pyspiel.PlayerId.TERMINAL)
        assert state.legal_actions() == []
        expected = [0.0, 0.0]
        if outcome.winner is not None:
            expected[outcome.winner] = 1.0
            expected[outcome.winner.other] = -1.0
        assert state.returns() == expected


def test_legal_actions_are_the_callers_own_and_clones_go_their_own_way() -> None:
    game = pyspiel.load_game(register("morris"))
    state = game.new_initial_state()
    actions = state.legal_actions()
    actions.clear()
    assert len(state.legal_actions()) == 24
    first, second = state.legal_actions()[:2]
    clone = state.clone()
    clone.apply_action(first)
    state.apply_action(second)
    assert clone.history() == [first] and state.history() == [second]
    assert first in state.legal_actions() and second not in state.legal_actions()
    assert second in clone.legal_actions() and first not in clone.legal_actions()
    with pytest.raises(TypeError):
        state.apply_action(2.5)

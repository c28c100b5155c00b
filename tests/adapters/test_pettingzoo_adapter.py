"""Our games as PettingZoo environments: PettingZoo's own API test, masks that match the
engine, Felli chains one action per leap, rewards at the end, illegal actions refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ..support.need import need

pettingzoo = need("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import ludoteca  # noqa: E402
from ludoteca.adapters.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("rules", ["morris", "felli:multi_capture", "morelli-9"])
def test_pettingzoo_api_test(rules: str) -> None:
    api_test(env(rules), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize(
    "rules", ["morris", "morris-6", "morabaraba", "morris-lasker", "felli", "morelli-9"]
)
def test_random_games_follow_the_engine(rules: str) -> None:
    rng = random.Random(rules)
    for game in range(3):
        environment = env(rules)
        environment.reset(seed=game)
        shadow = ludoteca.new_game(rules, seed=game)  # the same game, played move by move
        steps = 0
        prefix: tuple[int, ...] = ()  # the actions taken of the move in progress
        for agent in environment.agent_iter(max_iter=2000):
            observation, reward, done, truncated, _ = environment.last()
            if done:
                outcome = shadow.outcome()
                assert outcome is not None and not truncated
                expected = (
                    0.0
                    if outcome.winner is None
                    else (1.0 if agent == outcome.winner.name.lower() else -1.0)
                )
                assert reward == expected
                environment.step(None)
                continue
            assert agent == shadow.turn.name.lower()
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            moves = {shadow.action_path(c): c for c in shadow.legal_codes()}
            assert legal == sorted({p[len(prefix)] for p in moves if p[: len(prefix)] == prefix})
            prefix += (rng.choice(legal),)
            environment.step(prefix[-1])
            if prefix in moves:
                shadow.push_code(moves[prefix])
                prefix = ()
            steps += 1
        assert steps > 5 and not environment.agents


def test_felli_chain_is_one_action_per_leap_and_illegal_actions_change_nothing() -> None:
    code = ".../..././.bb/wb. w 0 10"  # a1xe1xc3xc1 with multi_capture
    environment = env("felli", rules="felli:multi_capture", position=code)
    environment.reset()
    a1, e1, c3, c1 = 0, 2, 6, 1
    with pytest.raises(ValueError, match="not legal"):
        environment.step(12 * 13 + 11)
    assert environment.agent_selection == "white"
    environment.step(a1 * 13 + e1)
    assert environment.agent_selection == "white"  # the chain goes on
    mask = environment.observe("white")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [e1 * 13 + c3]
    environment.step(e1 * 13 + c3)
    environment.step(c3 * 13 + c1)
    assert str(environment.cursor.engine.moves[-1]) == "a1xe1xc3xc1"
    assert environment.agent_selection == "black"

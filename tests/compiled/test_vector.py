"""The batched environments: step for step like the readable engine (masks, observations,
endings, rewards, automatic resets; ``checks/vector_check.py``, which
``bench/vector_check.py`` runs on 10,000 games a rule set), deterministic under a seed whatever
the threads, and illegal actions refused without a change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ludoteca
import ludoteca.games
from checks.vector_check import follow
from ludoteca.compiled import batch, warm
from ludoteca.compiled.dispatch import fingerprint
from ludoteca.vector import VectorEnv

from ..support.need import need

#: every rule set the registry offers, with the ply limit a rule set needs to end its games
#: within the test's budget; plus option settings that change what the kernel does
EVERY_RULE_SET = [
    (definition.name, {"max_plies": 40} if definition.name == "morris-lasker" else {})
    for name in ludoteca.games.game_names()
    for definition in ludoteca.family(name).rule_sets
]


@pytest.mark.parametrize(
    ("spec", "options"),
    [*EVERY_RULE_SET, ("felli:multi_capture,forced_capture", {})],
)
def test_the_batch_follows_the_engine(spec: str, options: dict[str, int]) -> None:
    ended, steps = follow(spec, 12, envs=6, seed=3, **options)
    assert ended.total() >= 12 and steps > 12
    assert ended["truncated"] == 0 or "max_plies" in options
    ended, _ = follow(spec, 8, envs=3, seed=4, policy="numpy", **options)
    assert ended.total() >= 8


def test_draw_rules_and_truncation_end_games_as_the_engine_does() -> None:
    # short limits so that repetitions, the move rule and the ply limit all happen
    ended, _ = follow("felli:repetition=2,move_rule=12", 40, envs=8, seed=1, max_plies=25)
    assert ended["THREEFOLD_REPETITION"] and ended["MOVE_RULE"] and ended["truncated"]


def test_random_setups_come_from_the_seed() -> None:
    env = VectorEnv("morelli-9", 4, setups=8)
    env.reset(seed=5)
    assert len({s.position_code() for s in env.setups}) == 8
    other = VectorEnv("morelli-9", 4, setups=8)
    other.reset(seed=5)
    assert [s.position_code() for s in other.setups] == [s.position_code() for s in env.setups]
    fixed = VectorEnv("morris", 2)
    fixed.reset(seed=5)
    assert len(fixed.setups) == 1


def _trajectory(threads: int, seed: int) -> list[np.ndarray]:
    env = VectorEnv("felli", 8, threads=threads)
    obs, mask = env.reset(seed)
    seen = [obs.copy(), mask.copy()]
    for _ in range(150):
        obs, mask, rewards, terminated, _ = env.step(env.random_actions())
        seen += [obs.copy(), mask.copy(), rewards.copy(), terminated.copy(), env.setup]
    env.close()
    return seen


def test_a_seed_fixes_every_game_whatever_the_threads() -> None:
    one, two, other = _trajectory(1, 7), _trajectory(2, 7), _trajectory(1, 8)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(one, other, strict=True))
    assert sum(int(t.sum()) for t in one[5::5]) > 8  # games ended and started again


@pytest.mark.parametrize("threads", [1, 2])
def test_an_illegal_action_is_refused_and_changes_nothing(threads: int) -> None:
    env = VectorEnv("morris", 3, threads=threads)
    obs, mask = env.reset(seed=0)
    before = obs.copy(), mask.copy()
    draws = env.random_actions().copy()
    assert all(mask[i, a] for i, a in enumerate(draws))
    actions = draws.copy()
    actions[2] = 24  # a man moving from a1 to a1: never legal (in the second thread's share)
    with pytest.raises(ValueError, match="not legal in game 2"):
        env.step(actions)
    assert np.array_equal(obs, before[0]) and np.array_equal(mask, before[1])
    assert env.plies.tolist() == [0, 0, 0]
    assert np.array_equal(env.random_actions(), draws)
    assert mask.shape == (3, ludoteca.load("morris").num_distinct_actions)
    assert obs.shape == (3, 5, 24)


def test_the_gymnasium_vector_environment_rewards_the_actor() -> None:
    need("gymnasium")
    from ludoteca.adapters.gymnasium import VectorGame

    env = VectorGame("felli", 6)
    obs, info = env.reset(seed=2)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    ended = 0
    for _ in range(300):
        actor = info["to_play"]
        legal = [np.flatnonzero(row) for row in obs["action_mask"]]
        actions = np.array([row[len(row) // 2] for row in legal])
        obs, reward, terminated, _, info = env.step(actions)
        assert reward.tolist() == info["rewards"][np.arange(6), actor].tolist()
        assert (reward[~terminated] == 0).all()
        ended += int(terminated.sum())
    assert ended > 6 and env.action_space.shape == (6,)
    env.close()


def test_warming_a_game_keeps_its_batch_drivers_compiled_code() -> None:
    """``compiled.warm`` (every server worker's start) deletes the cache files of earlier
    sources only: the batch drivers' current files stay, so they are not compiled again."""
    game = ludoteca.load("felli")
    VectorEnv("felli", 2).reset(seed=0)
    kernel = game.kernel
    assert kernel is not None
    mark = f"_{kernel.name}_{fingerprint(kernel.name, batch.__name__)}-"
    cache = Path(batch.__file__).parent / "__pycache__"
    before = sorted(p.name for p in cache.glob("batch.*") if mark in p.name)
    assert before  # the batch drivers were compiled and cached for this kernel
    warm(game)
    assert sorted(p.name for p in cache.glob("batch.*") if mark in p.name) == before

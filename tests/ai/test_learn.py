"""The learning example's loop (ludoteca.learn): the network's gradients, a reduced seeded
self-play run that turns a policy no better than random into one that beats a random player,
checkpoints that resume bit for bit, and trained networks as agent specs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ludoteca.ai import make_agent
from ludoteca.ai.tournament import play_game
from ludoteca.core import LudotecaError
from ludoteca.games import load
from ludoteca.learn.evaluate import Score, policy_against_random
from ludoteca.learn.net import Batch, PolicyValueNet
from ludoteca.learn.train import Config, Trainer

#: the reduced run: a few seconds of a core
REDUCED = Config(
    rules="felli",
    seed=4,
    hidden=(64, 64),
    games=32,
    simulations=8,
    max_plies=100,
    epochs=10,
    lr=3e-3,
    value_scale=0.3,
)
ITERATIONS = 2
GAMES = 100
#: the network of the full run (docs/research.md)
TRAINED = Path(__file__).parents[2] / "examples" / "felli-net.npz"


def test_gradients_are_the_losses_derivatives() -> None:
    """The manual backward pass against central finite differences, in float64."""
    rng = np.random.default_rng(0)
    net = PolicyValueNet("felli", 7, 5, (6, 4), seed=1)
    for key, value in net.params.items():
        net.params[key] = value.astype(np.float64) + rng.standard_normal(value.shape) * 0.3
    mask = rng.random((9, 5)) < 0.6
    mask[:, 0] = True
    policy = rng.random((9, 5)) * mask
    batch = Batch(
        rng.standard_normal((9, 7)),
        mask,
        policy / policy.sum(1, keepdims=True),
        rng.uniform(-1, 1, 9),
    )

    def loss() -> float:
        return sum(net.gradients(batch, 0.01)[1].values())

    grads, _ = net.gradients(batch, 0.01)
    for key, value in net.params.items():
        for index in np.ndindex(value.shape):
            old = value[index]
            value[index] = old + 1e-6
            up = loss()
            value[index] = old - 1e-6
            down = loss()
            value[index] = old
            assert (up - down) / 2e-6 == pytest.approx(grads[key][index], rel=1e-5, abs=1e-8)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Trainer, Score]:
    """The reduced run, and its untrained network's policy against random."""
    trainer = Trainer(tmp_path_factory.mktemp("run"), REDUCED)
    before = policy_against_random(trainer.net, GAMES, seed=11)
    trainer.run(ITERATIONS)
    return trainer, before


def test_self_play_teaches_the_policy_to_beat_random(trained: tuple[Trainer, Score]) -> None:
    """A score of 0.9 or more with hardly a loss, which the untrained network does not reach
    (what the trained policy does not win are draws by repetition: the policy alone cannot see
    the positions before; the full run's network wins nine games in ten, below)."""
    trainer, before = trained
    after = policy_against_random(trainer.net, GAMES, seed=11)

    def beats(score: Score) -> bool:
        return score.score >= 0.9 and score.losses <= 0.05 * GAMES

    assert not beats(before) and before.wins < 0.9 * GAMES, before
    assert beats(after), after
    assert [h.games for h in trainer.history] == [REDUCED.games] * ITERATIONS


def test_a_resumed_run_is_the_run_never_stopped(tmp_path: Path) -> None:
    tiny = Config(rules="felli", seed=5, hidden=(16,), games=4, simulations=2, max_plies=30)
    whole = Trainer(tmp_path / "whole", tiny)
    whole.run(2)
    Trainer(tmp_path / "stopped", tiny).run(1)
    resumed = Trainer.resume(tmp_path / "stopped")
    assert resumed.config == tiny and resumed.iteration == 1
    resumed.run(2)
    for key, value in whole.net.params.items():
        assert np.array_equal(resumed.net.params[key], value), key
    assert resumed.history[1].positions == whole.history[1].positions
    assert resumed.adam.t == whole.adam.t
    with pytest.raises(LudotecaError, match="no training checkpoint"):
        Trainer.resume(tmp_path / "nothing")


def test_the_full_runs_policy_beats_random_nine_games_in_ten() -> None:
    net = PolicyValueNet.load(TRAINED)
    assert net.rules == "felli"
    score = policy_against_random(net, GAMES * 2, seed=12)
    assert score.wins >= 0.9 * score.games, score


@pytest.mark.parametrize("sims", [0, 4])
def test_a_saved_network_plays_legal_moves_as_an_agent_spec(
    trained: tuple[Trainer, Score], tmp_path: Path, sims: int
) -> None:
    path = tmp_path / "net.npz"
    trained[0].net.save(path)
    assert np.array_equal(PolicyValueNet.load(path).params["wp"], trained[0].net.params["wp"])
    spec = f"net[sims={sims}]:{path}"
    for pair in ((spec, "random"), ("random", spec)):
        result = play_game("felli", "felli", pair, (0, 1), seed=sims, setup_seed=0)
        assert result.failure is None  # every move was pushed through the engine's check
        assert result.plies > 0


def test_capture_chains_are_searched_one_leap_at_a_time(tmp_path: Path) -> None:
    """A network of the chains' rule set plays whole chains, each move legal in the engine."""
    rules = load("felli:forced_capture,multi_capture").rules
    net = PolicyValueNet(str(rules), 65, 169, (8,), seed=2)
    net.save(tmp_path / "chains.npz")
    agent = make_agent(f"net[sims=3]:{tmp_path / 'chains.npz'}", rules, seed=1)
    state = load(rules).new()
    chains = 0
    while state.outcome() is None and state.ply < 120:
        move = agent.choose(state)
        assert move.code in state.legal_codes()
        chains += len(state.action_path(move.code)) > 1
        state.push(move)
    assert chains > 0


def test_bad_network_specs_are_refused_with_a_reason(tmp_path: Path) -> None:
    rules = load("felli").rules
    PolicyValueNet("felli:multi_capture", 65, 169, (4,)).save(tmp_path / "other.npz")
    (tmp_path / "junk.npz").write_text("not a network")
    for spec, reason in [
        (f"net:{tmp_path / 'other.npz'}", "plays felli:multi_capture, not felli"),
        (f"net:{tmp_path / 'junk.npz'}", "cannot read a network"),
        (f"net:{tmp_path / 'missing.npz'}", "cannot read a network"),
        (f"net[depth=2]:{tmp_path / 'other.npz'}", "net:PATH or net\\[sims=N\\]:PATH"),
        (f"net[sims=x]:{tmp_path / 'other.npz'}", "sims takes a whole number"),
        ("net:", "net:PATH or net\\[sims=N\\]:PATH"),
    ]:
        with pytest.raises(LudotecaError, match=reason):
            make_agent(spec, rules)

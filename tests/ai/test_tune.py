"""Tuning an evaluation's weights (:mod:`ludoteca.ai.tune`): the fit finds known weights in
synthetic data; a kernel's evaluation is its weights times its features, and the Morris
family's hand-set weights evaluate as before they were data; ``ludoteca tune`` fits a small
games file in seconds and writes the rule set's entry beside the others."""

from __future__ import annotations

import json
import lzma
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ludoteca import record
from ludoteca.ai import tune
from ludoteca.cli import main
from ludoteca.compiled.registry import functions
from ludoteca.core import Game, State
from ludoteca.games import family, game_names, load
from ludoteca.games.morris import Morris
from ludoteca.games.morris import kernel as morris_kernel

TUNABLE = [
    d.name
    for g in game_names()
    for d in family(g).rule_sets
    if (kernel := load(d.name).kernel) is not None and kernel.weights
]


def _positions(game: Game, games: int, seed: int) -> Iterator[State]:
    """Every position of ``games`` seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new()
        while state.outcome() is None:
            yield state
            state.push_code(rng.choice(state.legal_codes()))


def test_the_fit_finds_known_weights() -> None:
    rng = np.random.default_rng(3)
    features = rng.integers(-4, 5, size=(4000, 4)).astype(np.float64)
    features[:, 3] = 0  # a feature no position has keeps its weight
    truth, scale = np.array([100.0, 30.0, -24.0, 0.0]), 0.004
    labels = 1 / (1 + np.exp(-scale * (features @ truth)))
    sample = tune.Sample(features, labels, 1)
    assert tune.fit_scale(sample, truth) == pytest.approx(scale, rel=1e-3)
    fitted = tune.fit_weights(sample, np.array([50.0, 0.0, 0.0, 7.0]), scale)
    assert fitted == pytest.approx([100.0, 30.0, -24.0, 7.0], abs=0.01)
    assert tune.error(sample, fitted, scale) < 1e-9


@pytest.mark.parametrize("rules", TUNABLE)
def test_the_evaluation_is_the_weights_times_the_features(rules: str) -> None:
    game = load(rules)
    kernel = game.kernel
    assert kernel is not None
    found = functions(kernel.name)
    weights = np.array([w for _, w in kernel.weights], dtype=np.float64)
    row = np.zeros(len(weights))
    for state in _positions(game, 10, 7):
        st = kernel.pack(state)
        found["features"](st, kernel.prm, row)
        assert found["evaluate"](st, kernel.prm) == int(row @ weights)


#: the count, sum and sum of squares of the hand-set evaluation (before the weights were data)
#: over the positions of ten seeded random games
HAND_SET = {
    "morris": (795, 5436, 91325856),
    "morris-6": (587, 314, 15616652),
    "morris-12": (634, -2952, 76133912),
    "morris-lasker": (819, 3478, 81523036),
}


@pytest.mark.parametrize("rules", sorted(HAND_SET))
def test_the_default_weights_evaluate_as_the_hand_set_ones(
    rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "none.json").write_text("{}")
    monkeypatch.setattr(morris_kernel, "WEIGHTS_FILE", tmp_path / "none.json")
    game = Morris.of(rules)
    kernel = morris_kernel.kernel(game)
    assert dict(kernel.weights) == dict(kernel.base_weights) == morris_kernel.DEFAULT_WEIGHTS
    values = [morris_kernel.evaluate(kernel.pack(s), kernel.prm) for s in _positions(game, 10, 7)]
    assert (len(values), sum(values), sum(v * v for v in values)) == HAND_SET[rules]


def test_a_rule_set_plays_with_its_weights_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "weights.json"
    table.write_text(json.dumps({"morris-6": {"weights": {"man": 90, "step": 11}}}))
    monkeypatch.setattr(morris_kernel, "WEIGHTS_FILE", table)
    six = dict(morris_kernel.kernel(Morris.of("morris-6")).weights)
    assert six == {**morris_kernel.DEFAULT_WEIGHTS, "man": 90, "step": 11}
    assert dict(morris_kernel.kernel(Morris.of("morris")).weights) == morris_kernel.DEFAULT_WEIGHTS
    table.write_text(json.dumps({"morris": {"weights": {"men": 90}}}))
    with pytest.raises(ValueError, match="not man, mill"):
        morris_kernel.kernel(Morris.of("morris"))


def _games_file(path: Path, rules: str, games: int) -> None:
    """A file as ``ludoteca sprt`` writes: a header line, then seeded random games to their
    end (and one forfeit, passed over)."""
    game = load(rules)
    rng = random.Random(11)
    lines = [json.dumps({"sprt": {"game": game.name}})]
    for n in range(games):
        state = game.new()
        while state.outcome() is None:
            state.push_code(rng.choice(state.legal_codes()))
        text = record.dumps(state)
        lines.append(json.dumps({"pair": n, "failure": None, "record": text}))
    lines.append(json.dumps({"pair": games, "failure": "timeout", "record": text}))
    path.write_text("\n".join(lines) + "\n")


def test_the_command_fits_a_small_games_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games, out = tmp_path / "games.jsonl", tmp_path / "weights.json"
    _games_file(games, "morris", 30)
    out.write_text(json.dumps({"morris-6": {"weights": {"man": 1}}}))
    command = ["tune", "morris", "--games", str(games), "--out", str(out), "--holdout", "0.3"]
    assert main(command) == 0
    said = capsys.readouterr().out
    assert "held-out error" in said and f"weights written to {out}" in said
    table = json.loads(out.read_text())
    assert table["morris-6"] == {"weights": {"man": 1}}
    fit = table["morris"]["fit"]
    assert list(table["morris"]["weights"]) == list(morris_kernel.FEATURES)
    assert fit["games"]["train"] + fit["games"]["held_out"] == 30
    assert fit["positions"]["train"] > 100
    assert fit["error"]["train"]["after"] <= fit["error"]["train"]["before"]
    first = out.read_text()
    monkeypatch.setattr(morris_kernel, "WEIGHTS_FILE", out)  # now played with the tuned ones
    monkeypatch.delitem(load("morris").__dict__, "kernel", raising=False)
    assert dict(load("morris").kernel.weights) == table["morris"]["weights"]  # type: ignore[union-attr]
    assert main(command) == 0
    assert out.read_text() == first  # the same files and settings, the same weights


def test_the_command_wants_games_of_the_rule_set(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    _games_file(games, "morris-6", 2)
    assert main(["tune", "morris", "--games", str(games), "--out", str(tmp_path / "w")]) == 2
    assert not (tmp_path / "w").exists()


def test_a_games_file_compressed_with_xz_reads_as_the_plain_one(tmp_path: Path) -> None:
    plain, packed = tmp_path / "games.jsonl", tmp_path / "games.jsonl.xz"
    _games_file(plain, "morris", 4)
    packed.write_bytes(lzma.compress(plain.read_bytes()))
    games = [record.dumps(game.state) for game in tune.read_games([plain])]
    assert len(games) == 4
    assert [record.dumps(game.state) for game in tune.read_games([packed])] == games

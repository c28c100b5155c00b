"""The pentanomial GSPRT (ludoteca.ai.sprt) against values computed another way, and SPRT matches
(ludoteca.ai.sprt_runner, ludoteca.ai.versions, ``ludoteca sprt``) between agents and between
git versions of the engine."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from ludoteca import record
from ludoteca.ai import sprt
from ludoteca.ai.sprt_runner import Match, Player, run_sprt, summary_path
from ludoteca.ai.versions import WORK, checkout, engine_spec, warm_up
from ludoteca.cli import main
from ludoteca.core import LudotecaError
from ludoteca.games import load

A = np.array(sprt.SCORES)


def first_record(text: str) -> record.GameRecord:
    return next(iter(record.read_games(iter(text.splitlines(True)))))


def direct_mle(counts: list[float], constraint: object) -> np.ndarray:
    """The distribution over the five pair kinds maximising sum n_i log p_i subject to
    ``constraint(p) = 0`` and sum p = 1, by a general constrained optimiser (SLSQP)."""
    n = np.array(counts, dtype=float)
    result = minimize(
        lambda p: -float(n @ np.log(p)) / n.sum(),
        x0=np.full(5, 0.2),
        method="SLSQP",
        bounds=[(1e-12, 1.0)] * 5,
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1},
            {"type": "eq", "fun": constraint},
        ],
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    assert result.success, result.message
    return np.asarray(result.x)


def direct_llr(counts: list[int], elo0: float, elo1: float, model: str) -> float:
    n = [c if c > 0 else sprt.EPSILON for c in counts]  # the same regularisation as defined

    def constraint(elo: float) -> object:
        if model == "logistic":
            s = 1 / (1 + 10 ** (-elo / 400))
            return lambda p: p @ A - s
        c = math.sqrt(2) * elo * math.log(10) / 800

        def normalised(p: np.ndarray) -> float:
            mu = p @ A
            return float(mu - 0.5 - c * np.sqrt(p @ (A - mu) ** 2))

        return normalised

    p0, p1 = (direct_mle(n, constraint(e)) for e in (elo0, elo1))
    return float(np.array(n) @ (np.log(p1) - np.log(p0)))


CASES = [
    [13, 37, 50, 25, 3],
    [2, 10, 30, 12, 4],
    [0, 3, 20, 6, 1],
    [5, 0, 9, 0, 7],
    [1, 1, 1, 1, 1],
]


@pytest.mark.parametrize("counts", CASES)
@pytest.mark.parametrize(("model", "elo0", "elo1"), [("normalized", 0, 5), ("logistic", -3, 8)])
def test_llr_agrees_with_a_direct_numerical_maximum_likelihood(
    counts: list[int], model: sprt.Model, elo0: float, elo1: float
) -> None:
    assert sprt.llr(counts, elo0, elo1, model) == pytest.approx(
        direct_llr(counts, elo0, elo1, model), abs=2e-6
    )


def test_llr_and_estimates_agree_with_a_published_fishtest_style_computation() -> None:
    # montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712: pentanomial [13, 37, 50, 25,
    # 3], normalised bounds [0, 4] (logistic 0 to 2.716 at that variance); its "Normalized
    # (exact)" LLR -0.54912, "Logistic (exact)" -0.53772, Elo -43.6578, normalised Elo -63.97
    counts = [13, 37, 50, 25, 3]
    assert sprt.llr(counts, 0, 4, "normalized") == pytest.approx(-0.54912, abs=1e-5)
    assert sprt.llr(counts, 0, 2.716, "logistic") == pytest.approx(-0.53772, abs=2e-4)
    found = sprt.estimate(counts)
    assert found.score == pytest.approx(0.4375)
    assert found.elo == pytest.approx(-43.6578, abs=1e-4)
    assert found.nelo == pytest.approx(-63.97, abs=0.01)
    assert found.elo_interval[0] < found.elo < found.elo_interval[1] < 0


def test_the_hypotheses_constrain_the_distributions_they_give() -> None:
    freq = [x / 128 for x in (13, 37, 50, 25, 3)]
    p = sprt.mle_score(freq, 0.55)
    assert sum(p) == pytest.approx(1) and float(np.array(p) @ A) == pytest.approx(0.55)
    q = np.array(sprt.mle_normalized(freq, 0.2))
    mu = q @ A
    assert q.sum() == pytest.approx(1)
    assert (mu - 0.5) / (math.sqrt(2) * math.sqrt(q @ (A - mu) ** 2)) == pytest.approx(0.2)


def test_llr_is_zero_between_equal_hypotheses_and_mirrors_with_the_colours_of_the_result() -> None:
    counts = [3, 8, 20, 11, 2]
    for model in ("normalized", "logistic"):
        assert sprt.llr(counts, 5, 5, model) == pytest.approx(0, abs=1e-12)
        assert sprt.llr(counts[::-1], -5, -0.0, model) == pytest.approx(
            sprt.llr(counts, 5, 0, model), abs=1e-9
        )


def test_all_wins_climb_at_the_rate_of_the_two_point_distribution() -> None:
    # With every pair won 2-0 the likeliest distribution of each hypothesis lives on 0 and 1:
    # P(1) = s under logistic Elo; (q - 1/2) = c sqrt(q (1 - q)), q = 1/2 + c / (2 sqrt(1 + c^2))
    # with c = sqrt(2) t under normalised Elo.  The LLR per pair is log(q1 / q0).
    s1 = 1 / (1 + 10 ** (-5 / 400))
    c1 = math.sqrt(2) * 5 * math.log(10) / 800
    q1 = 0.5 + c1 / (2 * math.sqrt(1 + c1**2))
    for pairs in (10, 100, 1000):
        counts = [0, 0, 0, 0, pairs]
        assert sprt.llr(counts, 0, 5, "logistic") == pytest.approx(
            pairs * math.log(s1 / 0.5), rel=1e-3
        )
        assert sprt.llr(counts, 0, 5, "normalized") == pytest.approx(
            pairs * math.log(q1 / 0.5), rel=1e-3
        )
        assert sprt.llr([pairs, 0, 0, 0, 0], 0, 5, "logistic") < 0


def test_all_draws_say_nothing_under_h0_and_lean_to_it_against_h1() -> None:
    for model in ("normalized", "logistic"):
        values = [sprt.llr([0, 0, n, 0, 0], 0, 5, model) for n in (10, 100, 1000, 100_000)]
        assert all(v < 0 for v in values)
        assert values == sorted(values, reverse=True)
        assert sprt.decide(values[-1], sprt.llr_bounds(0.05, 0.05)) == "H0"
        assert sprt.llr([0, 0, 10, 0, 0], -5, 5, model) == pytest.approx(0, abs=1e-9)
    found = sprt.estimate([0, 0, 7, 0, 0])
    assert found.score == 0.5 and found.elo == 0 and found.nelo == 0


def test_the_decision_thresholds() -> None:
    low, high = sprt.llr_bounds(0.05, 0.05)
    assert (low, high) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt.llr_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert sprt.decide(high, (low, high)) == "H1"
    assert sprt.decide(low, (low, high)) == "H0"
    assert sprt.decide(high - 1e-9, (low, high)) is None
    assert sprt.decide(low + 1e-9, (low, high)) is None
    # all wins cross the upper bound after log(19) / log(s1 / s0) pairs, up to the regularisation
    first = next(
        n
        for n in range(1, 1000)
        if sprt.decide(sprt.llr([0, 0, 0, 0, n], 0, 5, "logistic"), (low, high))
    )
    assert abs(first - high / math.log(2 / (1 + 10 ** (-5 / 400)))) <= 1.5
    with pytest.raises(ValueError):
        sprt.llr_bounds(0.6, 0.5)


def test_pair_kinds_and_elo_conversions() -> None:
    assert [sprt.pair_kind(x) for x in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        sprt.pair_kind(0.75)
    assert sprt.logistic_elo(sprt.logistic_score(123.0)) == pytest.approx(123.0)
    assert sprt.logistic_score(400) == pytest.approx(10 / 11)


STRONG = Match("felli", "felli", elo0=0, elo1=200, model="logistic", max_games=40)


def test_a_much_stronger_agent_is_accepted_within_a_bounded_number_of_games(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    weak, strong = Player("random", "random"), Player("search:depth=2", "search:depth=2")
    seen: list[int] = []
    status = run_sprt(STRONG, weak, strong, out, progress=lambda s: seen.append(s.pairs))
    assert status.verdict == "H1"
    assert status.pairs * 2 <= 40 and seen == list(range(1, status.pairs + 1))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    header, games = lines[0], lines[1:]
    assert header["base"]["spec"] == "random" and header["sprt"]["elo1"] == 200
    assert len(games) == 2 * status.pairs
    assert sum(g["score"] for g in games) == status.wins + status.draws / 2
    by_pair: dict[int, list[dict]] = {}
    for g in games:
        by_pair.setdefault(g["pair"], []).append(g)
    for pair in by_pair.values():  # the same opening, the new player White in game 0 only
        first, second = sorted(pair, key=lambda g: g["game"])
        assert first["new_white"] and not second["new_white"]
        a, b = (first_record(g["record"]) for g in pair)
        assert a.moves[: STRONG.plies] == b.moves[: STRONG.plies]
    summary = json.loads(summary_path(out).read_text())
    assert summary["verdict"] == "H1" and sum(summary["pentanomial"]) == status.pairs

    # cut after three games: resuming replays them, plays the rest and decides alike
    again = tmp_path / "again.jsonl"
    again.write_text("\n".join(out.read_text().splitlines()[:4]) + "\n")
    resumed = run_sprt(STRONG, weak, strong, again, resume=True)
    assert (resumed.verdict, resumed.counts, resumed.llr) == (
        status.verdict,
        status.counts,
        status.llr,
    )
    assert again.read_text() == out.read_text()
    with pytest.raises(LudotecaError, match="exists"):
        run_sprt(STRONG, weak, strong, again)
    with pytest.raises(LudotecaError, match="other settings"):
        run_sprt(STRONG, strong, weak, again, resume=True)


def test_the_command_runs_an_sprt_between_agent_specs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli.jsonl"
    args = ["sprt", "felli", "--base-agent", "random", "--new-agent", "search:depth=2"]
    args += ["--model", "logistic", "--elo1", "200", "--max-games", "40", "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "LLR" in text and "pentanomial" in text and "H1 accepted" in text
    assert main([*args[:-2], "--max-games", "2", "--out", str(tmp_path / "two.jsonl")]) == 0
    assert "max games reached (2)" in capsys.readouterr().out


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding a copy of this package, committed, with a branch at HEAD."""
    root = tmp_path / "repo"
    package = Path(__file__).resolve().parents[2] / "ludoteca"
    shutil.copytree(package, root / "ludoteca", ignore=shutil.ignore_patterns("__pycache__"))
    for command in (
        ["init", "-q"],
        ["add", "ludoteca"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "copy"],
        ["branch", "same"],
    ):
        subprocess.run(["git", *command], cwd=root, check=True)
    return root


def test_two_versions_play_through_the_engine_protocol(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    base, new = checkout("HEAD", cache / "a", repo), checkout("same", cache / "b", repo)
    assert base.commit == new.commit and base.path != new.path
    for version in (base, new):
        assert (version.path / "ludoteca" / "__init__.py").exists()
    again = checkout("same", cache / "a", repo)  # the worktree of that commit, reused
    assert again.path == base.path and again.commit == base.commit
    work = checkout(WORK, cache, repo)
    assert work.path == repo and work.commit == base.commit and not work.dirty
    with pytest.raises(LudotecaError, match="not a commit"):
        checkout("no-such-ref", cache, repo)
    agent = "search:depth=1,python=1"
    rules = load("felli").rules
    warm_up(base, rules, agent)
    with pytest.raises(LudotecaError, match="unknown player"):
        warm_up(new, rules, "grandmaster")
    players = [Player(v.ref, engine_spec(v, agent), v.commit) for v in (base, new)]
    match = Match("felli", "felli", max_games=2)
    out = tmp_path / "versions.jsonl"
    status = run_sprt(match, players[0], players[1], out)
    assert status.verdict == "max games" and status.pairs == 1 and status.forfeits == 0
    games = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert len(games) == 2
    for game in games:
        parsed = first_record(game["record"])
        white, black = parsed.tags["White"], parsed.tags["Black"]
        assert {str(base.path) in white, str(new.path) in white} == {True, False}
        assert str(base.path) in white + black and str(new.path) in white + black


def test_each_version_may_play_its_own_agent_spec(tmp_path: Path) -> None:
    out = tmp_path / "plays.jsonl"
    args = [
        "sprt",
        "felli",
        "--base",
        "WORK",
        "--new",
        "WORK",
        "--agent",
        "search:depth=1,python=1",
    ]
    args += ["--new-plays", "search:depth=2,python=1", "--max-games", "2", "--out", str(out)]
    assert main(args) == 0
    header = json.loads(out.read_text().splitlines()[0])
    assert header["base"]["spec"].startswith("engine[search:depth=1,python=1]:")
    assert header["new"]["spec"].startswith("engine[search:depth=2,python=1]:")
    games = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert len(games) == 2 and all(g["failure"] is None for g in games)

"""Long jobs on a Ray cluster (``ludoteca.jobs``): a throw-away cluster of a head and a worker
node, started once for the module, runs a tournament, an SPRT match and a table build (stopped
halfway and resumed from its checkpoint), each giving exactly what the local run gives for the
same seeds."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ludoteca.ai.sprt_runner import Match, Player, run_sprt
from ludoteca.cli import main
from ludoteca.core import LudotecaError
from ludoteca.games import load
from ludoteca.games.felli.mullah_table import MullahSolver, layout
from ludoteca.jobs import Pool, parallel_map
from ludoteca.solve.checkpoint import Checkpoint

from ..support.need import need
from ..support.ray_cluster import ray_cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    need("ray")  # the package; its `ray` program is installed beside this Python
    with ray_cluster(str(Path(sys.executable).with_name("ray"))) as address:
        yield address


def test_pieces_come_back_in_order_or_as_done_and_errors_keep_their_type(cluster: str) -> None:
    for pool in (Pool(2), Pool(ray=cluster)):
        assert list(parallel_map(int, ["3", "1", "2"], pool, ordered=True)) == [
            ("3", 3),
            ("1", 1),
            ("2", 2),
        ]
        assert sorted(parallel_map(abs, range(-5, 0), pool)) == [(x, -x) for x in range(-5, 0)]
        with pytest.raises(ValueError, match="invalid literal for int"):
            list(parallel_map(int, ["1", "x", "2"], pool))


def test_a_tournament_on_the_cluster_plays_the_local_games(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "felli", "--agents", "random", "search:depth=2", "level:1"]
    args += ["--games", "2", "--seed", "5"]
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "local.txt")]) == 0
    assert main([*args, "--ray", cluster, "--out", str(tmp_path / "ray.txt")]) == 0
    local = (tmp_path / "local.txt").read_text()
    assert local.count("[Round ") == 6  # three pairs, two games each
    assert (tmp_path / "ray.txt").read_text() == local
    tables = [part.split("\n", 1)[1] for part in capsys.readouterr().out.split("games, ")[1:]]
    assert tables[0].split("records written")[0] == tables[1].split("records written")[0]


def test_an_sprt_match_on_the_cluster_plays_the_local_games(cluster: str, tmp_path: Path) -> None:
    match = Match("felli", "felli", seed=3, max_games=6)
    base, new = Player("random", "random"), Player("search:depth=1", "search:depth=1")
    games = {}
    for name, pool in (("local", Pool(1)), ("ray", Pool(ray=cluster))):
        status = run_sprt(match, base, new, tmp_path / f"{name}.jsonl", pool)
        assert status.verdict is not None and status.pairs == 3
        lines = (tmp_path / f"{name}.jsonl").read_text().splitlines()[1:]
        games[name] = sorted(lines, key=lambda line: (json.loads(line)["pair"], line))
    assert len(games["local"]) == 6 and games["ray"] == games["local"]


#: the table built: Felli with Mullahs, three pieces a side (28 stages, up to four classes each)
MEN = 3
STAGES = layout(MEN)[5]


class Stopped(Exception):
    """Stands for the kill of a table build."""


def test_a_table_built_on_the_cluster_is_the_local_table(
    cluster: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = load("felli-mullah").rules
    solver = MullahSolver(rules, MEN)
    local = np.array(solver.load()[0].codes)  # built here, or before by another test of the run
    waves = [STAGES.count(stage) for stage in dict.fromkeys(STAGES)]
    assert max(waves) >= 3  # the cluster really gets several classes at once
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    checkpoint = Checkpoint.of(solver)

    def stop(_: str) -> None:  # the build on the cluster, stopped once three stages are saved
        saved = checkpoint.saved()
        if saved is not None and saved[0] >= 3:
            raise Stopped

    with pytest.raises(Stopped):
        solver.load(stop, Pool(ray=cluster))
    capsys.readouterr()
    assert (
        main(["solve", "felli", "--rules", "felli-mullah", "--men", str(MEN), "--ray", cluster])
        == 0
    )
    assert f"resuming: 3 of {len(waves)} stages already solved" in capsys.readouterr().err
    assert not checkpoint.folder.exists()
    spread = np.load(solver.path())
    assert np.array_equal(spread, local)


def test_an_address_without_a_cluster_is_one_sentence(cluster: str) -> None:
    # last: it leaves this process disconnected (after the cluster's token is in place)
    with pytest.raises(LudotecaError, match=r"no Ray cluster answers at 127\.0\.0\.1:9"):
        list(parallel_map(int, ["1"], Pool(ray="127.0.0.1:9")))

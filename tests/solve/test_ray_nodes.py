"""Long jobs on a Ray cluster whose nodes are apart, as machines are: each node of the
throw-away cluster (``tests/support/ray_cluster.py``, started once for the module) has its own
tables' cache and temporary folder, and every piece reports where it ran, so these tests see
the worker node do its share of a table build and of an opening book, each the same as the
local one; and a node killed in the middle of a table build costs the build nothing (its piece
runs again elsewhere)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import ludoteca.jobs
from ludoteca.ai.book import load_book
from ludoteca.ai.book_build import Settings
from ludoteca.cli import main
from ludoteca.games import load
from ludoteca.games.felli.mullah_table import MullahSolver, layout
from ludoteca.jobs import Pool
from ludoteca.solve import retrograde

from ..support.need import need
from ..support.ray_cluster import Cluster, lost_on, ray_nodes, together, traced

#: the table built: Felli with Mullahs, three pieces a side (28 stages of 1 to 4 classes)
MEN = 3
SOLVE = ["solve", "felli", "--rules", "felli-mullah", "--men", str(MEN)]
#: the number of classes (pieces) of each stage, in the order they are solved
STAGES = [layout(MEN)[5].count(stage) for stage in dict.fromkeys(layout(MEN)[5])]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    need("ray")  # the package; its `ray` program is installed beside this Python
    with ray_nodes(str(Path(sys.executable).with_name("ray"))) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def local_table() -> npt.NDArray[np.int16]:
    """The table built here, without Ray (or before by another test of the run)."""
    return np.array(MullahSolver(load("felli-mullah").rules, MEN).load()[0].codes)


class Pieces:
    """Stands in for ``parallel_map`` in a module that runs pieces, a job (call) at a time:
    each piece is :func:`~tests.support.ray_cluster.traced`, and where it ran is kept in
    :attr:`seen` with its item.  The pieces of job number ``job`` (from 0) meet, ``count`` of
    them (:func:`~tests.support.ray_cluster.together`: on ``count`` nodes), in ``folder``;
    with ``lost``, the one on the node whose cache is ``lost`` kills that node
    (:func:`~tests.support.ray_cluster.lost_on`)."""

    def __init__(self, job: int, count: int, folder: Path, lost: Path | None = None) -> None:
        self.real = ludoteca.jobs.parallel_map
        self.seen: list[tuple[Any, dict[str, Any]]] = []
        self.jobs = 0
        self.job, self.count, self.folder, self.lost = job, count, folder, lost

    def __call__(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        pool: Pool | None = None,
        **how: Any,
    ) -> Generator[tuple[Any, Any]]:
        if self.jobs == self.job:
            if self.lost is not None:
                function = partial(lost_on, str(self.lost), function)
            self.folder.mkdir()
            function = partial(together, str(self.folder), self.count, function)
        self.jobs += 1
        for item, (result, where) in self.real(partial(traced, function), items, pool, **how):
            self.seen.append((item, where))
            yield item, result

    def caches(self) -> list[str]:
        """The tables' caches the pieces saw, one a piece."""
        return [where["cache"] for _, where in self.seen]


def test_pieces_run_on_both_nodes_each_with_its_own_folders_and_give_the_local_table(
    cluster: Cluster,
    local_table: npt.NDArray[np.int16],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    head, worker = cluster.nodes["head"], cluster.nodes["worker"]
    # the two classes of the first stage of two meet: one on each node, whatever Ray's
    # scheduling (it leaves quick pieces to the first node's warm worker)
    pieces = Pieces(STAGES.index(2), 2, tmp_path / "meet")
    monkeypatch.setattr(retrograde, "parallel_map", pieces)
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path / "cache"))  # this process's own
    solver = MullahSolver(load("felli-mullah").rules, MEN)
    assert np.array_equal(
        np.array(solver.load(None, Pool(ray=cluster.address))[0].codes), local_table
    )
    assert len(pieces.seen) == sum(STAGES)  # every class once
    assert set(pieces.caches()) == {str(head.cache), str(worker.cache)}
    for node in (head, worker):
        here = [where for _, where in pieces.seen if where["cache"] == str(node.cache)]
        assert {where["temp"] for where in here} == {str(node.temp)}
        assert {where["session"] for where in here} == {node.process.pid}  # its processes
        assert len({where["node"] for where in here}) == 1
    assert len({where["node"] for _, where in pieces.seen}) == 2  # two Ray nodes


def test_a_node_killed_in_the_middle_of_a_table_build_costs_it_nothing(
    cluster: Cluster,
    local_table: npt.NDArray[np.int16],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lost = cluster.add_node("lost")  # a third node: the module's two stay for the other tests
    # the first stage of three classes, the ninth of 28: one on each node, and the one on the
    # node "lost" kills it while it runs
    job = STAGES.index(3)
    pieces = Pieces(job, 3, tmp_path / "meet", lost.cache)
    monkeypatch.setattr(retrograde, "parallel_map", pieces)
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path / "cache"))
    assert main([*SOLVE, "--ray", cluster.address]) == 0
    assert "solved in" in capsys.readouterr().out
    assert lost.process.poll() is not None and not lost.processes()
    killed = (lost.temp / "lost").read_text()  # the class its piece was solving
    assert killed in {repr(pair) for pair, _ in pieces.seen[sum(STAGES[:job]) :][: STAGES[job]]}
    assert len(pieces.seen) == sum(STAGES)  # every class came back once, none from "lost"
    assert str(lost.cache) not in pieces.caches()
    built = np.load(MullahSolver(load("felli-mullah").rules, MEN).path())  # in tmp_path
    assert np.array_equal(built, local_table)


#: the book built: Twelve Men's Morris, three plies searched two deep (34 positions: 1, 4 and
#: 29 a ply; Nine Men's would have 3, one a ply, its symmetries folding the others)
BOOK = Settings("morris-12", plies=3, depth=2, margin=8)


def test_a_book_built_on_the_cluster_is_the_local_book(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["book", "build", "morris", "--rules", BOOK.rules, "--plies", str(BOOK.plies)]
    args += ["--depth", str(BOOK.depth), "--margin", str(BOOK.margin)]
    assert main([*args, "--out", str(tmp_path / "local.json.xz")]) == 0
    pieces = Pieces(1, 2, tmp_path / "meet")  # two positions of the second ply meet
    monkeypatch.setattr(ludoteca.jobs, "parallel_map", pieces)
    assert main([*args, "--ray", cluster.address, "--out", str(tmp_path / "ray.json.xz")]) == 0
    game = load(BOOK.rules)
    local = load_book(tmp_path / "local.json.xz", game)
    spread = load_book(tmp_path / "ray.json.xz", game)
    assert (spread.plies, spread.depth, spread.margin) == (BOOK.plies, BOOK.depth, BOOK.margin)
    assert len(local.positions) == 34 and spread.positions == local.positions
    assert sorted(key for (_, key), _ in pieces.seen) == sorted(local.positions)
    nodes = {str(cluster.nodes[name].cache) for name in ("head", "worker")}
    assert set(pieces.caches()) == nodes

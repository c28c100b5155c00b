"""An interrupted table build goes on where it stopped: each stage solved is saved in a checkpoint
beside the table's file, a build that finds its own checkpoint solves only the stages left and
writes the table an uninterrupted build writes, byte for byte, and the checkpoint is deleted;
a checkpoint of another rule set, layout or checkpoint format, or a damaged one, is not used
(the table is built from the start, with a log line); the server's log says that a build goes
on.  Felli with Mullahs at most two pieces a side: 21 pairs of classes in 15 stages, a second
to solve once compiled."""

from __future__ import annotations

import itertools
import logging
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from ludoteca.cli import main
from ludoteca.games.felli import Felli
from ludoteca.games.felli import mullah_table as felli_mullah_table
from ludoteca.games.felli.mullah_table import MullahSolver, layout
from ludoteca.solve import checkpoint as checkpoints
from ludoteca.solve.checkpoint import Checkpoint

RULES = Felli.parse_rules("felli-mullah")
OTHER = Felli.parse_rules("felli-mullah:forced_capture=false")  # another table, same layout
MOST = 2
K = 6  # stages solved before the interruption


class Interrupted(Exception):
    """Stands for the kill of a build."""


def stage_labels(most: int = MOST) -> list[list[str]]:
    """The labels of each stage's pairs, stages in solving order (the game's layout)."""
    _, _, _, pairs, _, stages = layout(most)
    runs = itertools.groupby(zip(stages, pairs, strict=True), key=lambda item: item[0])
    return [[pair[2] for _, pair in run] for _, run in runs]


def interrupt(solver: MullahSolver, k: int = K) -> Checkpoint:
    """Run ``solver``'s build until its checkpoint holds ``k`` stages, then stop it."""
    checkpoint = Checkpoint.of(solver)

    def progress(_: str) -> None:
        saved = checkpoint.saved()
        if saved is not None and saved[0] >= k:
            raise Interrupted

    with pytest.raises(Interrupted):
        solver.load(progress)
    assert checkpoint.saved() == (k, len(stage_labels(solver.most)))
    assert not solver.path().exists()
    return checkpoint


def build(solver: MullahSolver) -> list[str]:
    """Build ``solver``'s table; the progress lines."""
    lines: list[str] = []
    _, cached = solver.load(lines.append)
    assert not cached
    return lines


def solved_labels(lines: list[str]) -> list[str]:
    """The labels of the pairs a build solved, from its progress lines."""
    return [line.split(": ")[0] for line in lines if " entries, " in line]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, bytes]]:
    """The table files of uninterrupted builds, by rule set."""
    with pytest.MonkeyPatch.context() as patch:
        files = {}
        for rules in (RULES, OTHER):
            patch.setenv("LUDOTECA_CACHE", str(tmp_path_factory.mktemp("fresh")))
            solver = MullahSolver(rules, MOST)
            build(solver)
            files[str(rules)] = solver.path().read_bytes()
        assert files[str(RULES)] != files[str(OTHER)]  # a mixed-up checkpoint would show
        yield files


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    return tmp_path


def test_a_resumed_build_solves_only_the_stages_left_and_writes_the_same_table(
    fresh: dict[str, bytes], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solver = MullahSolver(RULES, MOST)
    checkpoint = interrupt(solver)
    capsys.readouterr()
    assert main(["solve", "felli", "--rules", "felli-mullah", "--men", str(MOST)]) == 0
    lines = [line.strip() for line in capsys.readouterr().err.splitlines()]
    stages = stage_labels()
    assert lines[0] == f"resuming: {K} of {len(stages)} stages already solved"
    assert solved_labels(lines) == [label for stage in stages[K:] for label in stage]
    assert solver.path().read_bytes() == fresh[str(RULES)]
    assert not checkpoint.folder.exists()
    assert [p.name for p in cache.iterdir()] == [solver.path().name]


def test_a_checkpoint_of_another_rule_set_is_not_used(
    fresh: dict[str, bytes], cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="ludoteca.tables")
    theirs = interrupt(MullahSolver(RULES, MOST))
    solver = MullahSolver(OTHER, MOST)
    ours = Checkpoint.of(solver)
    theirs.folder.rename(ours.folder)
    lines = build(solver)
    assert solved_labels(lines) == [label for stage in stage_labels() for label in stage]
    assert not any(line.startswith("resuming") for line in lines)
    assert any("is not used" in r.getMessage() for r in caplog.records)
    assert solver.path().read_bytes() == fresh[str(OTHER)]
    assert not ours.folder.exists()


def test_a_checkpoint_of_another_checkpoint_format_is_not_used(
    fresh: dict[str, bytes], cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solver = MullahSolver(RULES, MOST)
    interrupt(solver)
    monkeypatch.setattr(checkpoints, "FORMAT", checkpoints.FORMAT + 1)
    lines = build(solver)
    assert solved_labels(lines) == [label for stage in stage_labels() for label in stage]
    assert solver.path().read_bytes() == fresh[str(RULES)]


def test_a_checkpoint_of_another_layout_is_not_used(cache: Path) -> None:
    # the checkpoint of the two-piece table offered, under its own key, to the one-piece build
    checkpoint = interrupt(MullahSolver(RULES, MOST))
    lines: list[str] = []
    table = felli_mullah_table.solve(RULES, lines.append, 1, checkpoint=checkpoint)
    assert solved_labels(lines) == [label for stage in stage_labels(1) for label in stage]
    assert np.array_equal(table.codes, felli_mullah_table.solve(RULES, None, 1).codes)


def _flip_stage(folder: Path) -> None:
    stage = folder / "stage-00002.npy"
    data = bytearray(stage.read_bytes())
    data[-4:] = bytes(255 - b for b in data[-4:])  # the codes changed, the length kept
    stage.write_bytes(bytes(data))


def _cut_stage(folder: Path) -> None:
    stage = folder / "stage-00001.npy"
    stage.write_bytes(stage.read_bytes()[:100])


def _garble_manifest(folder: Path) -> None:
    (folder / "manifest.json").write_bytes(b"\x00{not json")


@pytest.mark.parametrize("damage", [_flip_stage, _cut_stage, _garble_manifest])
def test_a_damaged_checkpoint_is_ignored_with_a_log_line(
    damage: Callable[[Path], None],
    fresh: dict[str, bytes],
    cache: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    solver = MullahSolver(RULES, MOST)
    checkpoint = interrupt(solver)
    damage(checkpoint.folder)
    caplog.set_level(logging.INFO, logger="ludoteca.tables")
    lines = build(solver)
    assert solved_labels(lines) == [label for stage in stage_labels() for label in stage]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "is not used" in warnings[0].getMessage()
    assert solver.path().read_bytes() == fresh[str(RULES)]
    assert not checkpoint.folder.exists()


class _Seen(logging.Handler):
    """Sets ``event`` when a record's message starts with ``start``."""

    def __init__(self, start: str) -> None:
        super().__init__()
        self.start = start
        self.event = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith(self.start):
            self.event.set()


def test_the_servers_log_says_it_goes_on_with_a_stopped_build(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # the table the server builds (every position), stopped after its first stage; the server's
    # builder imported here, so that collecting the solvers' tests loads no server code
    from ludoteca.server.computer import tables

    solver = MullahSolver(RULES)
    interrupt(solver, 1)
    caplog.set_level(logging.INFO, logger="ludoteca.tables")
    total = Checkpoint.of(solver).saved()
    assert total is not None
    seen = _Seen("going on with the table of felli-mullah")
    logging.getLogger("ludoteca.tables").addHandler(seen)
    try:
        builds = tables.start_building([("felli", "felli-mullah")])
        assert seen.event.wait(60)
        tables.stop_building(builds)
    finally:
        logging.getLogger("ludoteca.tables").removeHandler(seen)
    lines = [r.getMessage() for r in caplog.records if r.name == "ludoteca.tables"]
    assert f"going on with the table of felli-mullah: 1 of {total[1]} stages solved" in lines[0]
    assert lines[-1].startswith("stopped building the table of felli-mullah;")
    assert Checkpoint.of(solver).saved() is not None  # kept for the next start
    shutil.rmtree(Checkpoint.of(solver).folder)

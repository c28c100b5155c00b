"""Tables as downloads (``ludoteca tables export|import``): a table built on one machine is
imported into another's cache byte for byte and answers the same; a damaged, foreign, other
format or wrong-rule-set file is refused with one sentence and the cache is left as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ludoteca.ai import RandomAgent
from ludoteca.cli import main
from ludoteca.core import LudotecaError
from ludoteca.games import load
from ludoteca.solve.checkpoint import Checkpoint
from ludoteca.solve.transfer import MAGIC, export_table, import_table

RULES = "felli"


@pytest.fixture(scope="module")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The basic Felli table built once for the module, in a cache of its own, and exported
    there (``felli.table`` beside the cache folder ``built``)."""
    folder = tmp_path_factory.mktemp("transfer")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_CACHE", str(folder / "built"))
        load(RULES).solver().load()  # type: ignore[union-attr]
        assert main(["tables", "export", RULES, str(folder / "felli.table")]) == 0
    return folder


@pytest.fixture
def exported(built_once: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the exported table and of the cache it was built in (``tmp_path / "built"``);
    the cache in use is then another's, empty (``tmp_path / "club"``)."""
    shutil.copytree(built_once / "built", tmp_path / "built")
    out = tmp_path / "felli.table"
    shutil.copyfile(built_once / "felli.table", out)
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path / "club"))
    return out


def _rewrite(source: Path, out: Path, **changes: object) -> Path:
    """A copy of an exported table with header fields changed."""
    data = source.read_bytes()[len(MAGIC) :]
    line, _, payload = data.partition(b"\n")
    header = {**json.loads(line), **changes}
    out.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + payload)
    return out


def _club_files(tmp_path: Path) -> list[Path]:
    club = tmp_path / "club"
    return sorted(club.iterdir()) if club.exists() else []


def test_an_imported_table_is_the_built_one_and_answers_the_same(
    exported: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    solver = load(RULES).solver()
    assert solver is not None and not solver.path().exists()  # the club has no table yet
    assert main(["tables", "import", str(exported), "--rules", RULES]) == 0
    assert "imported" in capsys.readouterr().out
    (built,) = (tmp_path / "built").iterdir()
    assert solver.path().read_bytes() == built.read_bytes()
    table, cached = solver.load()
    assert cached  # read, not solved again
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path / "built"))
    original, _ = solver.load()
    state, chooser = load(RULES).new(), RandomAgent(7)
    while state.outcome() is None:
        assert table.lookup(state) == original.lookup(state)
        state.push(chooser.choose(state))
    header = json.loads(exported.read_bytes()[len(MAGIC) :].partition(b"\n")[0])
    assert header["rules"] == RULES and header["bytes"] == built.stat().st_size
    assert header["file"] == built.name and header["file"].endswith("-v1.npz")


def test_a_table_not_built_is_not_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path / "empty"))
    with pytest.raises(LudotecaError, match="not built here"):
        export_table("felli:forced_capture", tmp_path / "out.table")
    assert not (tmp_path / "out.table").exists()
    with pytest.raises(LudotecaError, match="no solved table"):
        export_table("morelli", tmp_path / "out.table")


@pytest.mark.parametrize("damage", ["flipped", "cut", "longer"])
def test_a_damaged_file_is_refused_and_nothing_changes(
    exported: Path, tmp_path: Path, damage: str
) -> None:
    data = bytearray(exported.read_bytes())
    if damage == "flipped":
        data[-100] ^= 1
    elif damage == "cut":
        del data[-100:]
    else:
        data += b"\0"
    bad = tmp_path / "bad.table"
    bad.write_bytes(bytes(data))
    with pytest.raises(LudotecaError, match="is damaged: its table does not match its checksum"):
        import_table(bad)
    assert _club_files(tmp_path) == []  # no table, no leftover


def test_an_import_does_not_touch_a_table_already_there_when_it_refuses(
    exported: Path, tmp_path: Path
) -> None:
    import_table(exported)
    (table,) = _club_files(tmp_path)
    before = table.read_bytes()
    bad = tmp_path / "bad.table"
    bad.write_bytes(exported.read_bytes()[:-1])
    with pytest.raises(LudotecaError, match="damaged"):
        import_table(bad)
    assert _club_files(tmp_path) == [table] and table.read_bytes() == before


def test_an_import_deletes_an_interrupted_build_of_its_table(exported: Path) -> None:
    solver = load(RULES).solver()
    assert solver is not None
    partial = Checkpoint.of(solver).folder
    partial.mkdir(parents=True)
    (partial / "manifest.json").write_text("{}")  # what a stopped build left
    bad = exported.with_name("bad.table")
    bad.write_bytes(exported.read_bytes()[:-1])
    with pytest.raises(LudotecaError, match="damaged"):
        import_table(bad)
    assert partial.exists()  # a refused file changes nothing
    import_table(exported)
    assert solver.path().exists() and not partial.exists()


def test_foreign_files_are_refused(exported: Path, tmp_path: Path) -> None:
    (tmp_path / "built").mkdir(exist_ok=True)
    (npz,) = (tmp_path / "built").iterdir()  # the cached table itself is no export
    with pytest.raises(LudotecaError, match="is not an exported Ludoteca table"):
        import_table(npz)
    garbled = tmp_path / "garbled.table"
    garbled.write_bytes(MAGIC + b"{not json\n" + b"x" * 10)
    with pytest.raises(LudotecaError, match="its header cannot be read"):
        import_table(garbled)
    newer = _rewrite(exported, tmp_path / "newer.table", version=2)
    with pytest.raises(LudotecaError, match="exported in format 2; this version of Ludoteca"):
        import_table(newer)
    assert _club_files(tmp_path) == []


def test_a_table_of_another_rule_set_or_format_is_refused(exported: Path, tmp_path: Path) -> None:
    with pytest.raises(LudotecaError, match="holds the table of felli, not of felli:forced"):
        import_table(exported, "felli:forced_capture")
    relabelled = _rewrite(exported, tmp_path / "relabelled.table", rules="felli:multi_capture")
    with pytest.raises(LudotecaError, match="which is not the table of its rule set"):
        import_table(relabelled)
    unknown = _rewrite(exported, tmp_path / "unknown.table", rules="chess")
    with pytest.raises(LudotecaError, match="belongs to a rule set unknown here"):
        import_table(unknown)
    old = _rewrite(exported, tmp_path / "old.table", file="felli-v0.npz")
    with pytest.raises(LudotecaError, match="another table format"):
        import_table(old)
    assert _club_files(tmp_path) == []


def test_the_command_line_says_one_sentence_and_exits_2(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.table"
    bad.write_bytes(b"hello")
    assert main(["tables", "import", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {bad} is not an exported Ludoteca table"]
    assert main(["tables", "export", "morelli", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()

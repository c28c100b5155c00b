"""The server's background table builds: which tables are missing, and a build that makes a
level switch to its table."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.games.felli import Felli
from ludoteca.games.felli.mullah_table import MullahSolver
from ludoteca.games.morris import Morris
from ludoteca.server.computer import tables


def test_missing_tables_lists_each_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    missing = tables.missing_tables()
    names = [rules for _, rules in missing]
    assert "felli-mullah" in names and "morris-6" in names
    assert not any(r.startswith("felli:") or r == "felli" for r in names)  # quick: built on use
    assert len([r for r in names if r in ("morris", "morris-lasker")]) == 1  # one shared table
    MullahSolver(Felli.parse_rules("felli-mullah"), 6).path().write_bytes(b"")  # built (as far as
    assert "felli-mullah" not in [r for _, r in tables.missing_tables()]  # the check goes)


def test_a_built_table_becomes_the_top_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Morris.parse_rules("morris-6")
    assert Morris.of(rules).ladder[-1].spec.startswith("search:")
    tables.Builds([("morris", "morris-6")]).run()
    assert Morris.of(rules).ladder[-1].spec == "perfect"
    assert tables.missing_tables() and ("morris", "morris-6") not in tables.missing_tables()

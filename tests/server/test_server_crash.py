"""The server killed with SIGKILL mid-game loses no acknowledged move, on SQLite and on
PostgreSQL (a few kills of ``bench/kill9.py``; the operator's long run is that command)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "kill9.py"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc")
def test_no_acknowledged_move_is_lost_across_kills(tmp_path: Path, database_url: str) -> None:
    spec = importlib.util.spec_from_file_location("kill9", BENCH)
    assert spec is not None and spec.loader is not None
    kill9 = importlib.util.module_from_spec(spec)
    sys.modules["kill9"] = kill9
    spec.loader.exec_module(kill9)
    report = kill9.soak(kills=2, games=6, seed=1, folder=tmp_path, db=database_url)
    assert report.kills == 2
    assert report.acknowledged >= 10, "too few moves were played to test anything"
    assert report.lost == []

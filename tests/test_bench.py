"""bench/ as kept in the repository: its results small (game records compressed with xz, no
other file over 200 KB) and every script and result file indexed in bench/README.md."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
RESULTS = BENCH / "results"
#: the largest uncompressed file bench/results may hold
LIMIT = 200 * 1024


def kept() -> list[Path]:
    """The result files under version control's eye (not the browser tests' screenshots)."""
    return sorted(p for p in RESULTS.iterdir() if p.is_file())


def test_no_uncompressed_result_is_over_200_kb() -> None:
    large = [p.name for p in kept() if p.suffix != ".xz" and p.stat().st_size > LIMIT]
    assert not large, f"compress them: xz -9 {' '.join(large)}"


@pytest.mark.parametrize("path", [p for p in kept() if p.suffix == ".xz"], ids=lambda p: p.name)
def test_a_compressed_result_reads_whole(path: Path) -> None:
    with lzma.open(path, "rt", encoding="utf-8") as stream:
        assert stream.read().strip()


def test_every_script_and_result_is_in_the_index() -> None:
    index = (BENCH / "README.md").read_text(encoding="utf-8")
    scripts = [p.stem for p in BENCH.glob("*.py") if p.stem != "__init__"]
    missing = [f"bench/{s}.py" for s in scripts if f"`{s}`" not in index]
    missing += [f"bench/results/{p.name}" for p in kept() if f"`{p.name}`" not in index]
    assert not missing, "not in bench/README.md: " + ", ".join(missing)

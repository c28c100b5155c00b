"""The examples a reader is shown run as written: every ``>>>`` session in the package's
docstrings and in README.md, as doctests.

The modules are found by their text (a ``>>>`` line), so only they are imported, and a new
example runs without being listed here.  ``...`` stands for what changes between runs or is
long (ELLIPSIS, everywhere); README.md's session is also compared with NORMALIZE_WHITESPACE (a
printed record's blank lines, which a doctest cannot show, count as any other line break)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ludoteca"


def with_examples() -> list[str]:
    """The package's modules whose source holds a ``>>>`` example, by dotted name."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def run(result: doctest.TestResults, where: str) -> None:
    assert result.attempted, f"no example found in {where}"
    assert not result.failed, f"{result.failed} of {result.attempted} examples failed in {where}"


@pytest.mark.parametrize("name", with_examples())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    run(doctest.testmod(module, optionflags=doctest.ELLIPSIS), name)


def test_readme_session() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    run(result, "README.md")

"""The solved start values docs/rules.md and docs/ai.md state, asserted on tables built here
(``ludoteca solve``, into the test session's own cache): basic Felli is a draw, Felli with forced
capture a win in 31 plies for South (with multi-capture too; multi-capture alone is a draw), and
Six Men's Morris a draw.  The Mullah table (about 5 minutes of one core, 0.6 GB) is too long for
the suite: ``bench/solved_values.py`` builds it and checks its win in 25, with these."""

from __future__ import annotations

import pytest

from ludoteca.cli import main

DOCUMENTED = [
    ("felli", "felli", "draw", None),
    ("felli", "felli:forced_capture", "win", 31),
    ("felli", "felli:multi_capture", "draw", None),
    ("felli", "felli:forced_capture,multi_capture", "win", 31),
    ("morris", "morris-6", "draw", None),
]


@pytest.mark.parametrize(("game", "rules", "value", "plies"), DOCUMENTED)
def test_the_start_has_its_documented_value(
    capsys: pytest.CaptureFixture[str], game: str, rules: str, value: str, plies: int | None
) -> None:
    assert main(["solve", game, "--rules", rules]) == 0
    lines = dict(
        line.split(": ", 1) for line in capsys.readouterr().out.splitlines() if ": " in line
    )
    assert lines["value"].split()[0] == value
    assert lines["value"].endswith("to move)")  # the side to move at the start: South / White
    if plies is None:
        assert "plies" not in lines
    else:
        assert int(lines["plies"]) == plies

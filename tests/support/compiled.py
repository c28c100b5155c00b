"""Every game's compiled search loaded into this process, compiled into numba's cache first on a
fresh checkout (about 40 s of one core): ``python -m tests.support.compiled``, which
``scripts/test`` runs on one core while the linters run on the other, and what the suite's
first process does before its test processes start (``tests/conftest.py``)."""

from __future__ import annotations


def load() -> None:
    """Load (compiling if need be) the compiled search of each game's default rule set; not the
    solved tables, which the tests build into their own cache."""
    from ludoteca.compiled import warm
    from ludoteca.server.play.catalogue import default_positions

    for state in default_positions():
        warm(state.game)


if __name__ == "__main__":
    load()

"""Every game's compiled search loaded into this process, compiled into numba's cache first on a
fresh checkout (about a minute of one core): ``python -m tests.support.compiled``, which
``scripts/test`` runs on one core while the linters run on the other, and what the suite's
first process does before its test processes start (``tests/conftest.py``)."""

from __future__ import annotations


def load() -> None:
    """Load (compiling if need be) the compiled search and batched stepping of each game's
    default rule set (the batched one on one thread and on two: numba compiles each apart);
    not the solved tables, which the tests build into their own cache."""
    from ludoteca.compiled import warm
    from ludoteca.server.play.catalogue import default_positions
    from ludoteca.vector import VectorEnv

    for state in default_positions():
        if warm(state.game):
            for threads in (1, 2):
                env = VectorEnv(state.game.rules, 2, threads=threads, setups=2)
                env.reset(seed=0)
                env.step(env.random_actions())


if __name__ == "__main__":
    load()

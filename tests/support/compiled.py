"""Every game's compiled search loaded into this process, compiled into numba's cache first on a
fresh checkout (about a minute and a half of one core for the three games): ``python -m
tests.support.compiled``, which ``scripts/test`` runs while the linters run, compiles each game
in a process of its own (numba caches each game's copies in files of their own, so they compile
side by side: once the linters are done the two cores share the work); ``load`` is what the
suite's first process does before its test processes start (``tests/conftest.py``)."""

from __future__ import annotations

import subprocess
import sys


def load(names: list[str] | None = None) -> None:
    """Load (compiling if need be) the compiled search and batched stepping of each game's
    default rule set (or of the games ``names``; the batched one on one thread and on two:
    numba compiles each apart); not the solved tables, which the tests build into their own
    cache."""
    from ludoteca.compiled import warm
    from ludoteca.server.play.catalogue import default_positions
    from ludoteca.vector import VectorEnv

    for state in default_positions():
        if names is not None and state.game.name not in names:
            continue
        if warm(state.game):
            for threads in (1, 2):
                env = VectorEnv(state.game.rules, 2, threads=threads, setups=2)
                env.reset(seed=0)
                env.step(env.random_actions())


def main(names: list[str]) -> int:
    """With names, :func:`load` those games here; without, load every game, each in a process of
    its own, and the exit status of the first that failed (0 if none did)."""
    if names:
        load(names)
        return 0
    from ludoteca.server.play.catalogue import default_positions

    games = [state.game.name for state in default_positions()]
    processes = [
        subprocess.Popen([sys.executable, "-m", "tests.support.compiled", game]) for game in games
    ]
    codes = [process.wait() for process in processes]
    return next((code for code in codes if code), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

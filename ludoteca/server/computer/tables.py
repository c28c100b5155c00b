"""Building the solved tables a server's players use but that are not built yet: one
``ludoteca solve`` at a time, in a child process at the lowest priority (so that games keep the
processors), which dies with the server.  A level switches to its table the moment the table is
on disk (``Solver.ready``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading

from ..play.catalogue import games
from .workers import die_with_parent

__all__ = ["missing_tables", "start_building"]

log = logging.getLogger("ludoteca.tables")
_CLI = "import sys; from ludoteca.cli import main; sys.exit(main())"


def missing_tables() -> list[tuple[str, str]]:
    """``(game, rule set)`` for each table (once per table) that a rule set declares and that
    is not built yet."""
    seen: set[str] = set()
    out = []
    for game in games():
        for definition in game.rule_sets:
            bound = game.of(definition.name)
            solver = bound.solver()
            if solver is None or solver.key in seen or solver.ready():
                continue
            seen.add(solver.key)
            out.append((game.name, str(bound.rules)))
    return out


def _prepare(server: int) -> None:
    os.nice(19)
    die_with_parent(server)


def _build(todo: list[tuple[str, str]]) -> None:
    server = os.getpid()
    for game, rules in todo:
        log.info("building the table of %s (a background job at low priority)", rules)
        done = subprocess.run(
            [sys.executable, "-c", _CLI, "solve", game, "--rules", rules],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=lambda: _prepare(server),
            check=False,
        )
        if done.returncode:
            log.warning("building the table of %s failed (exit %d)", rules, done.returncode)
        else:
            log.info("table of %s built: %s", rules, " / ".join(done.stdout.splitlines()))


def start_building() -> threading.Thread | None:
    """Build the missing tables in the background (``None`` when none is missing)."""
    todo = missing_tables()
    if not todo:
        return None
    thread = threading.Thread(target=_build, args=(todo,), name="tables", daemon=True)
    thread.start()
    return thread

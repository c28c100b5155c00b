"""Building the solved tables a server's players use but that are not built yet: one
``ludoteca solve`` at a time, in a child process at the lowest priority (so that games keep the
processors), which dies with the server; a server that stops ends the build under way (it is
started again at the next start).  A level switches to its table the moment the table is
on disk (``Solver.ready``).  A build stopped halfway goes on at the next start from the
stages it saved (:class:`~ludoteca.solve.checkpoint.Checkpoint`), which the log says."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading

from ...games import load
from ...solve.checkpoint import Checkpoint
from ..play.catalogue import games
from .workers import die_with_parent, yield_to_play

__all__ = ["Builds", "missing_tables", "start_building", "stop_building"]

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


def _say_start(game: str, rules: str) -> None:
    """Log the start of a table's build: from the start, or going on from a checkpoint."""
    solver = load(game, rules).solver()
    saved = None if solver is None else Checkpoint.of(solver).saved()
    if saved and saved[0]:
        log.info(
            "going on with the table of %s: %d of %d stages solved before "
            "(a background job at low priority)",
            rules,
            *saved,
        )
    else:
        log.info("building the table of %s (a background job at low priority)", rules)


def _prepare(server: int) -> None:
    yield_to_play()
    die_with_parent(server)


class Builds:
    """One background run of table builds (:func:`start_building`): the child process
    running now (one at a time), and whether to stop."""

    def __init__(self, todo: list[tuple[str, str]]) -> None:
        self.todo = todo
        self.lock = threading.Lock()
        self.child: subprocess.Popen[str] | None = None
        self.stopping = False
        self.thread = threading.Thread(target=self.run, name="tables", daemon=True)

    def run(self) -> None:
        """Build each table of ``todo`` in turn, in this thread, until told to stop."""
        server = os.getpid()
        for game, rules in self.todo:
            with self.lock:
                if self.stopping:
                    return
                _say_start(game, rules)
                # a session of its own: the terminal's Ctrl-C stops the server, which stops this
                child = self.child = subprocess.Popen(
                    [sys.executable, "-c", _CLI, "solve", game, "--rules", rules],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    preexec_fn=lambda: _prepare(server),
                    start_new_session=True,
                )
            out, _ = child.communicate()
            with self.lock:
                self.child = None
                if self.stopping:
                    log.info(
                        "stopped building the table of %s; the next start goes on with it", rules
                    )
                    return
            if child.returncode:
                log.warning("building the table of %s failed (exit %d)", rules, child.returncode)
            else:
                log.info("table of %s built: %s", rules, " / ".join(out.splitlines()))


def start_building(todo: list[tuple[str, str]] | None = None) -> Builds | None:
    """Build the missing tables (or those of ``todo``: ``(game, rule set)``) one after the
    other in a background thread; ``None`` when there is none to build."""
    todo = missing_tables() if todo is None else todo
    if not todo:
        return None
    builds = Builds(todo)
    builds.thread.start()
    return builds


def stop_building(builds: Builds | None) -> None:
    """Stop ``builds`` (from :func:`start_building`): the running build is ended and logged as
    stopped, not failed, and no other is started."""
    if builds is None:
        return
    with builds.lock:
        builds.stopping = True
        if builds.child is not None:
            builds.child.terminate()
    builds.thread.join()

"""Building the solved tables a server's players use but that are not built yet: one
``ludoteca solve`` at a time, in a child process at the lowest priority (so that games keep the
processors), which dies with the server; a server that stops ends the build under way (it is
started again at the next start).  A level switches to its table the moment the table is
on disk (``Solver.ready``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading

from ..play.catalogue import games
from .workers import die_with_parent

__all__ = ["missing_tables", "start_building", "stop_building"]

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


class _Builds:
    """The table build running now (one child process at a time), and whether to stop."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.child: subprocess.Popen[str] | None = None
        self.stopping = False


_BUILDS = _Builds()


def _build(todo: list[tuple[str, str]]) -> None:
    server = os.getpid()
    for game, rules in todo:
        with _BUILDS.lock:
            if _BUILDS.stopping:
                return
            log.info("building the table of %s (a background job at low priority)", rules)
            # a session of its own: the terminal's Ctrl-C stops the server, which stops this
            child = _BUILDS.child = subprocess.Popen(
                [sys.executable, "-c", _CLI, "solve", game, "--rules", rules],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                preexec_fn=lambda: _prepare(server),
                start_new_session=True,
            )
        out, _ = child.communicate()
        with _BUILDS.lock:
            _BUILDS.child = None
            if _BUILDS.stopping:
                log.info("stopped building the table of %s; the next start goes on with it", rules)
                return
        if child.returncode:
            log.warning("building the table of %s failed (exit %d)", rules, child.returncode)
        else:
            log.info("table of %s built: %s", rules, " / ".join(out.splitlines()))


def start_building(todo: list[tuple[str, str]] | None = None) -> threading.Thread | None:
    """Build the missing tables (or those of ``todo``: ``(game, rule set)``) one after the
    other in the background; ``None`` when there is none to build."""
    todo = missing_tables() if todo is None else todo
    if not todo:
        return None
    with _BUILDS.lock:
        _BUILDS.stopping = False
    thread = threading.Thread(target=_build, args=(todo,), name="tables", daemon=True)
    thread.start()
    return thread


def stop_building(thread: threading.Thread | None) -> None:
    """Stop the background builds of ``thread`` (from :func:`start_building`): the running one
    is ended and logged as stopped, not failed, and no other is started."""
    if thread is None:
        return
    with _BUILDS.lock:
        _BUILDS.stopping = True
        if _BUILDS.child is not None:
            _BUILDS.child.terminate()
    thread.join()

"""Computer work for the server, run in worker processes (never in the event loop).

Each job rebuilds the position from plain values (game, rule set, start code, moves), so it
pickles cheaply and needs no shared state.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import threading
from collections.abc import Iterator
from typing import TypedDict, final

from ...ai import Limit, make_agent
from ...ai.analysis import analyse
from ...ai.perfect import covering_table, table_for
from ...compiled import warm
from ...core import LudotecaError, State
from ...formats import loads
from ...i18n import SOURCE, _, use
from ...study.report import PlyValue, analyse_ply, analyse_run
from ...svg import board_view
from ..play.catalogue import default_positions, from_code, games
from .interrupt import start_watching


def die_with_parent(server: int) -> None:
    """Have this worker end when the server process ``server`` dies, even by ``kill -9``
    (Linux: a thread waits on the server's process descriptor; elsewhere the pool's own
    shutdown is all there is), and leave Ctrl-C to the server: a terminal sends SIGINT to its
    whole foreground group, workers included, and a worker interrupted in a job (the first
    start's compiling, say) broke its pool with a traceback on the console; the server stops
    its workers itself.  (The worker's parent is the fork server, not the server: the kernel's
    parent-death signal would wait for the fork server, which waits for its workers.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not hasattr(os, "pidfd_open"):
        return
    try:
        server_fd = os.pidfd_open(server)
    except ProcessLookupError:  # the server died before this line: follow it now
        os._exit(1)
    except OSError:  # a kernel older than Linux 5.3
        return
    threading.Thread(
        target=_exit_with, args=(server_fd,), name="die-with-server", daemon=True
    ).start()


def _exit_with(server_fd: int) -> None:
    """Wait until the process of ``server_fd`` (a process descriptor) ends, then end this one
    at once."""
    select.select([server_fd], [], [])
    os._exit(1)


def yield_to_play() -> None:
    """Let this process think only on a processor that live play leaves idle: Linux's
    ``SCHED_IDLE`` policy (its threads run only where no other thread wants the processor, and
    give way at once when one wakes: two busy processes at the lowest niceness still added
    13-19% to 200 hot-seat games' median latency in ``bench/load.py``), elsewhere the lowest
    niceness.  Threads started afterwards inherit it."""
    if hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return
    os.nice(19)


@contextlib.contextmanager
def yielding_if(playing: bool) -> Iterator[None]:
    """Within, a job of a process started with :func:`yield_to_play` thinks at the normal
    priority unless ``playing`` (people play on the server): nothing then needs the processors
    more, and a job left to idle time alone on a machine kept busy by other programs may get
    none for seconds.  Back to the idle policy afterwards.  Leaving the idle policy needs the
    privilege: root, ``CAP_SYS_NICE``, or a nice limit of 20 (``LimitNICE=0`` for a systemd
    service); where the system refuses it, or has no ``SCHED_IDLE``, the job stays idle."""
    raised = False
    idle = hasattr(os, "SCHED_IDLE") and os.sched_getscheduler(0) == os.SCHED_IDLE
    if not playing and idle:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            raised = True
    try:
        yield
    finally:
        if raised:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def report_worker(server: int, idle: bool = True) -> None:
    """Start the report process of the server ``server``: with ``idle`` it thinks only when
    live play leaves a processor idle (:func:`yield_to_play`); it is killed with the server
    (:func:`die_with_parent`)."""
    if idle:
        yield_to_play()
    die_with_parent(server)


def analysis_worker(server: int, interrupts: ctypes.c_int64, idle: bool = True) -> None:
    """Start the analysis process of the server ``server`` (hints, the analysis board, record
    replays): like the report process, with ``idle`` it thinks only when live play leaves a
    processor idle (:func:`yield_to_play`); killed with the server, its running analysis-board
    job stopped when the server writes its ticket to ``interrupts`` (:mod:`.interrupt`)."""
    if idle:
        yield_to_play()
    die_with_parent(server)
    start_watching(interrupts)


def load_compiled() -> None:
    """Load (or, the first time on a machine, compile) the compiled search in this worker
    process, and the tables its computer levels play from (:func:`load_tables`): submitted once
    per worker at start-up, so the first computer move is fast (and cache files of earlier
    versions of the search are deleted)."""
    for state in default_positions():
        warm(state.game)
    load_tables()


def load_tables() -> None:
    """Read into this process the solved table of every rule set whose ladder has a perfect
    level (a table quick to solve is solved now, the first time on a machine, rather than
    inside that level's first move)."""
    for game in games():
        for definition in game.rule_sets:
            bound = game.of(definition.name)
            if any(rung.spec == "perfect" for rung in bound.ladder):
                table_for(bound.rules)


def position(game: str, rules: str, start: str, moves: list[str]) -> State:
    """The position after ``moves`` from the position code ``start``."""
    state = from_code(game, rules, start)
    for move in moves:
        state.push(move)
    return state


def computer_move(game: str, rules: str, start: str, moves: list[str], spec: str, seed: int) -> str:
    """The move the agent ``spec`` chooses (its notation)."""
    state = position(game, rules, start, moves)
    return str(make_agent(spec, state.rules, seed).choose(state))


def hint(
    game: str, rules: str, start: str, moves: list[str], seconds: float, language: str = SOURCE
) -> dict[str, object]:
    """The best move, an evaluation a person understands (in ``language``) and the principal
    variation: the JSON values of a :class:`~..schemas.HintView` (checked by the server)."""
    state = position(game, rules, start, moves)
    with use(language):
        found = analyse(state, Limit(seconds=seconds), seed=0)
    return {**found.as_dict(), "gesture": state.gesture(found.move.code)}


def report_plies(
    game: str, rules: str, start: str, moves: list[str], plies: list[int], limit: Limit
) -> dict[int, PlyValue]:
    """The report's analyses of the positions after the first ``ply`` of ``moves`` for each
    of ``plies`` (ascending; see :class:`~ludoteca.study.report.PlyValue`), with the move
    played from each, searched in order by one agent
    (:func:`~ludoteca.study.report.analyse_run`)."""
    state = position(game, rules, start, [])
    codes = []
    for move in moves:
        codes.append(state.parse_move(move).code)
        state.push_code(codes[-1])
    first = position(game, rules, start, [])
    return analyse_run(first, plies, codes, limit)


def exact_plies(
    game: str, rules: str, start: str, moves: list[str], limit: Limit
) -> dict[int, PlyValue]:
    """The report's analyses of every position of a game that a solved table covers (or
    that is over), by ply: they load the parts of the tables they need, which takes tens of
    seconds for a large table, so they are one job of their own rather than one a position."""
    state = position(game, rules, start, [])
    found: dict[int, PlyValue] = {}
    for ply in range(len(moves) + 1):
        if covering_table(state) is not None or state.outcome() is not None:
            played = state.parse_move(moves[ply]).code if ply < len(moves) else None
            found[ply] = analyse_ply(state, played, limit)
        if ply < len(moves):
            state.push(moves[ply])
    return found


@final
class RecordLine(TypedDict):
    """What a text record plays: its game, rule set, start (a position code) and moves."""

    game: str
    rules: str
    start: str
    moves: list[str]


@final
class BadRecord(TypedDict):
    """Why a text record cannot be read."""

    error: str


def record_line(text: str, language: str = SOURCE) -> RecordLine | BadRecord:
    """What a text record plays; or ``{"error": reason}`` for a bad record, the reason in
    ``language``."""
    with use(language):
        try:
            game = loads(text)
        except LudotecaError as error:
            return {"error": str(error)}
    start = game.start()
    return {
        "game": start.game.name,
        "rules": str(start.rules),
        "start": start.position_code(),
        "moves": [str(move) for move in game.state.moves],
    }


def replay_record(text: str, language: str = SOURCE) -> dict[str, object]:
    """Every position of a text record from its start, for stepping through it (the JSON values
    of a :class:`~..schemas.Replay`, checked by the server); or ``{"error": reason}`` for a bad
    record; its texts (title, move notes, ending, reason) in ``language``.  (The request body
    limit bounds its length.)"""
    with use(language):
        return _replay(text)


def _replay(text: str) -> dict[str, object]:
    try:
        game = loads(text)
    except LudotecaError as error:
        return {"error": str(error)}
    state = game.start()
    first_ply = state.ply
    positions: list[dict[str, object]] = [
        {
            "pieces": state.pieces(),
            "marked": state.marked_points(),
            "last": None,
            "move": None,
            "turn": state.turn.name.lower(),
        }
    ]
    for move in game.state.moves:
        gesture = state.gesture(move.code)
        label, note = state.move_label(move.code), state.move_note(move.code)
        state.push(move)
        positions.append(
            {
                "pieces": state.pieces(),
                "marked": state.marked_points(),
                "last": gesture,
                "move": label,
                "note": note,
                "turn": state.turn.name.lower(),
            }
        )
    outcome = game.state.outcome()
    return {
        "game": state.game.name,
        "title": _(state.game.title),
        "rules": str(state.rules),
        "rules_title": state.game.rules_title,
        "first_ply": first_ply,
        "tags": game.tags,
        "result": game.result,
        "ending": outcome.explain() if outcome else None,
        "board": board_view(state),
        "positions": positions,
    }

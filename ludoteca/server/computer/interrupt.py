"""Stopping an analysis job that runs on after its asker has gone.

A job cancelled while it waits is dropped by its :class:`~.scheduler.Scheduler`; one already
running in a worker process would run to its end, holding the process (and with it the first
engine line of the analysis board's next position) for as long as a depth may search.  The
server and its analysis process share one number (:func:`shared_ticket`): each stoppable job
is handed a ticket (:meth:`Interrupts.ticket`), and when its asker goes the server writes that
ticket there (:meth:`Interrupts.stop`); in the worker, a watcher thread
(:func:`start_watching`) stops the search agents of the job holding that ticket
(:func:`stoppable`) within :data:`POLL` seconds, and the compiled search stops within 1,024
nodes after that.  One number suffices: the process runs one job at a time, and a ticket
written for a job that never started stops nothing else.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import multiprocessing
import threading
import time
from collections.abc import Iterator

from ...ai.search import SearchAgent

__all__ = ["POLL", "Interrupts", "shared_ticket", "start_watching", "stoppable"]

#: how often the watcher thread reads the shared ticket, in seconds
POLL = 0.01


def shared_ticket() -> ctypes.c_int64:
    """A number shared with worker processes started after it (pass it to their initializer):
    shared memory without a lock (one writer, and a 64-bit word is written whole), so that no
    semaphore is left behind when the server stops."""
    return multiprocessing.get_context("spawn").RawValue(ctypes.c_int64, 0)


class Interrupts:
    """The server's side: tickets for stoppable jobs, and stopping one by its ticket."""

    def __init__(self, shared: ctypes.c_int64) -> None:
        self.shared = shared
        self._tickets = itertools.count(1)

    def ticket(self) -> int:
        """A new job's ticket (never 0, which no job holds)."""
        return next(self._tickets)

    def stop(self, ticket: int) -> None:
        """Stop the job holding ``ticket`` if it is running (or as soon as it starts)."""
        self.shared.value = ticket


class _Job:
    """The job running in this worker process: its ticket and its search agents."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ticket = 0
        self.agents: list[SearchAgent] = []

    def stop_if(self, ticket: int) -> None:
        with self.lock:
            if self.ticket and self.ticket == ticket:
                for agent in self.agents:
                    agent.stop()


_job = _Job()


def start_watching(shared: ctypes.c_int64) -> None:
    """In a worker process: watch ``shared`` (from :func:`shared_ticket`) in a daemon thread
    and stop the running job when its ticket is written there."""

    def watch() -> None:
        while True:
            time.sleep(POLL)
            _job.stop_if(int(shared.value))

    threading.Thread(target=watch, name="interrupts", daemon=True).start()


@contextlib.contextmanager
def stoppable(ticket: int) -> Iterator[SearchAgent]:
    """In a worker process: a search agent (seed 0) for the job holding ``ticket``, stopped
    when the server stops that ticket (0: never)."""
    agent = SearchAgent(0)
    with _job.lock:
        _job.ticket, _job.agents = ticket, [agent]
    try:
        yield agent
    finally:
        with _job.lock:
            _job.ticket, _job.agents = 0, []

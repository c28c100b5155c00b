"""A process pool whose stuck jobs are killed: :class:`WorkerPool`.

A :class:`~concurrent.futures.ProcessPoolExecutor` cannot stop one task, so a job that runs
past its hard deadline (a search that never returns) would hold its process for ever.  A
:class:`WorkerPool` kills the processes of its current pool when that happens and builds a
fresh one with the same settings: the late job fails with :class:`JobKilled`, and every other
job that was running in the killed pool is submitted again to the new one.  A hard deadline
counts from when the pool's processes have started (forked, initialised), never that start-up
itself.

Where the platform has one (Linux, macOS), every pool's processes are forked from a fork
server that loaded the compiled search once (:mod:`.preloaded`), so a new process (a pool's
first, or one replacing a killed pool) starts with it, where a spawned one imported Ludoteca and
loaded it itself: 4-5 s of a core each, three pools a server.  A process gets the server's
environment as it is when the process starts (:func:`_begin`), as a spawned one would, not the
fork server's; elsewhere processes are spawned.

With a ``memory`` bound, a pool whose process holds more memory of its own than the bound after
a job (:func:`.memory.own_memory`: its anonymous memory, table files' pages left out) is
*renewed*: later jobs go to a fresh pool, and the old one's processes finish the jobs they are
running, then exit (nothing is killed, nothing run twice).  A worker's memory therefore never
stays past the bound for more than one job: whatever a long run piles up in a process (its
heap's fragments, the tables and books it read) goes with it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from .memory import MIB, own_memory

__all__ = ["JobKilled", "WorkerPool", "close_pools"]

T = TypeVar("T")
log = logging.getLogger("ludoteca.server")

#: how many times a job whose process died under it is run in all
RUNS = 3
#: how long a job waits for its pool's processes to start before its deadline counts anyway
STARTING = 300.0


class JobKilled(Exception):
    """A job ran past its hard deadline; its process was killed and replaced."""


class WorkerPool(Executor):
    """``processes`` worker processes (forked from the fork server, or spawned), each started
    with ``initializer(*initargs)``;
    :meth:`run` stops a job at its hard deadline (:meth:`submit` runs one without one), and,
    with ``memory`` (bytes; ``None``: no bound), renews the pool after a job that leaves one of
    its processes holding more than that of its own."""

    def __init__(
        self,
        processes: int,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
        memory: int | None = None,
    ) -> None:
        self.processes = processes
        self._initializer = initializer
        self._initargs = initargs
        self.memory = memory
        #: how many times the pool's processes were killed and replaced
        self.replaced = 0
        #: how many times the pool was renewed for a process past ``memory``
        self.renewed = 0
        self._pool = self._build()
        #: one empty job a process, submitted before the first job with a deadline of each pool
        self._started: dict[ProcessPoolExecutor, list[Future[None]]] = {}

    def _build(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.processes,
            mp_context=_context(),
            initializer=_begin,
            initargs=(dict(os.environ), self._initializer, self._initargs),
        )

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def close(self, grace: float = 5.0) -> None:
        """Stop the pool for good (:func:`close_pools` of this pool alone)."""
        close_pools([self], grace)

    async def run(self, hard: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, killed (with the pool's other processes, whose
        jobs are run again) if it has not finished within ``hard`` seconds: then
        :class:`JobKilled`.  A job whose process died under it (its pool killed for another
        job, or a crash) is run again, :data:`RUNS` times in all, then fails with
        :class:`~concurrent.futures.process.BrokenProcessPool`.  A job that succeeds is
        followed by the pool's memory check (:meth:`_check_memory`)."""
        for _ in range(RUNS):
            pool = self._pool
            try:
                started = self._starting(pool)
                future = asyncio.wrap_future(pool.submit(fn, *args))
                if not all(f.done() for f in started):
                    await asyncio.wait([asyncio.wrap_future(f) for f in started], timeout=STARTING)
                result = await asyncio.wait_for(asyncio.shield(future), hard)
                self._check_memory(pool)
                return result
            except TimeoutError:
                future.add_done_callback(_retrieved)
                if pool is self._pool:
                    self._replace(pool)
                raise JobKilled(f"{fn.__name__} ran past its hard deadline ({hard:g} s)") from None
            except BrokenProcessPool:
                if pool is self._pool:  # broken by a crash, not by a kill: replace it as well
                    self._replace(pool)
                log.warning("job %s lost its worker process", fn.__name__)
        raise BrokenProcessPool(f"{fn.__name__} lost its worker process {RUNS} times")

    def _starting(self, pool: ProcessPoolExecutor) -> list[Future[None]]:
        """The empty jobs that start ``pool``'s processes (each started at a submission that
        finds no idle process), submitted the first time."""
        if pool not in self._started:
            self._started[pool] = [pool.submit(_start) for _ in range(self.processes)]
        return self._started[pool]

    def _check_memory(self, pool: ProcessPoolExecutor) -> None:
        """Renew ``pool`` (still the current one) if one of its processes holds more than
        :attr:`memory` of its own: later jobs start in a fresh pool, and the old one is shut
        down without waiting, so that its processes finish their running jobs and exit."""
        if self.memory is None or pool is not self._pool:
            return
        pid, most = _largest(pool)
        if most <= self.memory:
            return
        self._started.pop(pool, None)
        self._pool = self._build()
        self.renewed += 1
        pool.shutdown(wait=False)
        log.info(
            "worker process %d holds %d MiB (bound %d MiB): its pool's processes replaced",
            pid,
            most // MIB,
            self.memory // MIB,
        )

    def held(self) -> int:
        """The most memory one of the current pool's processes holds of its own (bytes; 0 for
        none started, or where the system does not say)."""
        return _largest(self._pool)[1]

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        self._started.pop(pool, None)
        processes = _processes_of(pool)
        self._pool = self._build()
        self.replaced += 1
        for process in processes:
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        log.warning("killed %d worker processes and started %d new", len(processes), self.processes)


def close_pools(pools: Iterable[WorkerPool], grace: float = 5.0) -> None:
    """Stop ``pools`` for good, side by side: jobs not started are cancelled, each process
    finishes the job under way for at most ``grace`` seconds in all (then it is killed) and
    exits, and the pools' queues are released, so that no process is left to die with the
    server and nothing leaks at its exit (no "leaked semaphore objects" warning).  The pools'
    processes exit at the same time (one with the compiled search and the tables loaded takes a
    second or two to end), so stopping several pools takes as long as the slowest, not the sum."""
    executors = [pool._pool for pool in pools]
    processes = [process for executor in executors for process in _processes_of(executor)]
    for executor in executors:
        executor.shutdown(wait=False, cancel_futures=True)
    until = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, until - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
    for executor in executors:
        executor.shutdown(wait=True)


#: the module the fork server imports before it forks any worker process
PRELOADED = "ludoteca.server.computer.preloaded"


def _context() -> BaseContext:
    """The fork server's context, with :data:`PRELOADED` to import at its start, where the
    platform has one; else spawning's."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([PRELOADED])
    return context


def _begin(
    environment: dict[str, str], initializer: Callable[..., object] | None, args: tuple[Any, ...]
) -> None:
    """Start a worker process: the server's ``environment`` (as it was when the pool was
    built), then the pool's ``initializer``."""
    os.environ.clear()
    os.environ.update(environment)
    if initializer is not None:
        initializer(*args)


def _start() -> None:
    """Nothing: run first in each new process, it is done when the process has started."""


def _processes_of(pool: ProcessPoolExecutor) -> list[Any]:
    """The processes of a pool (none once it is shut down; there is no public accessor)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _largest(pool: ProcessPoolExecutor) -> tuple[int, int]:
    """The process of ``pool`` holding the most memory of its own, and that memory in bytes
    (``(0, 0)`` for none)."""
    held = [(process.pid, own_memory(process.pid) or 0) for process in _processes_of(pool)]
    return max(held, key=lambda item: item[1], default=(0, 0))


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Mark the outcome of an abandoned job as seen (its pool was killed)."""
    if not future.cancelled():
        future.exception()

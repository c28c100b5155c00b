"""Computer work in worker processes, in a fair order.

A :class:`Scheduler` owns a process pool of ``slots`` workers and never hands it more than
``slots`` jobs, so that the order is its own: the job with the earliest *deadline* (when it was
asked for plus how long it is expected to think) goes first.  A level-1 move (expected to take
a few hundredths of a second) asked for while top-level moves (a second each) wait therefore
gets the next free worker, and no job waits for ever: every waiting job's deadline only comes
closer.  A job whose asker has gone (its game moved on, its page closed) is dropped before it
starts.  In a :class:`~.pool.WorkerPool`, a job still running at its *hard deadline*
(:data:`HARD_FACTOR` times its expected time plus the scheduler's ``grace``, from its start)
is killed with its process, which is replaced: its asker gets :class:`~.pool.JobKilled`.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry, Gauge, Histogram

from .pool import WorkerPool

__all__ = ["HARD_FACTOR", "HARD_GRACE", "JobMetrics", "Scheduler"]

T = TypeVar("T")

#: a job's hard deadline: this many times its expected time, plus the grace, after it starts
HARD_FACTOR = 3.0
HARD_GRACE = 10.0  # seconds


@dataclass(order=True)
class _Job:
    deadline: float
    order: int
    expected: float = field(compare=False)
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    done: asyncio.Future[Any] = field(compare=False)
    asked: float = field(compare=False)


class JobMetrics:
    """The metrics of every scheduler of a server (labelled by queue) in ``registry``."""

    def __init__(self, registry: CollectorRegistry) -> None:
        buckets = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30)
        self.waiting = Gauge(
            "ludoteca_jobs_waiting",
            "Computer jobs waiting for a worker",
            ["queue"],
            registry=registry,
        )
        self.running = Gauge(
            "ludoteca_jobs_running",
            "Computer jobs running in a worker",
            ["queue"],
            registry=registry,
        )
        self.wait = Histogram(
            "ludoteca_job_wait_seconds",
            "Time a job waited for a worker",
            ["queue"],
            buckets=buckets,
            registry=registry,
        )
        self.run = Histogram(
            "ludoteca_job_run_seconds",
            "Time a job ran in its worker",
            ["queue"],
            buckets=buckets,
            registry=registry,
        )
        self.memory = Gauge(
            "ludoteca_worker_memory_bytes",
            "The most memory one of the queue's worker processes holds of its own",
            ["queue"],
            registry=registry,
        )
        self.renewed = Gauge(
            "ludoteca_workers_renewed",
            "Times the queue's worker processes were replaced for passing the memory bound",
            ["queue"],
            registry=registry,
        )


class Scheduler:
    """Run jobs in ``pool`` (``slots`` processes), earliest deadline first; ``name`` labels its
    series in ``metrics``; ``grace``: the seconds a job may run past :data:`HARD_FACTOR` times
    its expected time before it is killed (in a :class:`~.pool.WorkerPool`)."""

    def __init__(
        self,
        pool: Executor,
        slots: int,
        name: str,
        metrics: JobMetrics,
        grace: float = HARD_GRACE,
    ) -> None:
        self.pool = pool
        self.slots = slots
        self.grace = grace
        self._waiting: list[_Job] = []
        self._running = 0
        self._order = itertools.count()
        self._queued = metrics.waiting.labels(queue=name)
        self._busy = metrics.running.labels(queue=name)
        self._wait = metrics.wait.labels(queue=name)
        self._run = metrics.run.labels(queue=name)
        if isinstance(pool, WorkerPool):
            metrics.memory.labels(queue=name).set_function(pool.held)
            metrics.renewed.labels(queue=name).set_function(lambda: pool.renewed)

    async def run(self, expected: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, once its turn comes: ``expected`` is how many seconds it
        should think (its deadline is now plus that).  Cancelling the caller while the job
        waits drops it."""
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        job = _Job(now + expected, next(self._order), expected, fn, args, loop.create_future(), now)
        heapq.heappush(self._waiting, job)
        self._queued.set(len(self._waiting))
        self._start_next()
        result: T = await job.done
        return result

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def _start_next(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.slots and self._waiting:
            job = heapq.heappop(self._waiting)
            if job.done.done():  # its asker gave up
                continue
            self._running += 1
            started = time.monotonic()
            self._wait.observe(started - job.asked)
            future: asyncio.Future[Any] = (
                asyncio.ensure_future(
                    self.pool.run(HARD_FACTOR * job.expected + self.grace, job.fn, *job.args)
                )
                if isinstance(self.pool, WorkerPool)
                else loop.run_in_executor(self.pool, job.fn, *job.args)
            )
            future.add_done_callback(functools.partial(self._finished, job=job, started=started))
        self._queued.set(len(self._waiting))
        self._busy.set(self._running)

    def _finished(self, future: asyncio.Future[Any], *, job: _Job, started: float) -> None:
        self._running -= 1
        self._run.observe(time.monotonic() - started)
        if not job.done.done():
            if future.cancelled():
                job.done.cancel()
            elif future.exception() is not None:
                job.done.set_exception(future.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(future.result())
        self._start_next()

"""Computer moves on a Redis queue (arq), thought out by ``ludoteca worker`` processes.

With ``ludoteca serve --redis URL --queue`` a server does not think itself: it puts each
computer move on one queue shared by every server, and ``ludoteca worker --redis URL``
processes, on any machine, take the jobs and think in their own process pools.

- **Order**: the queue is ordered by *deadline* (when the move was asked for plus how long its
  level thinks), as a server's own :class:`~.scheduler.Scheduler` orders its jobs: a level-1
  move asked for behind a queue of one-second moves goes first, and every waiting job's turn
  comes.  (arq runs a job once its score has passed; the score is the deadline moved
  :data:`HORIZON` into the past, so every job is ready at once and the earliest deadline is
  taken first.)
- **Answers**: a worker publishes each answer on the asking server's own channel as soon as it
  has it; a server that missed the message finds the result arq keeps, looking every
  :data:`CHECK` seconds past the job's expected time.
- **Runaway jobs**: a job still thinking after :data:`JOB_TIMEOUT` seconds is killed with its
  process, which the worker replaces (see :class:`~.pool.WorkerPool`); its asker gets
  :class:`~.pool.JobKilled`.
- **Crashes**: a job whose worker dies (even by ``kill -9``) stays on the queue, marked in
  progress for :data:`JOB_TIMEOUT` plus :data:`BACKSTOP` plus arq's 10 seconds; then another
  worker takes it again (at most :data:`TRIES` times).  A job whose asker has gone (the game
  moved on) is aborted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures import wait
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.jobs import Job, JobStatus
from arq.typing import WorkerCoroutine
from arq.worker import Worker, func
from prometheus_client import CollectorRegistry, Gauge, Histogram

from . import workers
from .pool import JobKilled, WorkerPool

__all__ = ["JOBS", "QUEUE", "JobQueue", "run_worker"]

T = TypeVar("T")
log = logging.getLogger("ludoteca.server")

QUEUE = "ludoteca:jobs"
REPLIES = "ludoteca:replies:"
#: how far into the past a job's deadline is moved to make its score (see the module's text)
HORIZON = 3600.0
#: a job thinking longer is killed with its process (its worker replaces the process)
JOB_TIMEOUT = 10.0
#: arq's own timeout comes this much later, should the kill itself not end the job
BACKSTOP = 2.0
TRIES = 3
#: a job not started within this many seconds is dropped (its game has long moved on)
EXPIRES = 120.0
CHECK = 2.0
#: how often an idle worker looks at the queue (seconds)
POLL = 0.01

#: the work a server may put on the queue, by name (each runs in a worker's process pool)
JOBS: dict[str, Callable[..., Any]] = {"computer_move": workers.computer_move}


class JobQueue:
    """A server's end of the queue: :meth:`run` has the contract of
    :meth:`.scheduler.Scheduler.run` for the functions in :data:`JOBS`."""

    def __init__(self, url: str, registry: CollectorRegistry) -> None:
        self.url = url
        self.channel = REPLIES + secrets.token_hex(8)
        self._pool: ArqRedis | None = None
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._waiting = Gauge(
            "ludoteca_queue_waiting", "Computer jobs this server awaits", registry=registry
        )
        self._waiting.set_function(lambda: len(self._pending))
        self._answer = Histogram(
            "ludoteca_queue_answer_seconds",
            "From putting a job on the queue to its answer",
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
            registry=registry,
        )

    async def start(self) -> None:
        """Connect, and listen on this server's channel for answers."""
        self._pool = await create_pool(RedisSettings.from_dsn(self.url))
        pubsub = self._pool.pubsub()
        await pubsub.subscribe(self.channel)
        self._reader = asyncio.get_running_loop().create_task(self._read(pubsub))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._pool is not None:
            await self._pool.aclose()

    @property
    def waiting(self) -> int:
        return len(self._pending)

    async def run(self, expected: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker once its turn comes (``expected``: the seconds it should
        take, which sets its deadline); cancelling the caller aborts the job."""
        if self._pool is None:
            raise RuntimeError("the job queue is not started")
        name = fn.__name__
        if JOBS.get(name) is not fn:
            raise ValueError(f"{name} is not a queued job")
        job_id = secrets.token_hex(12)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[job_id] = answer
        asked = time.monotonic()
        deadline = datetime.fromtimestamp(time.time() + expected - HORIZON, tz=UTC)
        job: Job | None = None
        try:
            job = await self._pool.enqueue_job(
                name,
                self.channel,
                *args,
                _job_id=job_id,
                _queue_name=QUEUE,
                _defer_until=deadline,
                _expires=EXPIRES,
            )
            if job is None:
                raise RuntimeError("the job queue refused the job")
            while True:
                try:
                    result: T = await asyncio.wait_for(
                        asyncio.shield(answer), timeout=expected + CHECK
                    )
                    break
                except TimeoutError:  # the message may have been missed: ask arq
                    info = await job.result_info()
                    if info is None:
                        if await job.status() == JobStatus.not_found:  # expired unstarted
                            raise RuntimeError("the job queue dropped the job") from None
                        continue
                    if isinstance(info.result, JobKilled):
                        raise info.result from None
                    if not info.success:
                        raise RuntimeError(f"the worker failed: {info.result!r}") from None
                    result = info.result
                    break
            self._answer.observe(time.monotonic() - asked)
            return result
        except asyncio.CancelledError:
            if job is not None:
                asyncio.get_running_loop().create_task(_abort(job))
            raise
        finally:
            self._pending.pop(job_id, None)

    async def _read(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None:
                    continue
                reply = json.loads(message["data"])
                answer = self._pending.get(reply["id"])
                if answer is None or answer.done():
                    continue
                if reply["ok"]:
                    answer.set_result(reply["result"])
                elif reply.get("killed"):
                    answer.set_exception(JobKilled(reply["error"]))
                else:
                    answer.set_exception(RuntimeError(f"the worker failed: {reply['error']}"))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: the results are looked up meanwhile
                log.warning("reading job answers failed (%s); trying again", error)
                await asyncio.sleep(1.0)


async def _abort(job: Job) -> None:
    with contextlib.suppress(Exception):
        await job.abort(timeout=0, poll_delay=0.01)


def _job(fn: Callable[..., Any]) -> WorkerCoroutine:
    """The worker's coroutine for ``fn``: run it in the worker's process pool (killed after
    :data:`JOB_TIMEOUT`) and publish the answer on the asking server's channel."""

    async def job(ctx: dict[str, Any], reply_to: str, *args: Any) -> Any:
        redis: ArqRedis = ctx["redis"]
        pool: WorkerPool = ctx["pool"]
        try:
            result = await pool.run(JOB_TIMEOUT, fn, *args)
        except Exception as error:
            reply = {"id": ctx["job_id"], "ok": False, "error": str(error)[:300]}
            if isinstance(error, JobKilled):
                log.warning("job %s: %s", ctx["job_id"], error)
                reply["killed"] = True
            await redis.publish(reply_to, json.dumps(reply))
            raise
        await redis.publish(
            reply_to, json.dumps({"id": ctx["job_id"], "ok": True, "result": result})
        )
        return result

    job.__name__ = fn.__name__
    return cast(WorkerCoroutine, job)


def run_worker(url: str, slots: int, memory: int | None = None) -> None:
    """Take jobs from the queue at ``url`` and think in ``slots`` processes (renewed past
    ``memory`` bytes of a process's own: :class:`~.pool.WorkerPool`; holding up to
    twice as many jobs, so that the next is at hand when one ends; reading the queue's next
    ``4 * slots`` in deadline order at each look), until SIGTERM or
    Ctrl-C: then no new job is taken and the running ones are finished (within
    :data:`JOB_TIMEOUT`; a job stopped after that is taken again by another worker)."""
    pool = WorkerPool(slots, workers.die_with_parent, (os.getpid(),), memory)
    wait([pool.submit(workers.load_compiled) for _ in range(slots)])

    async def startup(ctx: dict[str, Any]) -> None:
        ctx["pool"] = pool

    worker = Worker(
        [func(_job(fn), name=name) for name, fn in JOBS.items()],
        queue_name=QUEUE,
        redis_settings=RedisSettings.from_dsn(url),
        max_jobs=2 * slots,
        queue_read_limit=4 * slots,
        job_timeout=JOB_TIMEOUT + BACKSTOP,
        max_tries=TRIES,
        poll_delay=POLL,
        allow_abort_jobs=True,
        keep_result=60,
        on_startup=startup,
        log_results=False,
        job_completion_wait=int(JOB_TIMEOUT),
    )
    print(f"Ludoteca worker: {slots} processes thinking for the queue at {url}", flush=True)
    try:
        worker.run()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)

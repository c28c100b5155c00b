"""The worker processes' memory bound (``LUDOTECA_WORKER_MEMORY``, :class:`WorkerPool`'s
``memory``): a pool whose process holds more than the bound after a job is replaced by fresh
processes, which answer the next jobs; the jobs running in the old pool finish there; a pool
under its bound keeps its processes; the renewals are counted in the metrics."""

from __future__ import annotations

import asyncio
import os
import time
from types import SimpleNamespace
from typing import Any

from prometheus_client import CollectorRegistry

import ludoteca
from ludoteca.server.computer import workers
from ludoteca.server.computer.computer import Computer
from ludoteca.server.computer.memory import MIB, own_memory
from ludoteca.server.computer.pool import WorkerPool

#: a bound every process passes, and one none does
TINY, HUGE = MIB, 1 << 40


def felli_move(pool: WorkerPool) -> Any:
    """The first level's move from Felli's start, worked out in ``pool``."""
    start = ludoteca.new_game("felli").position_code()
    return pool.run(30.0, workers.computer_move, "felli", "felli", start, [], "level:1", 1)


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether the process ``pid`` has ended (or is a zombie, holding no memory) within
    ``within`` seconds."""
    until = time.monotonic() + within
    while own_memory(pid) is not None:
        if time.monotonic() > until:
            return False
        time.sleep(0.1)
    return True


def test_a_worker_past_the_bound_is_replaced_after_its_job_and_the_next_is_answered() -> None:
    async def scenario() -> tuple[int, int, str, int, int, int]:
        pool = WorkerPool(1, memory=TINY)
        try:
            first = await pool.run(30.0, os.getpid)
            renewed = pool.renewed
            move = await felli_move(pool)
            second = await pool.run(30.0, os.getpid)
            return first, renewed, move, second, pool.renewed, pool.replaced
        finally:
            pool.shutdown()

    first, renewed_after_one, move, second, renewed, replaced = asyncio.run(scenario())
    assert renewed_after_one == 1  # replaced after its first job
    assert move in {str(m) for m in ludoteca.new_game("felli").legal_moves}
    assert second not in (first, os.getpid())  # a new process answered
    assert renewed == 3 and replaced == 0  # after each job; none killed
    assert gone(first)  # the old process exited


def test_a_worker_under_the_bound_is_kept() -> None:
    async def scenario() -> tuple[int, int, int, int]:
        pool = WorkerPool(1, memory=HUGE)
        try:
            first = await pool.run(30.0, os.getpid)
            await felli_move(pool)
            return first, await pool.run(30.0, os.getpid), pool.renewed, pool.held()
        finally:
            pool.shutdown()

    first, second, renewed, held = asyncio.run(scenario())
    assert first == second and renewed == 0
    assert TINY < held < HUGE  # measured, and under the bound


def test_a_job_running_when_its_pool_is_renewed_finishes_in_the_old_process() -> None:
    async def scenario() -> tuple[Any, int, int]:
        pool = WorkerPool(2, memory=TINY)
        try:
            await pool.run(30.0, os.getpid)  # both processes up; renews the pool
            slow = asyncio.ensure_future(pool.run(30.0, time.sleep, 2.0))
            await asyncio.sleep(0.5)
            await pool.run(30.0, os.getpid)  # renews it while the slow job runs
            finished = await asyncio.gather(slow, return_exceptions=True)
            return finished[0], pool.renewed, pool.replaced
        finally:
            pool.shutdown()

    slow, renewed, replaced = asyncio.run(scenario())
    assert slow is None  # time.sleep's answer: it ran to its end, not killed
    assert renewed == 2 and replaced == 0


def test_renewals_and_memory_are_in_the_metrics() -> None:
    state = ludoteca.new_game("felli")
    row = SimpleNamespace(id="g1", game="felli", rules=str(state.rules), clock=None)
    live = SimpleNamespace(row=row, state=state, kind=lambda turn: "level:1")
    registry = CollectorRegistry()

    async def scenario() -> list[str]:
        pool = WorkerPool(1, memory=TINY)
        try:
            computer = Computer(pool, 1, pool, registry=registry)
            return [await computer.move(live), await computer.move(live)]  # type: ignore[arg-type]
        finally:
            pool.shutdown()

    moves = asyncio.run(scenario())
    assert set(moves) <= {str(m) for m in state.legal_moves}
    assert registry.get_sample_value("ludoteca_workers_renewed", {"queue": "moves"}) == 2
    memory = registry.get_sample_value("ludoteca_worker_memory_bytes", {"queue": "moves"})
    assert memory is not None and memory >= 0

"""No runaway work (docs/scaling.md): a job still running at its hard deadline is killed with
its worker process, the pool serves the next job in a fresh process, the jobs that shared the
killed pool are run again, and a game whose computer move was killed still gets a move."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

import ludoteca
from ludoteca.server.computer.computer import Computer
from ludoteca.server.computer.pool import JobKilled, WorkerPool
from ludoteca.server.computer.scheduler import HARD_FACTOR, JobMetrics, Scheduler

EXPECTED = 0.1  # seconds: what the jobs below say they take
GRACE = 1.0


def test_a_hanging_job_is_killed_at_its_hard_deadline_and_the_pool_goes_on() -> None:
    async def scenario() -> tuple[Any, float, Any, int, int, int]:
        pool = WorkerPool(2)
        try:
            scheduler = Scheduler(pool, 2, "test", JobMetrics(CollectorRegistry()), GRACE)
            before = await scheduler.run(EXPECTED, os.getpid)  # a process is up
            started = time.monotonic()
            hanging = asyncio.ensure_future(scheduler.run(EXPECTED, time.sleep, 3600))
            # a job sharing the pool, still running when the hanging one is killed
            neighbour = asyncio.ensure_future(scheduler.run(30.0, time.sleep, 2.0))
            outcome = await asyncio.gather(hanging, return_exceptions=True)
            killed_after = time.monotonic() - started
            after = await scheduler.run(EXPECTED, os.getpid)
            return outcome[0], killed_after, await neighbour, before, after, pool.replaced
        finally:
            pool.shutdown()

    outcome, killed_after, neighbour, before, after, replaced = asyncio.run(scenario())
    hard = HARD_FACTOR * EXPECTED + GRACE
    assert isinstance(outcome, JobKilled)
    assert hard <= killed_after < hard + 1.0
    assert replaced == 1
    assert neighbour is None  # time.sleep's answer: it ran again to its end in the new pool
    assert after != before  # the next job ran in a new process


def test_a_game_whose_computer_move_is_killed_still_gets_a_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = ludoteca.new_game("morris")
    # a pure-Python search with no limit but depth 60: far past any hard deadline
    row = SimpleNamespace(id="g1", game="morris", rules=str(state.rules))
    live = SimpleNamespace(row=row, state=state, kind=lambda turn: "search:depth=60,python=1")

    async def scenario() -> tuple[str, int]:
        pool = WorkerPool(1)
        try:
            computer = Computer(pool, 1, pool, registry=CollectorRegistry(), grace=5.0)
            return await computer.move(live), pool.replaced  # type: ignore[arg-type]
        finally:
            pool.shutdown()

    with caplog.at_level(logging.WARNING, logger="ludoteca.server"):
        move, replaced = asyncio.run(scenario())
    assert replaced == 1
    assert move in {str(state.move_of(code)) for code in state.legal_codes()}
    assert any("was killed" in record.getMessage() for record in caplog.records)

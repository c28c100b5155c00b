"""Computer work is handed to the workers earliest deadline first: a quick move asked for while
slow ones wait goes next; a job whose asker left is dropped; the metrics show the queues."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry

from ludoteca.server import Settings, create_app
from ludoteca.server.computer import scheduler
from ludoteca.server.computer.scheduler import JobMetrics, Scheduler


class Clock:
    """The scheduler's clock, moved by hand: deadlines depend on nothing but the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


class Jobs:
    """Jobs for a one-thread pool that record the order they ran in; a job given a gate waits
    for it to open (and says it has started)."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.started = threading.Event()

    def run(self, name: str, gate: threading.Event | None = None) -> str:
        if gate is not None:
            self.started.set()
            gate.wait(30)
        self.ran.append(name)
        return name


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(scheduler, "time", fake)
    return fake


def test_a_quick_job_overtakes_the_slow_ones_waiting(clock: Clock) -> None:
    jobs, gate = Jobs(), threading.Event()

    async def scenario() -> None:
        pool = Scheduler(ThreadPoolExecutor(1), 1, "test", JobMetrics(CollectorRegistry()))
        slow = [asyncio.ensure_future(pool.run(1.0, jobs.run, "slow0", gate))]
        slow += [asyncio.ensure_future(pool.run(1.0, jobs.run, f"slow{i}")) for i in (1, 2, 3)]
        await asyncio.to_thread(jobs.started.wait, 30)  # slow0 is running, three wait
        quick = asyncio.ensure_future(pool.run(0.05, jobs.run, "quick"))
        gone = asyncio.ensure_future(pool.run(0.01, jobs.run, "gone"))
        await asyncio.sleep(0)  # both are queued
        gone.cancel()  # its page closed before a worker was free
        gate.set()
        assert await quick == "quick"
        await asyncio.gather(*slow)

    asyncio.run(scenario())
    assert jobs.ran == ["slow0", "quick", "slow1", "slow2", "slow3"]


def test_no_job_waits_for_ever(clock: Clock) -> None:
    """Deadlines are the time asked plus the expected time: a slow job asked long enough
    before a stream of quick ones goes before them."""
    jobs, gate = Jobs(), threading.Event()

    async def scenario() -> None:
        pool = Scheduler(ThreadPoolExecutor(1), 1, "test", JobMetrics(CollectorRegistry()))
        first = asyncio.ensure_future(pool.run(0.01, jobs.run, "first", gate))
        await asyncio.to_thread(jobs.started.wait, 30)
        clock.now += 0.01
        slow = asyncio.ensure_future(pool.run(0.03, jobs.run, "slow"))  # due at +0.04
        await asyncio.sleep(0)  # a turn of the event loop: it is queued
        clock.now += 0.05
        quick = [asyncio.ensure_future(pool.run(0.01, jobs.run, f"quick{i}")) for i in range(3)]
        await asyncio.sleep(0)  # all queued, each due at +0.07
        gate.set()
        await asyncio.gather(first, slow, *quick)

    asyncio.run(scenario())
    assert jobs.ran == ["first", "slow", "quick0", "quick1", "quick2"]


def test_metrics_are_served_to_this_machine(tmp_path: Path) -> None:
    with TestClient(
        create_app(
            Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, warm=False)
        )
    ) as client:
        created = client.post("/api/games", json={"game": "felli", "opponent": "hotseat"})
        game_id, token = created.json()["id"], created.json()["tokens"]["white"]
        client.post(
            f"/api/games/{game_id}/actions",
            json={"token": token, "type": "move", "move": "b2-c3", "ply": 0},
        )
        text = client.get("/metrics").text
        assert "ludoteca_moves_total 1.0" in text
        assert "ludoteca_games_in_memory 1.0" in text
        assert "ludoteca_outbox_waiting 0.0" in text  # (nobody watches: nothing waits)
        assert 'ludoteca_jobs_waiting{queue="moves"}' in text
    with TestClient(
        create_app(
            Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, warm=False)
        ),
        client=("203.0.113.9", 5000),
    ) as stranger:
        assert stranger.get("/metrics").status_code == 404

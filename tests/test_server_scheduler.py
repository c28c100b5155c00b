"""Computer work is handed to the workers earliest deadline first: a quick move asked for while
slow ones wait goes next; a job whose asker left is dropped; the metrics show the queues."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry

from ludoteca.server import create_app
from ludoteca.server.computer.scheduler import JobMetrics, Scheduler

ran: list[str] = []


def job(name: str, seconds: float) -> str:
    time.sleep(seconds)
    ran.append(name)
    return name


def test_a_quick_job_overtakes_the_slow_ones_waiting() -> None:
    async def scenario() -> list[str]:
        scheduler = Scheduler(ThreadPoolExecutor(1), 1, "test", JobMetrics(CollectorRegistry()))
        slow = [asyncio.ensure_future(scheduler.run(1.0, job, f"slow{i}", 0.05)) for i in range(4)]
        await asyncio.sleep(0.01)  # slow0 is running, three wait
        quick = asyncio.ensure_future(scheduler.run(0.05, job, "quick", 0.0))
        gone = asyncio.ensure_future(scheduler.run(0.01, job, "gone", 0.0))
        await asyncio.sleep(0)
        gone.cancel()  # its page closed before a worker was free
        assert await quick == "quick"
        await asyncio.gather(*slow)
        return list(ran)

    ran.clear()
    assert asyncio.run(scenario()) == ["slow0", "quick", "slow1", "slow2", "slow3"]


def test_no_job_waits_for_ever() -> None:
    """Deadlines are the time asked plus the expected time: a slow job asked long enough
    before a stream of quick ones goes before them."""

    async def scenario() -> list[str]:
        scheduler = Scheduler(ThreadPoolExecutor(1), 1, "test", JobMetrics(CollectorRegistry()))
        first = asyncio.ensure_future(scheduler.run(0.01, job, "first", 0.1))
        await asyncio.sleep(0.01)
        slow = asyncio.ensure_future(scheduler.run(0.03, job, "slow", 0.0))
        await asyncio.sleep(0.05)
        quick = [
            asyncio.ensure_future(scheduler.run(0.01, job, f"quick{i}", 0.0)) for i in range(3)
        ]
        await asyncio.gather(first, slow, *quick)
        return list(ran)

    ran.clear()
    assert asyncio.run(scenario()) == ["first", "slow", "quick0", "quick1", "quick2"]


def test_metrics_are_served_to_this_machine(tmp_path: Path) -> None:
    with TestClient(
        create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, warm=False)
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
        assert 'ludoteca_jobs_waiting{queue="moves"}' in text
    with TestClient(
        create_app(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, warm=False),
        client=("203.0.113.9", 5000),
    ) as stranger:
        assert stranger.get("/metrics").status_code == 404

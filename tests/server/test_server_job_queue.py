"""The computer's moves on the Redis queue: a server started with ``--queue`` does not think, a
``ludoteca worker`` does; a worker killed (SIGKILL) while thinking has its move taken again by
another, and the move is played once; the queue is ordered by deadline."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from arq.constants import abort_jobs_ss, in_progress_key_prefix
from arq.jobs import Job
from prometheus_client import CollectorRegistry

import ludoteca
from ludoteca.server.computer import workers
from ludoteca.server.computer.queue import QUEUE, JobQueue

from ..support.postgres import database
from ..support.servers import Server, Worker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")


@pytest.fixture(scope="module")
def queued(
    postgres_port: int, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, str, Path]]:
    """A server that puts the computer's moves on the queue (no worker yet), its Redis (a
    database of its own) and a folder for logs."""
    folder = tmp_path_factory.mktemp("queue")
    url = redis_url.rsplit("/", 1)[0] + "/3"
    redis.Redis.from_url(url).flushdb()
    server = Server(
        database(postgres_port, f"q{secrets.token_hex(6)}"), url, folder, "server", "--queue"
    )
    try:
        server.wait_ready()
        yield server, url, folder
    finally:
        server.stop()


#: a Nine Men's Morris position after the placing, White to move (five moves): out of the
#: opening book, so the top level searches its second
SLOW = ".WW/.B./WWW/BBBW.B/.../BBB/.W. w 0 0 0 18"


def wait_for_moves(server: Server, game_id: str, count: int, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        state = server.call(f"/api/games/{game_id}")
        if len(state["moves"]) >= count:
            return state
        assert time.monotonic() < deadline, f"no move came: {state['moves']}"
        time.sleep(0.1)  # polling: the test holds no websocket to be told on


async def worker_answer(url: str, job_id: str) -> Any:
    """What the worker answered to job ``job_id`` (arq keeps it for a minute)."""
    store = redis.asyncio.Redis.from_url(url)
    try:
        info = await Job(job_id, store, _queue_name=QUEUE).result_info()
        assert info is not None and info.success
        return info.result
    finally:
        await store.aclose()


def test_workers_think_and_a_killed_workers_move_is_taken_again(
    queued: tuple[Server, str, Path],
) -> None:
    server, url, folder = queued
    store = redis.Redis.from_url(url)
    # the computer (White) is to move at once, but nothing thinks in the server itself
    first = server.call(
        "/api/games", {"game": "morris", "opponent": "computer", "level": 1, "colour": "black"}
    )
    deadline = time.monotonic() + 30
    while not (queued_jobs := store.zrange(QUEUE, 0, -1)):
        assert time.monotonic() < deadline, "the job never reached the queue"
        time.sleep(0.05)  # polling Redis: the server announces no job
    assert len(queued_jobs) == 1  # the job waits on the queue
    assert server.call(f"/api/games/{first['id']}")["moves"] == []
    one = Worker(url, folder, "worker-one")
    two: Worker | None = None
    try:
        state = wait_for_moves(server, first["id"], 1, 120)
        assert len(state["moves"]) == 1 and state["turn"] == "black"
        # the move played is the one the worker answered (its result is kept in Redis)
        assert asyncio.run(worker_answer(url, queued_jobs[0].decode())) == state["moves"][0]
        # the top level thinks about a second (in a position out of its opening book, where
        # it would answer at once): kill its worker while the job is in progress
        slow = server.call(
            "/api/games",
            {
                "game": "morris",
                "opponent": "computer",
                "level": 6,
                "colour": "black",
                "position": SLOW,
            },
        )
        deadline = time.monotonic() + 30
        while not store.keys(in_progress_key_prefix + "*"):
            assert time.monotonic() < deadline, "the worker never took the job"
            time.sleep(0.01)  # polling Redis: a job's start is announced to no one
        one.process.send_signal(signal.SIGKILL)
        one.process.wait(10)
        assert server.call(f"/api/games/{slow['id']}")["moves"] == []
        assert store.zcard(QUEUE) == 1  # still on the queue, marked in progress
        two = Worker(url, folder, "worker-two")
        state = wait_for_moves(server, slow["id"], 1, 90)  # once the mark has run out
        assert len(state["moves"]) == 1
        deadline = time.monotonic() + 30
        while store.zcard(QUEUE):  # arq takes a finished job off the queue after answering
            assert time.monotonic() < deadline, "the answered job stayed on the queue"
            time.sleep(0.05)  # polling Redis: arq announces no removal
        # and the game goes on through the new worker
        token = slow["tokens"]["black"]
        after = ludoteca.load("morris").from_position_code(SLOW)
        after.push(state["moves"][0])
        reply = str(after.legal_moves[0])
        server.call(
            f"/api/games/{slow['id']}/actions",
            {"token": token, "type": "move", "move": reply, "ply": 1},
        )
        # the worker (one process) answers in turn: a second answer to the killed job would
        # have come before this one, and played it twice
        assert wait_for_moves(server, slow["id"], 3, 60)["moves"][:1] == state["moves"]
        assert len(server.call(f"/api/games/{slow['id']}")["moves"]) == 3
    finally:
        one.stop()
        if two is not None:
            two.stop()


def test_the_queue_is_ordered_by_deadline(redis_url: str) -> None:
    url = redis_url.rsplit("/", 1)[0] + "/4"
    store = redis.Redis.from_url(url)
    store.flushdb()

    async def ask() -> None:
        store_async = redis.asyncio.Redis.from_url(url)
        queue = JobQueue(url, CollectorRegistry())
        await queue.start()
        waiting = []
        asked: list[str] = []  # the jobs in the order they were asked for
        try:
            # a one-second move, then a quick one asked for a little later: the quick one's
            # deadline is earlier, so it is first in line; a two-second one after both
            for expected in (1.0, 0.05, 2.0):
                waiting.append(
                    asyncio.ensure_future(
                        queue.run(
                            expected, workers.computer_move, "morris", "morris", "", [], "random", 1
                        )
                    )
                )
                deadline = time.monotonic() + 30
                while len(jobs := store.zrange(QUEUE, 0, -1)) == len(asked):
                    assert time.monotonic() < deadline, "the job never reached the queue"
                    await asyncio.sleep(0.01)  # polling Redis: enqueueing announces nothing
                (new,) = {key.decode() for key in jobs} - set(asked)
                asked.append(new)
            for job in asked:
                info = await Job(job, store_async, _queue_name=QUEUE).info()
                assert info is not None and info.function == "computer_move"
            # deadline order: asked within a second of each other, whatever the pauses between
            assert [key.decode() for key in store.zrange(QUEUE, 0, -1)] == [
                asked[1],
                asked[0],
                asked[2],
            ]
            # a caller that gives up aborts its job
            waiting[2].cancel()
            deadline = time.monotonic() + 30
            while store.zscore(abort_jobs_ss, asked[2]) is None:
                assert time.monotonic() < deadline, "the job was not aborted"
                await asyncio.sleep(0.01)  # polling Redis: an abort announces nothing
        finally:
            for task in waiting:
                task.cancel()
            await queue.close()
            await store_async.aclose()

    asyncio.run(ask())
    with pytest.raises(ValueError, match="not a queued job"):
        asyncio.run(_not_a_job(url))


async def _not_a_job(url: str) -> None:
    queue = JobQueue(url, CollectorRegistry())
    await queue.start()
    try:
        await queue.run(1.0, workers.hint, "morris", "morris", "", [], 1.0)
    finally:
        await queue.close()

"""No runaway work (docs/scaling.md): a job still running at its hard deadline is killed with
its worker process, the pool serves the next job in a fresh process, the jobs that shared the
killed pool are run again, and a game whose computer move was killed still gets a move; the
same in a ``ludoteca worker`` on the Redis queue.  And one client address has only so many
record replays worked out at once."""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

import ludoteca
from ludoteca import record
from ludoteca.server.computer import computer as computer_module
from ludoteca.server.computer import workers
from ludoteca.server.computer.computer import REPLAYS_PER_CLIENT, Computer
from ludoteca.server.computer.interrupt import shared_ticket
from ludoteca.server.computer.pool import RUNS, JobKilled, WorkerPool, _processes_of
from ludoteca.server.computer.queue import JobQueue
from ludoteca.server.computer.scheduler import HARD_FACTOR, JobMetrics, Scheduler
from ludoteca.server.errors import ActionError
from ludoteca.server.settings import Settings

EXPECTED = 0.1  # seconds: what the jobs below say they take
GRACE = 1.0
#: a pure-Python search with no limit but depth 60: far past any hard deadline
HANGING = "search:depth=60,python=1"
WORKER_TIMEOUT = 8.0  # seconds: the hard deadline of the test's ``ludoteca worker``


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


def test_a_deadline_counts_from_when_the_processes_have_started() -> None:
    """Processes that take 3 s to start (their initializer sleeps) do not make a job with a 1 s
    deadline run past it: neither the pool's first job nor the first after a kill."""

    async def scenario() -> tuple[int, Any, int, int]:
        pool = WorkerPool(1, time.sleep, (3.0,))
        try:
            first = await pool.run(1.0, os.getpid)
            killed = await asyncio.gather(pool.run(1.0, time.sleep, 3600), return_exceptions=True)
            return first, killed[0], await pool.run(1.0, os.getpid), pool.replaced
        finally:
            pool.shutdown()

    first, killed, second, replaced = asyncio.run(scenario())
    assert isinstance(killed, JobKilled) and replaced == 1
    assert len({first, second, os.getpid()}) == 3


def test_a_job_that_kills_its_process_is_run_three_times_then_fails() -> None:
    async def scenario() -> tuple[Any, int, int]:
        pool = WorkerPool(1)
        try:
            outcome = await asyncio.gather(pool.run(30.0, os._exit, 1), return_exceptions=True)
            return outcome[0], pool.replaced, await pool.run(30.0, os.getpid)
        finally:
            pool.shutdown()

    outcome, replaced, pid = asyncio.run(scenario())
    assert isinstance(outcome, BrokenProcessPool)
    assert replaced == RUNS
    assert pid != os.getpid()  # and the pool serves the next job


def hanging_game() -> tuple[Any, Callable[[str], bool]]:
    """What the computer reads of a game whose computer player hangs, and whether a move is
    legal in it."""
    state = ludoteca.new_game("morris")
    row = SimpleNamespace(id="g1", game="morris", rules=str(state.rules), clock=None)
    live = SimpleNamespace(row=row, state=state, kind=lambda turn: HANGING)
    legal = {str(state.move_of(code)) for code in state.legal_codes()}
    return live, legal.__contains__


def killed_logged(caplog: pytest.LogCaptureFixture) -> bool:
    return any("was killed" in record.getMessage() for record in caplog.records)


def test_a_game_whose_computer_move_is_killed_still_gets_a_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    live, legal = hanging_game()

    async def scenario() -> tuple[str, int]:
        pool = WorkerPool(1)
        try:
            computer = Computer(pool, 1, pool, registry=CollectorRegistry(), grace=5.0)
            return await computer.move(live), pool.replaced
        finally:
            pool.shutdown()

    with caplog.at_level(logging.WARNING, logger="ludoteca.server"):
        move, replaced = asyncio.run(scenario())
    assert replaced == 1
    assert legal(move)
    assert killed_logged(caplog)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_a_queued_move_past_the_workers_deadline_is_killed_and_the_game_gets_a_move(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    url = redis_url.rsplit("/", 1)[0] + "/5"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from ludoteca.server.computer import queue; "
            f"queue.JOB_TIMEOUT = {WORKER_TIMEOUT}; queue.run_worker(sys.argv[1], 1)",
            url,
        ]
    )
    live, legal = hanging_game()
    start = live.state.start

    async def scenario() -> tuple[Any, float, str]:
        jobs = JobQueue(url, CollectorRegistry())
        await jobs.start()
        try:
            asked = time.monotonic()
            outcome = await asyncio.gather(
                jobs.run(
                    EXPECTED, workers.computer_move, "morris", "morris", start, [], HANGING, 1
                ),
                return_exceptions=True,
            )
            killed_after = time.monotonic() - asked
            computer = Computer(WorkerPool(1), registry=CollectorRegistry(), queue=jobs)
            return outcome[0], killed_after, await computer.move(live)
        finally:
            await jobs.close()

    try:
        with caplog.at_level(logging.WARNING, logger="ludoteca.server"):
            outcome, killed_after, move = asyncio.run(scenario())
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:  # never left behind (its job's process dies with it)
            worker.kill()
            worker.wait()
    assert isinstance(outcome, JobKilled)
    assert WORKER_TIMEOUT <= killed_after < WORKER_TIMEOUT + 30  # the worker's start included
    assert legal(move)  # the next job, in the worker's new process
    assert killed_logged(caplog)


def test_one_address_has_only_so_many_record_replays_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    real = computer_module.workers.replay_record
    start = record.dumps(ludoteca.new_game("felli"))  # a record whose replay the server checks

    def replay_record(text: str, language: str) -> dict[str, object]:
        """The replay of a real record, named by ``text`` (its Event tag) to tell them apart."""
        gate.wait(30)
        answer = real(start, language)
        answer["tags"] = {**answer["tags"], "Event": text}  # type: ignore[dict-item]
        return answer

    monkeypatch.setattr(computer_module.workers, "replay_record", replay_record)

    async def scenario() -> tuple[list[Any], Any, Any, Any]:
        pool = ThreadPoolExecutor(REPLAYS_PER_CLIENT + 1)
        computer = Computer(pool, 1, pool, registry=CollectorRegistry())
        computer.advisers.slots = REPLAYS_PER_CLIENT + 1  # all may run at once here
        held = [
            asyncio.ensure_future(computer.replay(f"r{n}", "10.0.0.1"))
            for n in range(REPLAYS_PER_CLIENT)
        ]
        await asyncio.sleep(0)  # they have started
        refused = await asyncio.gather(computer.replay("more", "10.0.0.1"), return_exceptions=True)
        other = asyncio.ensure_future(computer.replay("other", "10.0.0.2"))
        await asyncio.sleep(0)
        gate.set()
        answers = await asyncio.gather(*held)
        again = await computer.replay("again", "10.0.0.1")  # the first ones are done
        pool.shutdown()
        return answers, refused[0], await other, again

    answers, refused, other, again = asyncio.run(scenario())
    assert [a.tags["Event"] for a in answers] == [f"r{n}" for n in range(REPLAYS_PER_CLIENT)]
    assert isinstance(refused, ActionError) and refused.status == 429
    assert other.tags["Event"] == "other"
    assert again.tags["Event"] == "again"


def _mark_then_sleep(marker: Path, seconds: float) -> None:
    """A worker's job: say it has started (``marker`` made), then work ``seconds``."""
    marker.touch()
    time.sleep(seconds)


def test_a_worker_busy_with_a_job_lets_ctrl_c_pass_to_the_server(tmp_path: Path) -> None:
    # a terminal's Ctrl-C reaches every process of its foreground group, the workers too
    pool = WorkerPool(1, workers.die_with_parent, (os.getpid(),))
    marker = tmp_path / "started"
    try:
        pool.submit(time.sleep, 0).result(timeout=120)  # the process has started
        job = pool.submit(_mark_then_sleep, marker, 1.5)
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert marker.exists()  # the job is under way: Ctrl-C comes in the middle of it
        (process,) = _processes_of(pool._pool)
        os.kill(process.pid, signal.SIGINT)
        try:
            assert job.result(timeout=60) is None  # the job finished, the pool is whole
        except KeyboardInterrupt:  # the worker's, handed back as the job's outcome
            pytest.fail("Ctrl-C interrupted the worker's job")
        assert pool.submit(sum, [1, 2]).result(timeout=60) == 3
    finally:
        pool.shutdown()


def test_an_analysis_job_thinks_at_the_normal_priority_only_while_nobody_plays() -> None:
    """A process started at the idle policy (the analysis and report processes) runs a job at
    the normal policy while nobody plays, then goes back to idle; while people play it stays
    idle.  Checked in a thread of its own: the policy is a thread's.  Leaving the idle policy
    needs the privilege (root, or a nice limit of 20: Linux refuses it to others, and the job
    then stays idle)."""
    seen: list[int] = []

    def job() -> None:
        workers.yield_to_play()
        seen.append(os.sched_getscheduler(0))
        with workers.yielding_if(False):
            seen.append(os.sched_getscheduler(0))
        seen.append(os.sched_getscheduler(0))
        with workers.yielding_if(True):
            seen.append(os.sched_getscheduler(0))

    thread = threading.Thread(target=job)
    thread.start()
    thread.join()
    permitted = os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20
    idle, normal = os.SCHED_IDLE, os.SCHED_OTHER
    assert seen == [idle, normal if permitted else idle, idle, idle]


@pytest.mark.parametrize("idle", [True, False])
def test_study_work_thinks_at_the_idle_policy_as_the_setting_says(idle: bool) -> None:
    """The analysis and report processes start at the idle policy by default (the tests'
    servers turn it off: see conftest.py), at the normal one with ``study_at_idle`` false."""
    assert Settings.model_fields["study_at_idle"].default is True
    for initializer, args in (
        (workers.analysis_worker, (os.getpid(), shared_ticket(), idle)),
        (workers.report_worker, (os.getpid(), idle)),
    ):
        pool = WorkerPool(1, initializer, args)
        try:
            pid = pool.submit(os.getpid).result(timeout=120)
            assert os.sched_getscheduler(pid) == (os.SCHED_IDLE if idle else os.SCHED_OTHER)
        finally:
            pool.close()


def test_a_worker_starts_with_the_servers_environment_of_its_start() -> None:
    """Forked from a fork server started earlier (with another environment), a pool's
    process still sees the server's environment as it was when the pool was built, as a
    spawned one would: a variable set, one changed and one removed since."""

    async def seen(names: tuple[str, ...]) -> list[str | None]:
        pool = WorkerPool(1)
        try:
            return [await pool.run(30.0, os.getenv, name) for name in names]
        finally:
            pool.close()

    names = ("LUDOTECA_TEST_SET", "LUDOTECA_TEST_CHANGED", "LUDOTECA_TEST_REMOVED")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_TEST_CHANGED", "before")
        patch.setenv("LUDOTECA_TEST_REMOVED", "before")
        assert asyncio.run(seen(names)) == [None, "before", "before"]  # (the fork server's)
        patch.setenv("LUDOTECA_TEST_SET", "now")
        patch.setenv("LUDOTECA_TEST_CHANGED", "now")
        patch.delenv("LUDOTECA_TEST_REMOVED")
        assert asyncio.run(seen(names)) == ["now", "now", None]

"""The solved tables on the server's side: a worker reads (or, once per machine, solves) the
tables of its perfect levels when it starts, not inside a level's first move, saying so in one
line; a server that stops ends the table build under way, logged as stopped, not failed, and
starts no other, and leaves its console clean (no leaked semaphores of its worker pools)."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import perfect
from ludoteca.games.felli import solver as felli_solver
from ludoteca.server.computer import tables, workers

from ..support.ports import ReservedPort


def test_a_worker_solves_its_perfect_levels_tables_when_it_starts_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))  # nothing solved yet on this "machine"
    monkeypatch.setattr(perfect, "_TABLES", {})
    caplog.set_level(logging.INFO, logger="ludoteca.tables")
    felli = ludoteca.load("felli")
    assert felli.ladder[-1].spec == "perfect"
    workers.load_tables()
    # the table is in this process and on disk: the perfect level's first move looks it up
    solver = felli.solver()
    assert solver is not None and solver.key in perfect._TABLES
    assert list(tmp_path.iterdir())

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("the move solved the table")

    monkeypatch.setattr(felli_solver, "solve", no_solving)
    assert perfect.PerfectAgent(felli.rules).choose(felli.new()) in felli.new().legal_moves
    # one line for the solve, none for its steps ("ply 12: ... positions won")
    solved = [r.getMessage() for r in caplog.records if "solved the table" in r.getMessage()]
    assert solved and all("felli" in line for line in solved)
    assert len(solved) == len({line.split(" in ")[0] for line in solved})  # once per table
    assert "ply " not in capsys.readouterr().err


def test_a_stopped_server_ends_its_table_build_without_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    caplog.set_level(logging.INFO, logger="ludoteca.tables")
    builds = tables.start_building([("felli", "felli"), ("felli", "felli:forced_capture")])
    assert builds is not None
    deadline = time.monotonic() + 60
    while builds.child is None and time.monotonic() < deadline:
        time.sleep(0.01)  # polled: the build thread starts its child process
    assert builds.child is not None  # the first build is under way (it takes seconds)
    tables.stop_building(builds)
    assert not builds.thread.is_alive()
    lines = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("stopped building the table of felli;") for line in lines), lines
    assert not any("failed" in line for line in lines), lines
    assert not any("felli:forced_capture" in line for line in lines), lines  # none started
    assert not list(tmp_path.iterdir())  # the first was not finished


def test_a_stopped_server_leaves_its_console_clean(tmp_path: Path) -> None:
    reserved = ReservedPort()  # no other test process hands it to a child meanwhile
    port = reserved.number
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)  # a polled subprocess: its port answers no event to await
        else:
            pytest.fail("the server did not start")
        # the computer's first move comes after its worker's start-up work (jobs run in order):
        # the server is stopped idle, as people stop it, not halfway through compiling
        address = f"http://127.0.0.1:{port}/api/games"
        body = {"game": "felli", "opponent": "computer", "colour": "black", "level": 1}
        request = urllib.request.Request(
            address, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            game = json.load(answer)["id"]
        for _ in range(240):
            with urllib.request.urlopen(f"{address}/{game}", timeout=30) as answer:
                if json.load(answer)["ply"] >= 1:
                    break
            time.sleep(0.5)  # polled: the server's move comes from its own worker process
        else:
            pytest.fail("the computer did not move")
        server.send_signal(signal.SIGTERM)
        console, _ = server.communicate(timeout=60)
    finally:
        server.kill()
        server.wait()
        reserved.release()
    assert server.returncode in (0, -signal.SIGTERM), console  # uvicorn raises it again
    assert "leaked" not in console and "Traceback" not in console, console

"""``scripts/cluster`` survives its parts (docs/scaling.md): started as an operator would (two
servers, a worker, Redis, PostgreSQL, nginx in front with the shipped configuration), a whole
game is played through nginx, every move read back at once from both servers (each sees it,
whichever made it) and all of it sent by nginx to one server (consistent hashing by game id);
a game against the computer is played through nginx; one server it started is killed
(SIGKILL, by the pid the script wrote), the script logs it and starts it again, and the game
goes on through nginx; Ctrl-C (SIGINT) then stops everything the script started."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support.need import need
from ..support.ports import reserved_port
from ..support.servers import log_tails

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")

ROOT = Path(__file__).resolve().parents[2]


def call(
    base: str, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Any:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    return json.load(urllib.request.urlopen(request, timeout=30))


def play_and_wait(base: str, game: dict[str, Any], ply: int) -> list[str]:
    """Play a legal move for White at ``ply`` and return the moves once the computer (Black)
    has answered it."""
    token = game["tokens"]["white"]
    state = call(base, f"/api/games/{game['id']}")
    move = next(
        m for m in ("d6", "f4", "b4", "d2", "a7", "g7", "a1", "g1") if m not in state["moves"]
    )
    call(
        base,
        f"/api/games/{game['id']}/actions",
        {"token": token, "type": "move", "move": move, "ply": ply},
    )
    deadline = time.monotonic() + 30
    while len(moves := call(base, f"/api/games/{game['id']}")["moves"]) < ply + 2:
        assert time.monotonic() < deadline, f"the computer did not answer: {moves}"
        time.sleep(0.1)  # polling: the test holds no websocket to be told on
    return list(moves)


def metric(base: str, name: str) -> float:
    """The value of the metric ``name`` (no labels) of the server at ``base``."""
    text = urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()
    return float(next(line.split()[1] for line in text.splitlines() if line.startswith(name + " ")))


def play_reading_back(base: str, servers: list[str], seed: int) -> int:
    """A hot-seat game of Nine Men's Morris played to its end through nginx (``base``), random
    legal moves; right after each move is acknowledged, the game read from each of the
    ``servers`` directly (the first read alternating between them, as a proxy sharing requests
    round robin would send them) and through nginx: each read must show that move.  The moves
    played."""
    rng = random.Random(seed)
    made = call(base, "/api/games", {"game": "morris", "opponent": "hotseat"})
    game, token = made["id"], made["tokens"]["white"]
    view = call(base, f"/api/games/{game}", headers={"X-Seat-Token": token})
    played: list[str] = []
    while view["status"] == "live":
        assert len(played) < 400, "the game did not end"
        move = rng.choice(view["legal"]).split()[0]
        body = {"token": token, "type": "move", "move": move, "ply": view["ply"]}
        view = call(base, f"/api/games/{game}/actions", body)
        played.append(move)
        first = len(played) % 2
        for reader in (servers[first], servers[1 - first], base):
            seen = call(reader, f"/api/games/{game}", headers={"X-Seat-Token": token})
            assert seen["moves"] == played, f"{reader} read move {len(played)} stale: {seen}"
            assert seen["status"] == view["status"]
    return len(played)


def interruptible() -> None:
    """SIGINT and SIGQUIT at their defaults (run in the child before the script starts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.fixture
def folder() -> Iterator[Path]:
    """The cluster's folder: as root, the script runs PostgreSQL as nobody, who must reach it
    all along (pytest's own folders are closed to others whenever a pytest session starts)."""
    made = Path(tempfile.mkdtemp(prefix="ludoteca-cluster-"))
    made.chmod(0o755)
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def test_the_cluster_restarts_a_killed_server_and_the_game_goes_on(folder: Path) -> None:
    for program in ("nginx", "initdb", "redis-server"):
        need(program)
    # every port the cluster listens on reserved among the test processes (none drawn by the
    # script, which another test process could draw too meanwhile)
    with contextlib.ExitStack() as ports:
        port, pg_port, redis_port, *server_ports = (
            ports.enter_context(reserved_port()) for _ in range(5)
        )
        env = {
            **os.environ,
            "CLUSTER_DIR": str(folder),
            "PORT": str(port),
            "PG_PORT": str(pg_port),
            "REDIS_PORT": str(redis_port),
            "SERVER_PORTS": " ".join(map(str, server_ports)),
            "SERVERS": "2",
            "WORKERS": "1",
            # each stage of Ctrl-C's stop (the servers, Redis, PostgreSQL) waits at most this
            # long before it kills: 60 s in all, within the test's 90
            "STOP_WAIT": "20",
            # the finished game's report two plies deep: at the default depth its study work
            # holds the one worker for seconds the computer's turns then wait behind
            "LUDOTECA_REPORT_LIMIT": '{"depth": 2}',
            "PATH": f"{os.environ.get('PATH', '')}:/usr/sbin",
        }
        script = subprocess.Popen(
            [str(ROOT / "scripts" / "cluster")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            # as from an operator's terminal: Ctrl-C at its default (a test run started in the
            # background of a script inherits SIGINT ignored, which a shell can then not trap)
            preexec_fn=interruptible,
        )
        started: list[int] = []
        try:
            assert script.stdout is not None
            said = []
            for line in script.stdout:
                said.append(line)
                if "Ludoteca is running" in line:
                    break
            else:
                pytest.fail(f"the cluster did not start ({script.wait()}): {''.join(said)}")
            # on the ports reserved for it
            assert f"servers: {server_ports[0]} {server_ports[1]};" in said[-1], said[-1]
            assert f"PostgreSQL :{pg_port}; Redis :{redis_port};" in said[-1], said[-1]
            names = ("server1", "server2", "worker1", "redis", "nginx")
            started = [int((folder / f"{name}.pid").read_text()) for name in names]
            postgres = int((folder / "postgres" / "postmaster.pid").read_text().split()[0])
            base = f"http://127.0.0.1:{port}"
            servers = [f"http://127.0.0.1:{one}" for one in server_ports]
            before = [metric(one, "ludoteca_moves_total") for one in servers]
            plies = play_reading_back(base, servers, seed=90)  # (28 plies to its end)
            counted = [
                metric(one, "ludoteca_moves_total") - b
                for one, b in zip(servers, before, strict=True)
            ]
            # nginx sent the whole game to one server (which one: the game id's hash)
            assert sorted(counted) == [0, plies], counted

            game = call(
                base,
                "/api/games",
                {"game": "morris", "opponent": "computer", "level": 1, "colour": "white"},
            )
            assert len(play_and_wait(base, game, 0)) == 2

            killed = started[0]
            os.kill(killed, signal.SIGKILL)
            deadline = time.monotonic() + 20
            while (pid := int((folder / "server1.pid").read_text())) == killed:
                assert time.monotonic() < deadline, "the killed server was not started again"
                time.sleep(0.1)  # polling the pid file: the script tells no one else
            started.append(pid)
            log = (folder / "cluster.log").read_text()
            assert f"server1 (pid {killed}) exited" in log
            assert all(alive(p) for p in started[1:])  # the others carried on

            moves = play_and_wait(base, game, 2)
            assert len(moves) == 4
            assert len(play_and_wait(base, game, 4)) == 6
        finally:
            script.send_signal(signal.SIGINT)  # Ctrl-C
            try:  # SIGTERM, 20 s for each stage to stop, then SIGKILL; PostgreSQL last
                script.wait(90)
            except subprocess.TimeoutExpired:
                running = [p for p in started if alive(p)]
                pytest.fail(
                    f"Ctrl-C did not stop the cluster within 90 s; {running} run\n"
                    + log_tails(folder, 15)
                )
        assert not any(alive(p) for p in started)
        assert not alive(postgres)

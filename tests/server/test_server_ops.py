"""Operations: liveness and readiness, JSON log lines with game ids, and a graceful stop that
closes websockets with 1012 so that pages reconnect."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ludoteca.server import Settings, create_app
from ludoteca.server.logs import JsonFormatter

from ..support.ports import ReservedPort


def test_health_and_readiness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(
        create_app(Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", workers=1, warm=False))
    ) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}

        async def broken() -> None:
            raise OSError("connection refused")

        store = client.app.state.services.store  # type: ignore[attr-defined]
        monkeypatch.setattr(store, "ping", broken)
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"status": "unavailable", "error": "database: connection refused"}
        assert client.get("/healthz").status_code == 200  # alive, not ready


def test_json_log_lines_name_their_game() -> None:
    record = logging.LogRecord(
        "ludoteca.server", logging.INFO, __file__, 1, "game %s over: %s", ("abc123", "1-0"), None
    )
    record.game = "abc123"
    entry: dict[str, Any] = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "game abc123 over: 1-0" and entry["game"] == "abc123"
    assert entry["level"] == "info" and entry["logger"] == "ludoteca.server"
    assert entry["time"].endswith("+00:00")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_a_stopping_server_closes_websockets_for_a_reconnect(tmp_path: Path) -> None:
    reserved = ReservedPort()
    port = reserved.number
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca",
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--db",
            f"sqlite+aiosqlite:///{tmp_path / 'g.db'}",
            "--log-format",
            "json",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/readyz", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)  # polling: a starting server sends no event to wait on
        request = urllib.request.Request(
            base + "/api/games",
            data=json.dumps({"game": "morris", "opponent": "hotseat"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        game_id = json.load(urllib.request.urlopen(request, timeout=10))["id"]
        with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            server.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # uvicorn finishes its shutdown, then lets the signal end the process as usual
        assert server.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log.close()
        reserved.release()
    lines = [
        json.loads(line)
        for line in (tmp_path / "server.log").read_text().splitlines()
        if line.startswith("{")
    ]
    assert any(entry.get("game") == game_id and "created" in entry["message"] for entry in lines)


def test_start_up_loads_the_search_in_every_pool_even_if_the_first_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import asyncio
    from concurrent.futures import Future

    from ludoteca.server.services import _load_compiled

    class Pool:
        def __init__(self, fails: bool) -> None:
            self.fails, self.jobs = fails, 0

        def submit(self, job: Any) -> Future[None]:
            self.jobs += 1
            done: Future[None] = Future()
            if self.fails:
                done.set_exception(OSError("the process died"))
            else:
                done.set_result(None)
            return done

    first, rest = Pool(fails=True), [Pool(fails=False), Pool(fails=False)]
    with caplog.at_level(logging.ERROR, logger="ludoteca.server"):
        asyncio.run(_load_compiled(first, rest))  # type: ignore[arg-type]
    assert [pool.jobs for pool in (first, *rest)] == [1, 1, 1]
    assert "analysis process failed" in caplog.text

"""Hardening against one client: request heads capped (431 at once, others served meanwhile),
websockets over the per-address limit closed with 1008 and a reason, messages over the largest
frame closed with 1009, sign-ups capped per address and a taken name refused before any hashing.
The first three against a real ``ludoteca serve`` (its own HTTP and websocket protocols)."""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ludoteca.server.community.people import SIGN_UPS_PER_ADDRESS
from ludoteca.server.limits import MAX_HEAD, SOCKETS_PER_CLIENT

from ..support.ports import ReservedPort


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``ludoteca serve`` in its own process: its port on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("hardening")
    port = ReservedPort()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca",
            "serve",
            "--port",
            str(port.number),
            "--workers",
            "1",
            "--db",
            f"sqlite+aiosqlite:///{folder / 'games.db'}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not _healthy(port.number):
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)  # polling: a starting server sends no event to wait on
        yield port.number
    finally:
        process.terminate()
        process.wait(30)
        port.release()


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def huge_head(port: int, size: int) -> bytes:
    """Send a request whose one header is ``size`` bytes long, in 64 KiB writes, reading
    between them: what the server answered (empty if it only closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        try:
            while sent < size and not select.select([client], [], [], 0)[0]:
                client.sendall(b"a" * 65536)
                sent += 65536
        except OSError:  # (closed by the server, as it should)
            pass
        try:
            return client.recv(4096)
        except ConnectionResetError:
            return b""


def test_a_huge_request_head_is_refused_at_once_and_others_are_served(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=10) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * (MAX_HEAD // 2))
        assert _healthy(server)  # (while a head is half sent)
        answer = huge_head(server, 64 * 1024 * 1024)
        assert _healthy(server)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")
    # a head within the limit is served
    assert huge_head(server, MAX_HEAD // 2).startswith(b"HTTP/1.1 ")


def _game(port: int) -> str:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games",
        data=json.dumps({"game": "felli", "opponent": "hotseat"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        game_id: str = json.load(answer)["id"]
        return game_id


def test_a_socket_over_the_limit_of_one_address_is_closed_with_1008_and_a_reason(
    server: int,
) -> None:
    url = f"ws://127.0.0.1:{server}/ws/games/{_game(server)}"
    with ExitStack() as stack:
        for _ in range(SOCKETS_PER_CLIENT):
            stack.enter_context(connect(url))
        with connect(url) as refused, pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "too many connections from one address"


def test_a_message_over_4_kib_is_refused_and_one_over_64_kib_closes_with_1009(
    server: int,
) -> None:
    with connect(f"ws://127.0.0.1:{server}/ws/games/{_game(server)}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "hint", "pad": "a" * 8192}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
        ws.send(json.dumps({"type": "hint", "pad": "a" * 65536}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


class _Counting:
    """A password hasher that keeps every password it hashes (and verifies as the real one)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.hashed: list[str] = []

    def hash(self, password: str) -> str:
        self.hashed.append(password)
        return str(self.real.hash(password))

    def verify(self, stored: str, password: str) -> bool:
        return bool(self.real.verify(stored, password))


def _counting_hashes(client: TestClient) -> list[str]:
    """Every password the app's accounts hash from now on."""
    accounts: Any = client.app.state.services.accounts  # type: ignore[attr-defined]
    accounts.hasher = _Counting(accounts.hasher)
    hashed: list[str] = accounts.hasher.hashed
    return hashed


def _sign_up(client: TestClient, name: str, password: str) -> int:
    client.cookies.clear()  # (as a guest: no session, no CSRF token needed)
    return client.post("/api/signup", json={"name": name, "password": password}).status_code


def test_a_taken_name_is_refused_before_the_password_is_hashed(client: TestClient) -> None:
    hashed = _counting_hashes(client)
    assert _sign_up(client, "Ann", "first password") == 201
    assert _sign_up(client, "ANN", "second password") == 409
    assert hashed == ["first password"]


def test_sign_ups_are_capped_per_address(client: TestClient) -> None:
    hashed = _counting_hashes(client)
    for number in range(SIGN_UPS_PER_ADDRESS):
        assert _sign_up(client, f"user{number}", "long enough") == 201
    assert _sign_up(client, "onemore", "long enough") == 429
    assert len(hashed) == SIGN_UPS_PER_ADDRESS

"""A throw-away Redis for tests: ``redis-server`` on a reserved port, no persistence, stopped (by
its process id) when the block ends."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .ports import reserved_port


@contextmanager
def redis_server(folder: Path, program: str) -> Iterator[str]:
    """Run the Redis server ``program`` until the block ends; its URL."""
    with reserved_port() as port:
        process = subprocess.Popen(
            [
                program,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(folder),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while not _answers(port):
                assert process.poll() is None, "redis-server stopped"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)  # polling: a starting redis-server sends no event to wait on
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(10)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False

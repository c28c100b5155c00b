"""Ludoteca's own processes for tests that need several: ``ludoteca serve`` and ``ludoteca
worker``, each started as a command, its log kept, stopped by its own process id."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .ports import ReservedPort


def log_tails(folder: Path, lines: int = 30) -> str:
    """The last ``lines`` lines of each log in ``folder``, for a failing test's message."""
    return "\n".join(
        f"--- the end of {path.name}:\n"
        + "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
        for path in sorted(folder.glob("*.log"))
    )


class Command:
    """``ludoteca ARGS...`` in its own process, its output in ``folder/NAME.log``."""

    def __init__(self, folder: Path, name: str, *args: str) -> None:
        self.log = (folder / f"{name}.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ludoteca", *args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )

    def tails(self, lines: int = 30) -> str:
        """The end of the log of each command whose log is beside this one's (see
        :func:`log_tails`)."""
        self.log.flush()
        return log_tails(Path(self.log.name).parent, lines)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not stopped in 30 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


class Server(Command):
    """``ludoteca serve`` in its own process, on a port reserved for it until it stops."""

    def __init__(self, db: str, redis: str, folder: Path, name: str, *extra: str) -> None:
        self.reserved = ReservedPort()
        self.port = self.reserved.number
        self.base = f"http://127.0.0.1:{self.port}"
        super().__init__(
            folder,
            name,
            "serve",
            "--port",
            str(self.port),
            "--workers",
            "1",
            "--db",
            db,
            "--redis",
            redis,
            "--log-format",
            "json",
            *extra,
        )

    def stop(self) -> None:
        super().stop()
        self.reserved.release()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(self.base + "/readyz", timeout=2)
                return
            except (OSError, urllib.error.HTTPError):
                assert self.process.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)  # polling: a starting server sends no event to wait on

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        return json.load(urllib.request.urlopen(request, timeout=30))


class Worker(Command):
    """``ludoteca worker`` in its own process (``jobs`` at once)."""

    def __init__(self, redis: str, folder: Path, name: str, jobs: int = 1) -> None:
        super().__init__(folder, name, "worker", "--redis", redis, "--jobs", str(jobs))

"""How fast the server refuses a huge request head, and whether it stalls anyone meanwhile.

Starts ``ludoteca serve`` on a throw-away SQLite database, then ``--runs`` times sends a request
whose one header is 64 MiB long (in 64 KiB writes, reading between them) and measures the time
from its first byte to the server's answer (431) or close, and the time a ``/healthz`` asked
meanwhile takes.  The limit is 16 KiB (``ludoteca.server.limits.MAX_HEAD``); the refusal should
come well under 0.1 s.  Prints how many runs got each answer (``(closed)``: the connection was
reset before the client read the 431, the kernel dropping it with the unread header bytes), the
refusals' median and worst time, and the ``/healthz`` times.
``tests/server/test_server_hardening.py`` checks the behaviour, untimed.

    .venv/bin/python -m bench.huge_head --runs 20
"""

from __future__ import annotations

import argparse
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path


def refuse(port: int, size: int) -> tuple[float, bytes]:
    """Seconds from the first byte of a ``size``-byte header to the answer, and the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        started = time.perf_counter()
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        try:
            while sent < size and not select.select([client], [], [], 0)[0]:
                client.sendall(b"a" * 65536)
                sent += 65536
            answer = client.recv(4096)
        except OSError:  # closed with the rest unread: a reset
            answer = b""
        return time.perf_counter() - started, answer


def healthz(port: int) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10):
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--mib", type=int, default=64, help="the header's length")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = Path(tempfile.mkdtemp())
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
            f"sqlite+aiosqlite:///{folder / 'games.db'}",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                healthz(port)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        refusals, answers, meanwhile = [], [], []
        for _ in range(args.runs):
            asked = threading.Thread(target=lambda: meanwhile.append(healthz(port)))
            asked.start()
            seconds, answer = refuse(port, args.mib * 1024 * 1024)
            asked.join()
            refusals.append(seconds)
            answers.append(answer.split(b"\r\n", 1)[0].decode() or "(closed)")
        seen = ", ".join(f"{n} x {a}" for a, n in sorted(Counter(answers).items()))
        print(f"{args.mib} MiB header, {args.runs} runs: answered {seen}")
        print(
            f"  refused in median {statistics.median(refusals) * 1000:.1f} ms, "
            f"max {max(refusals) * 1000:.1f} ms"
        )
        print(
            f"  /healthz meanwhile: median {statistics.median(meanwhile) * 1000:.1f} ms, "
            f"max {max(meanwhile) * 1000:.1f} ms"
        )
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()

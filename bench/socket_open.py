"""What a new game websocket costs the server: processor time per spectator connection.

Starts ``ludoteca serve`` (a throw-away SQLite database) from each checkout given by ``--tree``
(default: this one), creates ``--games`` hot-seat Nine Men's Morris games, each held live by
its player's websocket, then for ``--seconds`` keeps ``--clients`` spectators busy: each opens
a game's websocket (from its own loopback address, as pages do), says hello, reads the game's
state and closes, then opens the next.  Prints, per tree and round, the connections a second
and the server's user and system processor time per connection (from ``/proc``); with several
trees the rounds alternate between them, so that a busy machine weighs on each alike.

    .venv/bin/python -m bench.socket_open --tree /tmp/base --tree . --rounds 3 \\
        --out bench/results/socket_open.txt
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets

from bench.load import TICKS, _free_port, _Spectator

GAMES_PER_ADDRESS = 10
HELLO = orjson.dumps({"type": "hello"}).decode()


class _Once(_Spectator):
    """A spectator that leaves after its first message (the game's state)."""

    def _message(self, payload: bytes) -> None:
        self._finish()


def _cpu(pid: int) -> tuple[float, float]:
    """The process's user and system processor seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


async def _measure(url: str, pid: int, games: int, clients: int, seconds: float) -> dict[str, Any]:
    """Set up the games, then churn spectators; the figures."""
    ids: list[str] = []
    players: list[Any] = []
    for a in range(-(-games // GAMES_PER_ADDRESS)):
        address = f"127.0.0.{a + 2}"
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=url, transport=transport) as http:
            for _ in range(min(GAMES_PER_ADDRESS, games - len(ids))):
                answer = await http.post(
                    "/api/games", json={"game": "morris", "opponent": "hotseat"}
                )
                answer.raise_for_status()
                made = answer.json()
                ids.append(made["id"])
                ws = await websockets.connect(
                    f"{url.replace('http', 'ws', 1)}/ws/games/{made['id']}",
                    local_addr=(address, 0),
                    ping_interval=None,
                )
                await ws.send(
                    orjson.dumps({"type": "hello", "token": made["tokens"]["white"]}).decode()
                )
                await ws.recv()
                players.append(ws)
    loop = asyncio.get_running_loop()
    host, port = "127.0.0.1", int(url.rsplit(":", 1)[1])
    tally = {"messages": 0, "connected": 0, "refused": 0, "failed": 0}
    always = asyncio.Event()
    always.set()
    done = [0]

    async def spectator(k: int) -> None:
        address = f"127.1.{k // 250}.{k % 250 + 1}"
        for n in range(k, 1 << 62, 7):
            path = f"/ws/games/{ids[n % len(ids)]}"
            transport, page = await loop.create_connection(
                lambda: _Once(path, host, True, always, tally),  # noqa: B023
                host,
                port,
                local_addr=(address, 0),
            )
            try:
                await page.opened
                page.send_text(HELLO)
                await page.done
            finally:
                transport.close()
            done[0] += 1

    tasks = [asyncio.create_task(spectator(k)) for k in range(clients)]
    await asyncio.sleep(2.0)  # (warm-up)
    (user0, sys0), count0, start = _cpu(pid), done[0], time.monotonic()
    await asyncio.sleep(seconds)
    (user1, sys1), count1, elapsed = _cpu(pid), done[0], time.monotonic() - start
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for ws in players:
        await ws.close()
    count = count1 - count0
    return {
        "per_s": count / elapsed,
        "user_ms": (user1 - user0) / count * 1000,
        "sys_ms": (sys1 - sys0) / count * 1000,
        "refused": tally["refused"],
    }


def run_tree(tree: Path, games: int, clients: int, seconds: float) -> dict[str, Any]:
    """One round: a fresh server from ``tree``, measured."""
    folder = tempfile.mkdtemp(prefix="ludoteca-open-")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with open(f"{folder}/server.log", "w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                *("-m", "ludoteca", "serve", "--port", str(port), "--workers", "1"),
                *("--db", f"sqlite+aiosqlite:///{folder}/open.db"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=env,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        return uvloop.run(_measure(url, server.pid, games, clients, seconds))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, action="append", help="a checkout (repeatable)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clients", type=int, default=20, help="spectators at once")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, help="append the figures here too")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [Path(__file__).resolve().parent.parent]]
    lines = [
        f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC | bench/socket_open.py "
        + "".join(f"--tree {tree} " for tree in trees)
        + f"--games {args.games} --clients {args.clients} --seconds {args.seconds:g} "
        f"--rounds {args.rounds} | load average {os.getloadavg()[0]:.2f}"
    ]
    print(lines[0], flush=True)
    figures: dict[Path, list[dict[str, Any]]] = {tree: [] for tree in trees}
    for round_ in range(args.rounds):
        for tree in trees:
            r = run_tree(tree, args.games, args.clients, args.seconds)
            figures[tree].append(r)
            line = (
                f"round {round_ + 1}  {_describe(tree):40s} {r['per_s']:7.0f} connections/s  "
                f"user {r['user_ms']:.3f} ms  system {r['sys_ms']:.3f} ms a connection"
                + (f"  ({r['refused']} refused)" if r["refused"] else "")
            )
            print(line, flush=True)
            lines.append(line)
    for tree, rows in figures.items():
        line = (
            f"median {_describe(tree):40s} user {statistics.median(r['user_ms'] for r in rows):.3f}"
            f" ms  system {statistics.median(r['sys_ms'] for r in rows):.3f} ms a connection"
        )
        print(line)
        lines.append(line)
    if args.out:
        with args.out.open("a") as out:
            out.write("\n".join(lines) + "\n")


def _describe(tree: Path) -> str:
    """The tree's commit (and ``+`` when it has uncommitted changes)."""
    head = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{tree.name} {head}{'+' if dirty else ''}"


if __name__ == "__main__":
    main()

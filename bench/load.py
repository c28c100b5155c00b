"""Server capacity: N live games, each moving once a second over a real websocket.

Starts ``ludoteca serve`` (a throw-away SQLite database, one server process) unless ``--url`` names
a running server, then runs the players in this process: for each size N, N hot-seat games
(Nine Men's Morris, Felli and Morelli in turn), each on its own websocket, each playing a random
legal move once a second (random phase).  A move's round-trip is the time from sending it to
receiving the message that shows it played.  A game that ends is replaced by a new one.  With
``--computer LEVEL`` each player plays White against the computer at that level instead (four
games an address), a move at most once a second, and the round-trip runs to the computer's
reply.

The clients spread over loopback addresses 127.0.0.2, 127.0.0.3, ... (ten games each), so the
server's per-address limits (new games a minute, sockets per address) apply as they would to
real people.  Prints, per size: moves/s, round-trip p50/p95/p99 (ms), refusals and errors, the
server process's CPU (% of one core) and resident memory (``--server-pid`` for a server started
by hand), and this client's CPU.  The clients send no pings of their own (as pages do not; the
server pings every connection).

``--watchers W`` adds W spectators in a second process (addresses 127.1.0.1, ..., thirty
sockets each), arriving :data:`WATCHERS_A_SECOND` a second before the measured time: each
opens a game's websocket without a token (a bare websocket client: the handshake, the frames
parsed, pings answered; see :class:`_Spectator`), reads every message, and moves to another
game when its game ends; each game has about W / N of them.  ``--slow-watchers F``: that
fraction of them never read after their hello (their messages pile up on the server, which must
drop them, not slow anyone down).  Prints, besides, the watchers connected, the messages a second
they received while measured and their process's CPU.

    .venv/bin/python -m bench.load --games 50,200,500,1000 --seconds 30 \
        --out bench/results/load.txt
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import multiprocessing
import os
import queue
import random
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import numpy
import orjson
import uvloop
import websockets

GAMES = ["morris", "felli", "morelli"]
PER_ADDRESS = 10
COMPUTER_PER_ADDRESS = 4  # (the server allows 8 games against the computer an address)
TICKS = os.sysconf("SC_CLK_TCK")
#: how fast the watchers arrive (new websockets a second): the measured window starts once
#: all of them have, so it sees spectators watching, not a storm of connections
WATCHERS_A_SECOND = 500
#: how long a watcher waits for its connection and its opening handshake
HANDSHAKE_SECONDS = 10.0
_TLS = ssl.create_default_context()


@dataclass
class Tally:
    """What the players saw while the clock ran."""

    measuring: bool = False
    rtts: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0
    finished: int = 0


async def play_games(
    url: str,
    address: str,
    game: str,
    stop: asyncio.Event,
    tally: Tally,
    rng: random.Random,
    level: int | None = None,
    spectate: tuple[Any, int] | None = None,
) -> None:
    """One player's seat: play hot-seat games of ``game`` from ``address`` until ``stop``; or,
    with ``level``, games as White against the computer at that level.  ``spectate``: a queue
    of the watchers' process and how many times to offer each new game's id on it."""
    # (one TLS context for every player: making one loads the certificates, 34 ms of this
    # process's event loop, which held up every other player's moves while 50 of them started)
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=_TLS)
    body: dict[str, Any] = {"game": game, "opponent": "hotseat"}
    if level is not None:
        body = {"game": game, "opponent": "computer", "level": level, "colour": "white"}
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as http:
        while not stop.is_set():
            answer = await http.post("/api/games", json=body)
            if answer.status_code == 429:
                tally.refused += 1
                await asyncio.sleep(5)
                continue
            answer.raise_for_status()
            created = answer.json()
            token = created["tokens"]["white"]
            if spectate is not None:
                for _ in range(spectate[1]):
                    spectate[0].put(created["id"])
            ws_url = url.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
            async with websockets.connect(
                ws_url, local_addr=(address, 0), max_size=2**22, ping_interval=None
            ) as ws:
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                await _play_one(ws, stop, tally, rng)


def _follow(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """What a player needs of the game (ply, status, legal moves) after a message."""
    if message.get("type") == "state":
        return message
    for name in ("ply", "status", "legal"):
        if name in message:
            view[name] = message[name]
    return view


async def _play_one(ws: Any, stop: asyncio.Event, tally: Tally, rng: random.Random) -> None:
    """Play one game: a random legal move whenever it is this seat's turn, at most one a
    second; the round-trip is from sending a move to having moves to choose from again (the
    move shown, in a hot-seat game; the computer's reply too, against the computer).

    The moves are due on the game's own beat, which starts at a random moment of the first
    second: a second after the last was due (or at once when the answer came later than
    that), not a second after the last was sent.  Timed from the sending, a move this process
    sent late (its event loop busy) moved the game's later moves late too, into step with
    the others held up: a third of the games came to move in the same twentieth of a
    second."""
    view: dict[str, Any] | None = None
    while view is None or view.get("type") != "state":
        view = orjson.loads(await ws.recv())
    due = time.monotonic() + rng.random()
    await asyncio.sleep(due - time.monotonic())
    sent: float | None = None
    ply = -1
    while not stop.is_set() and view["status"] == "live":
        if not view["legal"] or view["ply"] <= ply:  # not this seat's turn yet: wait
            message = orjson.loads(await ws.recv())
            if message.get("type") == "error":
                tally.errors += 1
                break
            view = _follow(view, message)
            continue
        if sent is not None:
            answered = time.monotonic()
            if tally.measuring:
                tally.rtts.append(answered - sent)
            due = max(due + 1.0, answered)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
        move = rng.choice(view["legal"]).split(" ")[0]
        ply = view["ply"]
        sent = time.monotonic()
        await ws.send(orjson.dumps({"type": "move", "move": move, "ply": ply}).decode())
    tally.finished += view["status"] != "live"


def watch_main(
    url: str, count: int, slow: float, ids: Any, flags: Any, results: Any, seed: int
) -> None:
    """The watchers' process: ``count`` spectators taking game ids from ``ids``; ``flags`` are
    the events ``measuring`` and ``stop``; puts its figures on ``results`` once stopped."""
    uvloop.run(_watch_all(url, count, slow, ids, flags, results, seed))


async def _watch_all(
    url: str, count: int, slow: float, ids: Any, flags: Any, results: Any, seed: int
) -> None:
    measuring, stop = flags
    loop = asyncio.get_running_loop()
    games: asyncio.Queue[str] = asyncio.Queue()
    tally = {"messages": 0, "connected": 0, "refused": 0, "failed": 0, "opened": 0}
    why: dict[str, int] = {}  # the failures' messages

    def feed() -> None:  # the players' process offers ids on a process queue
        while not stop.is_set():
            try:
                game_id = ids.get(timeout=0.2)
            except queue.Empty:
                continue
            loop.call_soon_threadsafe(games.put_nowait, game_id)

    threading.Thread(target=feed, daemon=True).start()
    rng = random.Random(seed)
    hello = orjson.dumps({"type": "hello"}).decode()

    host, port = url.split("//", 1)[1].rsplit(":", 1)

    async def watcher(k: int, reads: bool) -> None:
        slot = k // 30
        address = f"127.1.{slot // 250}.{slot % 250 + 1}"
        await asyncio.sleep(k / WATCHERS_A_SECOND)  # arriving over time, not all at once
        while not stop.is_set():
            game_id = await games.get()
            path = "/ws/games/" + game_id
            transport: asyncio.BaseTransport | None = None
            try:
                transport, page = await asyncio.wait_for(
                    loop.create_connection(
                        lambda: _Spectator(path, host, reads, measuring, tally),  # noqa: B023
                        host,
                        int(port),
                        local_addr=(address, 0),
                    ),
                    HANDSHAKE_SECONDS,
                )
                await asyncio.wait_for(page.opened, HANDSHAKE_SECONDS)
                page.send_text(hello)
                tally["connected"] += 1
                tally["opened"] += 1
                try:  # until the game ends or an error comes (a page that never reads: the end)
                    await page.done
                finally:
                    tally["connected"] -= 1
            except (OSError, TimeoutError, ConnectionError) as error:
                text = str(error) or "timed out during opening handshake"
                tally["failed"] += 1  # (counted; the same game is tried again)
                why[text[:60]] = why.get(text[:60], 0) + 1
                games.put_nowait(game_id)
                await asyncio.sleep(1.0)
            finally:
                if transport is not None:
                    transport.close()

    tasks = [asyncio.create_task(watcher(k, rng.random() >= slow)) for k in range(count)]
    while not measuring.is_set():
        await asyncio.sleep(0.05)
    cpu0, started, opened0 = time.process_time(), time.monotonic(), tally["opened"]
    while measuring.is_set():
        await asyncio.sleep(0.05)
    elapsed = time.monotonic() - started
    figures = {
        "watchers": tally["connected"],
        "watcher_messages_per_s": tally["messages"] / elapsed,
        "watcher_opened_per_s": (tally["opened"] - opened0) / elapsed,
        "watcher_cpu_pct": (time.process_time() - cpu0) / elapsed * 100,
        "watcher_failures": tally["failed"] + tally["refused"],  # (since the start)
        "watcher_failed_why": sorted(why.items(), key=lambda kv: -kv[1])[:3],
    }
    results.put(figures)
    pending = set(tasks)
    while pending:  # (again: asyncio.wait_for may swallow a cancellation that races its end)
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1.0)


class _Spectator(asyncio.Protocol):
    """A page watching a game, on a bare protocol: the websocket's opening handshake, then
    the server's frames (unmasked, unfragmented, as the server sends them) parsed as they
    arrive, each text message read whole (``orjson``) and counted while ``measuring``, pings
    answered.  What a page's websocket does, at a small part of a websocket library's
    processor time (its reader task, its futures), so that the watchers' process leaves the
    machine's cores to the server.  ``opened`` resolves after the handshake, ``done`` when the
    game ended (a message with a status other than live), an error came or the connection
    closed; a watcher that does not ``read`` stops reading after the handshake, and what the
    server sends it piles up."""

    def __init__(
        self, path: str, host: str, reads: bool, measuring: Any, tally: dict[str, int]
    ) -> None:
        loop = asyncio.get_running_loop()
        self.path, self.host, self.reads = path, host, reads
        self.measuring, self.tally = measuring, tally
        self.opened: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's: not a subclass)
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.opened.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end])
            del self.buffer[: end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head.split(b"\r\n")[0].decode()))
                return
            self.opened.set_result(None)
            if not self.reads:
                assert self.transport is not None
                self.transport.pause_reading()
                return
        self._frames()

    def _frames(self) -> None:
        buffer, at = self.buffer, 0
        while len(buffer) - at >= 2:
            first, length, head = buffer[at], buffer[at + 1] & 0x7F, 2
            if length >= 126:
                head = 4 if length == 126 else 10
                if len(buffer) - at < head:
                    break
                length = int.from_bytes(buffer[at + 2 : at + head], "big")
            if len(buffer) - at < head + length:
                break
            payload = bytes(buffer[at + head : at + head + length])
            at += head + length
            opcode = first & 0x0F
            if opcode == 1 and first & 0x80:
                self._message(payload)
            elif opcode == 9:  # a ping: the pong carries its payload
                self._send(0xA, payload)
            elif opcode != 10:  # closed, or a frame this page does not expect
                self._finish()
        del buffer[:at]

    def _message(self, payload: bytes) -> None:
        if self.measuring.is_set():
            self.tally["messages"] += 1
        message = orjson.loads(payload)
        if message.get("type") == "error":
            self.tally["refused"] += 1
            self._finish()
        elif message.get("status", "live") != "live":
            self._finish()  # the game ended: watch another

    def send_text(self, text: str) -> None:
        self._send(0x1, text.encode())

    def _send(self, opcode: int, payload: bytes) -> None:
        """A frame from a client: masked, as the protocol asks (payloads under 126 bytes)."""
        assert self.transport is not None and len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def _finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the connection closed in its handshake"))
        self._finish()


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tier_seconds(session: int, folder: str) -> dict[str, float]:
    """The CPU seconds used so far by a cluster's processes, by tier: servers, workers,
    PostgreSQL, Redis and nginx.  A cluster's processes are those of its session ``session``
    and those started from its ``folder`` (PostgreSQL leaves the session), with their
    children; a process that names no tier (a thinking process) counts for its parent's."""
    seen: dict[int, tuple[int, int, str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            seen[int(entry.name)] = (
                int(fields[1]),
                int(fields[3]),
                command,
                (int(fields[11]) + int(fields[12])) / TICKS,
            )
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile

    def tier(pid: int) -> str | None:
        named = None
        while pid in seen:
            parent, sid, command, _ = seen[pid]
            if named is None:
                named = next((name for key, name in TIERS if key in command), None)
            if sid == session or folder in command:
                return named
            pid = parent
        return None

    used: dict[str, float] = {}
    for pid, (_, _, _, seconds) in seen.items():
        name = tier(pid)
        if name is not None:
            used[name] = used.get(name, 0.0) + seconds
    return used


#: how a process's command line tells its tier (the first match wins)
TIERS = (
    ("ludoteca serve", "server"),
    ("ludoteca worker", "worker"),
    ("postgres", "postgresql"),
    ("redis-server", "redis"),
    ("nginx", "nginx"),
)


async def run_size(
    url: str,
    games: int,
    seconds: float,
    server: int | None,
    seed: int,
    cluster: tuple[int, str] | None = None,
    level: int | None = None,
    watchers: int = 0,
    slow: float = 0.0,
) -> dict[str, Any]:
    """Run ``games`` games for a warm-up then ``seconds`` measured; the figures.  ``server``:
    the server's process id, for its CPU and memory; ``cluster``: a cluster's session id and
    folder, for each tier's CPU (``tiers``: % of one core); ``level``: games against the
    computer at that level instead of hot-seat games; ``watchers``: spectators in a process of
    their own, ``slow`` of them never reading."""
    stop = asyncio.Event()
    tally = Tally()
    rng = random.Random(seed)
    tasks = []
    spectate = None
    if watchers:
        context = multiprocessing.get_context("spawn")
        ids, results = context.Queue(), context.Queue()
        flags = (context.Event(), context.Event())
        watching = context.Process(
            target=watch_main, args=(url, watchers, slow, ids, flags, results, seed)
        )
        watching.start()
        spectate = (ids, max(1, round(watchers / games)))
    per_address = PER_ADDRESS if level is None else COMPUTER_PER_ADDRESS
    for i in range(games):
        address = f"127.0.0.{2 + i // per_address}"
        tasks.append(
            asyncio.create_task(
                play_games(
                    url,
                    address,
                    GAMES[i % len(GAMES)],
                    stop,
                    tally,
                    random.Random(rng.random()),
                    level,
                    spectate,
                )
            )
        )
        if i % 50 == 49:
            await asyncio.sleep(0.2)  # ramp up
    await asyncio.sleep(5.0 + 1.2 * watchers / WATCHERS_A_SECOND)  # warm-up: all moving
    if watchers:
        flags[0].set()
    started = time.monotonic()
    cpu0 = _cpu_seconds(server) if server else 0.0
    tiers0 = tier_seconds(*cluster) if cluster else {}
    me0 = time.process_time()
    tally.measuring = True
    await asyncio.sleep(seconds)
    tally.measuring = False
    elapsed = time.monotonic() - started
    seen: dict[str, Any] = {}
    if watchers:
        flags[0].clear()
        seen = await asyncio.to_thread(results.get, True, 60)
        flags[1].set()
        await asyncio.to_thread(watching.join, 30)
    cpu = (_cpu_seconds(server) - cpu0) / elapsed * 100 if server else float("nan")
    mine = (time.process_time() - me0) / elapsed * 100
    tiers = {
        tier: (used - tiers0.get(tier, 0.0)) / elapsed * 100
        for tier, used in (tier_seconds(*cluster) if cluster else {}).items()
    }
    rss = _rss_mb(server) if server else float("nan")
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    failed = sum(1 for t in tasks if t.done() and not t.cancelled() and t.exception())
    rtts = sorted(tally.rtts) or [float("nan")]
    return {
        "games": games,
        "rtts": sorted(tally.rtts),  # (seconds, for pooling several runs)
        "moves_per_s": len(tally.rtts) / elapsed,
        "p50_ms": pct(rtts, 0.50),
        "p95_ms": pct(rtts, 0.95),
        "p99_ms": pct(rtts, 0.99),
        "mean_ms": statistics.fmean(rtts) * 1000,
        "errors": tally.errors,
        "refused": tally.refused,
        "crashed_clients": failed,
        "server_cpu_pct": cpu,
        "server_rss_mb": rss,
        "client_cpu_pct": mine,
        "tiers": tiers,
        **seen,
    }


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds; nearest rank), in milliseconds."""
    ranked = sorted(values) or [float("nan")]
    return ranked[min(len(ranked) - 1, int(q * len(ranked)))] * 1000


def growth(quiet: list[float], busy: list[float]) -> list[float]:
    """The growth in percent of ``busy``'s p50, p95 and p99 over ``quiet``'s."""
    return [(pct(busy, q) / pct(quiet, q) - 1) * 100 for q in (0.5, 0.95, 0.99)]


def growth_interval(
    quiet: list[float], busy: list[float], draws: int = 2000
) -> tuple[list[float], list[float]]:
    """The 95% bootstrap interval (percentile method, both samples drawn again with
    replacement, seeded) of :func:`growth`'s p50, p95 and p99: lower bounds, upper bounds."""
    rng = numpy.random.default_rng(0)
    quiet_a, busy_a = numpy.asarray(quiet), numpy.asarray(busy)
    ranks = numpy.array([0.5, 0.95, 0.99])
    found = numpy.empty((draws, 3))
    for i in range(draws):
        q = numpy.sort(rng.choice(quiet_a, quiet_a.size))
        b = numpy.sort(rng.choice(busy_a, busy_a.size))
        found[i] = b[(ranks * b.size).astype(int)] / q[(ranks * q.size).astype(int)] * 100 - 100
    low, high = numpy.percentile(found, [2.5, 97.5], axis=0)
    return [float(x) for x in low], [float(x) for x in high]


def start_server(db: str, log: Path, workers: int = 1) -> tuple[subprocess.Popen[bytes], str]:
    """``ludoteca serve`` on a free port of 127.0.0.1, on the database ``db`` (a SQLAlchemy
    URL), with ``workers`` move processes, its log written to ``log``; the process and its
    address once it answers."""
    port = _free_port()
    with log.open("w") as stream:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ludoteca",
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--db",
                db,
            ],
            stdout=subprocess.DEVNULL,
            stderr=stream,
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(url + "/api/lobby", timeout=1)
            return server, url
        except httpx.HTTPError:
            if server.poll() is not None:
                break
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not start (see {log})")


def tree_seconds(root: int) -> float:
    """The processor seconds used so far by the process ``root`` and its descendants."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # it ended meanwhile
            parents[int(entry.name)] = int(fields[1])
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
    total = 0.0
    for pid, seconds in used.items():
        ancestor = pid
        while ancestor in parents and ancestor != root:
            ancestor = parents[ancestor]
        total += seconds if ancestor == root else 0.0
    return total


def settle(server: int, most: float = 600.0) -> None:
    """Wait (at most ``most`` seconds) until the server and its worker processes are done
    starting (loading the compiled search, solving small tables): under a tenth of a core
    used over two seconds.  A move asked for earlier would wait behind that work and could
    be killed at its hard deadline."""
    until = time.monotonic() + most
    before = tree_seconds(server)
    while time.monotonic() < until:
        time.sleep(2.0)
        now = tree_seconds(server)
        if now - before < 0.2:
            return
        before = now


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", default="50,200,500,1000", help="comma-separated numbers of live games"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time per size")
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument(
        "--computer",
        type=int,
        default=None,
        metavar="LEVEL",
        help="games against the computer at this level (default: hot-seat)",
    )
    parser.add_argument("--watchers", type=int, default=0, help="spectators in all")
    parser.add_argument(
        "--slow-watchers", type=float, default=0.0, help="the fraction of them that never read"
    )
    parser.add_argument(
        "--server-pid", type=int, help="the process of the --url server (for its CPU and memory)"
    )
    parser.add_argument("--out", type=Path, help="append the table here too")
    args = parser.parse_args()
    server = None
    folder = tempfile.mkdtemp(prefix="ludoteca-load-")
    url = args.url
    if url is None:
        server, url = start_server(
            f"sqlite+aiosqlite:///{folder}/load.db", Path(folder) / "server.log"
        )
    rows = []
    try:
        for n in (int(x) for x in args.games.split(",")):
            row = uvloop.run(
                run_size(
                    url,
                    n,
                    args.seconds,
                    server.pid if server else args.server_pid,
                    n,
                    level=args.computer,
                    watchers=args.watchers,
                    slow=args.slow_watchers,
                )
            )
            rows.append(row)
            print(_format(row), flush=True)
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    header = (
        "games  moves/s   p50 ms   p95 ms   p99 ms  errors refused  server CPU%  "
        "server RSS MB  client CPU%"
    )
    table = "\n".join([header, *(_format(r) for r in rows)])
    if args.out:
        command = "python -m bench.load " + " ".join(sys.argv[1:])
        with args.out.open("a") as out:
            out.write(f"# {time.strftime('%Y-%m-%d %H:%M')}  {command}\n{table}\n\n")


def _format(r: dict[str, Any]) -> str:
    line = (
        f"{r['games']:5d} {r['moves_per_s']:8.1f} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} "
        f"{r['p99_ms']:8.1f} {r['errors']:7d} {r['refused']:7d} {r['server_cpu_pct']:12.0f} "
        f"{r['server_rss_mb']:14.0f} {r['client_cpu_pct']:12.0f}"
    )
    if "watchers" in r:
        line += (
            f"  watchers {r['watchers']:6d} ({r['watcher_failures']} failed)"
            f"  {r['watcher_messages_per_s']:9.0f} messages/s"
            f"  {r['watcher_opened_per_s']:5.0f} opened/s  watchers' CPU% "
            f"{r['watcher_cpu_pct']:4.0f}"
        )
        for why, count in r["watcher_failed_why"]:
            line += f"\n        {count} failed: {why}"
    return line


if __name__ == "__main__":
    main()

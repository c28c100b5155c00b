"""The engine processes' memory over a long run of mixed engine work: bounded, or not.

Starts ``ludoteca serve`` (``--workers`` move processes, and the analysis and report processes)
on a throw-away SQLite database on 127.0.0.1 and, for ``--minutes``, drives it over its HTTP
and websocket API as a club would:

- ``--players`` players, each from an address of its own, play games against the computer as
  White, one after the other: every rule set of every game (the Morris family, Felli and Felli
  with Mullahs, Morelli on its 13, 11 and 9 boards) at its first, middle and top levels in turn;
  a random legal move ``--pace`` seconds after each reply, a hint asked every
  :data:`HINT_EVERY` moves, resigning after :data:`MOST_MOVES` moves; each game's report is
  asked for once it is over;
- an analysis-board client shows a new random position (a rule set in turn) every
  ``--show-every`` seconds;
- every ``--report-every`` seconds, the report of a record of a random game (a rule set in
  turn) is asked for.

Every ``--every`` seconds it reads each worker process's memory from ``/proc`` (Linux only):
its resident set (``VmRSS``) and its own memory as the server's bound counts it (``RssAnon`` +
``VmSwap``, :mod:`ludoteca.server.computer.memory`).  The worker processes are the fork
server's children; each is named by its pid, and as ``moves`` or ``study`` (analysis and
reports, at the idle priority) by its scheduling policy when first seen.  Prints (and writes to
``--out``, with the command, date, commit and load at its top): a line a minute (the workers
alive, their memory summed and the largest, the jobs done per queue from ``/metrics``), then
each worker's start, peak and end, and the jobs done, the pools renewed for their memory
(``ludoteca_workers_renewed``) and the players' tallies.

    .venv/bin/python -m bench.engine_memory --minutes 10 --out bench/results/engine_memory.txt
    .venv/bin/python -m bench.engine_memory --minutes 1 --worker-memory 200  # a quick check
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

import ludoteca
from bench.load import settle, start_server
from bench.report_bench import game_of
from ludoteca.server.play.catalogue import games

MIB = 1024 * 1024
HINT_EVERY = 7  # a player asks for a hint every this many of its moves
MOST_MOVES = 24  # a player resigns a game still going after this many of its moves
ANSWER_TIMEOUT = 120.0  # seconds a player waits for the computer's reply before giving up
SCHED_IDLE = 5  # Linux's scheduling policy of the study processes


@dataclass
class Tally:
    """What the clients did and saw."""

    games: int = 0
    moves: int = 0
    hints: int = 0
    shows: int = 0
    lines: int = 0
    records: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class Worker:
    """One worker process's samples: (seconds into the run, VmRSS, own memory), in bytes."""

    pid: int
    kind: str
    samples: list[tuple[float, int, int]] = field(default_factory=list)


def rule_sets() -> list[tuple[str, str, list[int]]]:
    """``(game, rule set, levels)``: every rule set the server offers, with its first, middle
    and top levels."""
    out = []
    for game in games():
        for definition in game.rule_sets:
            top = len(game.of(definition.name).ladder)
            out.append((game.name, definition.name, sorted({1, (top + 1) // 2, top})))
    return out


def random_position(rules: str, rng: random.Random) -> dict[str, Any]:
    """An analysis-board ``show`` (without ``id``) of a position of ``rules`` a few random
    moves from its start, not over."""
    state = ludoteca.load(rules).new(seed=rng.randrange(1000))
    start = state.position_code()
    moves: list[str] = []
    for _ in range(rng.randrange(40)):
        codes = list(state.legal_codes())
        move = state.move_of(rng.choice(codes))
        state.push(move)
        if state.outcome() is not None:
            state.pop()
            break
        moves.append(str(move))
    return {"type": "show", "game": state.game.name, "rules": rules, "start": start, "moves": moves}


def read_status(pid: int) -> dict[str, int]:
    """The kB fields of ``/proc/PID/status`` (empty once the process has ended)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return {
        name: int(value.split()[0])
        for name, value in (line.split(":", 1) for line in text.splitlines())
        if value.strip().endswith("kB")
    }


def children() -> dict[int, list[int]]:
    """Every process's children, by pid."""
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            out.setdefault(int(stat[1]), []).append(int(entry.name))
    return out


def worker_pids(server: int) -> list[int]:
    """The server's worker processes: the children of its fork server."""
    tree = children()
    for child in tree.get(server, []):
        try:
            line = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in line:
            return tree.get(child, [])
    return []


def policy(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[38])
    except (OSError, IndexError, ValueError):
        return -1


async def sample(server: int, every: float, workers: dict[int, Worker], begun: float) -> None:
    """Every ``every`` seconds, each worker's memory."""
    while True:
        at = time.monotonic() - begun
        for pid in worker_pids(server):
            status = read_status(pid)
            if "VmRSS" not in status:
                continue
            if pid not in workers:
                kind = "study" if policy(pid) == SCHED_IDLE else "moves"
                workers[pid] = Worker(pid, kind)
            own = status.get("RssAnon", 0) + status.get("VmSwap", 0)
            workers[pid].samples.append((at, status["VmRSS"] * 1024, own * 1024))
        await asyncio.sleep(every)


async def metrics(http: httpx.AsyncClient) -> dict[str, float]:
    """The jobs done per queue and the pools renewed, from ``/metrics``."""
    text = (await http.get("/metrics")).text
    found = {}
    for name in ("ludoteca_job_run_seconds_count", "ludoteca_workers_renewed"):
        for queue, value in re.findall(name + r'\{queue="(\w+)"\} ([0-9.e+]+)', text):
            found[f"{name.removeprefix('ludoteca_')}:{queue}"] = float(value)
    return found


async def player(
    url: str, address: str, plan: Any, pace: float, stop: asyncio.Event, tally: Tally, seed: int
) -> None:
    """Play games against the computer from ``address``, the next of ``plan`` each time."""
    rng = random.Random(seed)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:
        while not stop.is_set():
            game, rules, level = next(plan)
            body = {"game": game, "rules": rules, "opponent": "computer", "level": level}
            answer = await http.post("/api/games", json={**body, "colour": "white"})
            if answer.status_code == 429:
                await asyncio.sleep(5)
                continue
            answer.raise_for_status()
            created = answer.json()
            ws_url = url.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
            async with websockets.connect(
                ws_url, local_addr=(address, 0), max_size=2**22, ping_interval=None
            ) as ws:
                hello = {"type": "hello", "token": created["tokens"]["white"]}
                await ws.send(orjson.dumps(hello).decode())
                await play(ws, pace, stop, tally, rng)
            tally.games += 1
            await http.get(f"/api/games/{created['id']}/report")


async def play(ws: Any, pace: float, stop: asyncio.Event, tally: Tally, rng: random.Random) -> None:
    """One game: a random legal move ``pace`` seconds after each reply, then resign."""
    view: dict[str, Any] = {}
    while view.get("type") != "state":
        view = orjson.loads(await ws.recv())
    ply, moved = -1, 0
    while not stop.is_set() and view["status"] == "live" and moved < MOST_MOVES:
        if not view["legal"] or view["ply"] <= ply:
            message = orjson.loads(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
            if message.get("type") == "error":
                tally.errors.append(str(message.get("message")))
                return
            tally.hints += message.get("type") == "hint"
            if message.get("type") == "state":
                view = message
            for name in ("ply", "status", "legal"):
                view[name] = message.get(name, view[name])
            continue
        await asyncio.sleep(pace)
        if moved % HINT_EVERY == HINT_EVERY - 1:
            await ws.send('{"type": "hint"}')
        ply = view["ply"]
        move = rng.choice(view["legal"]).split(" ")[0]
        await ws.send(orjson.dumps({"type": "move", "move": move, "ply": ply}).decode())
        moved += 1
        tally.moves += 1
    if view["status"] == "live":
        await ws.send('{"type": "resign"}')


async def board(url: str, every: float, stop: asyncio.Event, tally: Tally) -> None:
    """The analysis-board client: a new random position every ``every`` seconds."""
    rng = random.Random(7)
    names = itertools.cycle([rules for _, rules, _ in rule_sets()])
    ws_url = url.replace("http", "ws", 1) + "/ws/analysis"
    async with websockets.connect(ws_url, local_addr=("127.0.4.1", 0), max_size=2**22) as ws:
        for ask in itertools.count(1):
            if stop.is_set():
                return
            await ws.send(orjson.dumps({**random_position(next(names), rng), "id": ask}).decode())
            tally.shows += 1
            until = time.monotonic() + every
            while (left := until - time.monotonic()) > 0:
                try:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    break
                tally.lines += message.get("type") == "lines"
                if message.get("type") == "error":
                    tally.errors.append(str(message.get("message")))


async def records(url: str, every: float, stop: asyncio.Event, tally: Tally) -> None:
    """Every ``every`` seconds, the report of a new record of a random game asked for."""
    names = itertools.cycle([rules for _, rules, _ in rule_sets()])
    transport = httpx.AsyncHTTPTransport(local_address="127.0.4.2")
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:
        for skip in itertools.count():
            if stop.is_set():
                return
            text = await asyncio.to_thread(game_of, next(names), 40, "random", skip)
            answer = await http.post("/api/records/report", json={"text": text})
            if answer.status_code == 200:
                tally.records += 1
            else:
                tally.errors.append(f"report {answer.status_code}: {answer.text[:100]}")
            await asyncio.sleep(every)


async def drive(
    args: argparse.Namespace, url: str, server: int
) -> tuple[dict[int, Worker], Tally, list[str]]:
    """Run the clients for ``args.minutes`` while sampling; the samples, the tallies and the
    lines printed each minute."""
    workers: dict[int, Worker] = {}
    tally = Tally()
    stop = asyncio.Event()
    begun = time.monotonic()
    sampler = asyncio.create_task(sample(server, args.every, workers, begun))
    plan = itertools.cycle(
        [(game, rules, level) for game, rules, levels in rule_sets() for level in levels]
    )
    clients = [
        asyncio.create_task(player(url, f"127.0.3.{i + 1}", plan, args.pace, stop, tally, i))
        for i in range(args.players)
    ]
    clients.append(asyncio.create_task(board(url, args.show_every, stop, tally)))
    clients.append(asyncio.create_task(records(url, args.report_every, stop, tally)))
    minutes: list[str] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for minute in range(1, args.minutes + 1):
            await asyncio.sleep(max(0.0, begun + 60 * minute - time.monotonic()))
            for task in clients:
                if task.done() and task.exception() is not None:
                    task.result()  # a client that failed: its error ends the run
            minutes.append(minute_line(minute, workers, await metrics(http), tally))
            print(minutes[-1], flush=True)
        stop.set()
        await asyncio.wait(clients, timeout=30)
        for task in clients:
            task.cancel()
        sampler.cancel()
        minutes.append("end: " + " ".join(f"{k}={v:g}" for k, v in (await metrics(http)).items()))
    return workers, tally, minutes


def minute_line(minute: int, workers: dict[int, Worker], jobs: dict[str, float], t: Tally) -> str:
    latest = [w.samples[-1] for w in workers.values() if w.samples]
    recent = [s for s in latest if s[0] > 60 * minute - 10]
    own = [s[2] for s in recent]
    rss = [s[1] for s in recent]
    done = " ".join(f"{k.split(':')[1]} {v:g}" for k, v in jobs.items() if k.startswith("job_"))
    renewed = sum(v for k, v in jobs.items() if k.startswith("workers_renewed"))
    return (
        f"{minute:3d} min: {len(recent)} workers, own {sum(own) / MIB:6.0f} MiB "
        f"(largest {max(own, default=0) / MIB:4.0f}), RSS {sum(rss) / MIB:6.0f} MiB "
        f"(largest {max(rss, default=0) / MIB:4.0f}); jobs done: {done}; renewed {renewed:g}; "
        f"games {t.games}, moves {t.moves}, hints {t.hints}, shows {t.shows}, "
        f"records {t.records}"
    )


def worker_lines(workers: dict[int, Worker]) -> list[str]:
    lines = [
        "worker      kind   seen (s)    own MiB start/peak/end    RSS MiB start/peak/end",
    ]
    for w in sorted(workers.values(), key=lambda w: w.samples[0][0]):
        first, last = w.samples[0], w.samples[-1]
        lines.append(
            f"{w.pid:>8}  {w.kind:>6}  {first[0]:4.0f}-{last[0]:4.0f}   "
            f"{first[2] / MIB:6.0f} {max(s[2] for s in w.samples) / MIB:6.0f} "
            f"{last[2] / MIB:6.0f}          "
            f"{first[1] / MIB:6.0f} {max(s[1] for s in w.samples) / MIB:6.0f} "
            f"{last[1] / MIB:6.0f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=10, help="how long to run (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="the server's move processes")
    parser.add_argument("--players", type=int, default=4, help="players against the computer")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds before each move")
    parser.add_argument("--show-every", type=float, default=4.0, help="analysis-board seconds")
    parser.add_argument("--report-every", type=float, default=45.0, help="record reports")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    parser.add_argument(
        "--worker-memory", type=int, help="LUDOTECA_WORKER_MEMORY (MiB; default: the server's)"
    )
    parser.add_argument("--out", type=Path, help="write the result here too")
    args = parser.parse_args()
    if args.worker_memory is not None:
        os.environ["LUDOTECA_WORKER_MEMORY"] = str(args.worker_memory)
    load = os.getloadavg()[0]
    folder = tempfile.mkdtemp(prefix="ludoteca-memory-")
    server, url = start_server(
        f"sqlite+aiosqlite:///{folder}/memory.db", Path(folder) / "server.log", args.workers
    )
    try:
        settle(server.pid)
        workers, tally, minutes = asyncio.run(drive(args, url, server.pid))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    bound = os.environ.get("LUDOTECA_WORKER_MEMORY", "the default")
    lines = [
        "# .venv/bin/python -m bench.engine_memory " + " ".join(sys.argv[1:]),
        f"# {time.strftime('%Y-%m-%d %H:%M %Z')} at {commit}, {os.cpu_count()} cores, load "
        f"average before the run {load:.2f} (ludoteca {ludoteca.__version__})",
        f"# {args.workers} move processes, {args.players} players (pace {args.pace} s), a "
        f"position shown every {args.show_every} s, a record's report every "
        f"{args.report_every} s; worker memory bound: {bound} (MiB); own = RssAnon + VmSwap",
        "",
        *minutes,
        "",
        *worker_lines(workers),
        "",
        f"games {tally.games}, player moves {tally.moves}, hints {tally.hints}, positions shown "
        f"{tally.shows} (lines {tally.lines}), records reported {tally.records}, "
        f"errors {len(tally.errors)} {sorted(set(tally.errors))[:5]}",
    ]
    print("\n".join(lines[-len(worker_lines(workers)) - 2 :]))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

"""Study work under load (issue 26): the move latency in live games without, then with, then
again without study work, side by side with how long that work took, all against one server
this starts.

1. ``--games`` live games (200 by default; Nine Men's Morris, Felli and Morelli in turn), each
   moving about once a second (:mod:`load`'s players): ``--computer`` of them (40 by default)
   a player against the computer at ``--level`` (a move's latency is from sending it to the
   computer's reply), the others hot-seat games (from sending a move to seeing it played);
   measured for ``--seconds`` with no study work;
2. the same games go on while two game reports are asked for (a 150-ply Morris game and a
   100-ply Morelli game, sent as records, as :mod:`report_bench` makes them) and an
   analysis-board client shows a new position every ``--every`` seconds (``--changes`` of
   them, from those two games, outside the opening book): measured until both reports are
   ready and every change is made (at least ``--seconds``);
3. the games go on for ``--seconds`` more without study work, so that the growth is measured
   against the windows on both sides of the study work (games drift over a run: they grow
   longer, the database fuller), not against the first alone;
4. steps 2 and 3 again, ``--cycles`` times in all, each cycle's reports of other games (the
   players' next hundred seeds): a window's latency moves by tens of percent on its own on
   a shared machine, so the growth is given per cycle, over several as their median, and pooled
   (every window with study work against every window without) with a 95% bootstrap interval.

Prints and writes (``--out``, with the command, date and commit at its top): each report's
ready time, the first engine line's latency after each position change (from sending ``show``
to the first ``lines`` answer: p50, p95, max), and the move latencies p50/p95/p99 (the
computer's replies, the hot-seat moves) in each window, with the growth in percent of the
window with study work over the two without (and the median over the cycles).  The server
uses the machine's table cache (``$LUDOTECA_CACHE``, default ``~/.cache/ludoteca``): the tables
built there are listed in the result.

    .venv/bin/python -m bench.study_bench --cycles 3 --out bench/results/study.txt
    .venv/bin/python -m bench.study_bench --games 20 --seconds 20   # a quick check
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets

import ludoteca
from bench.load import (
    COMPUTER_PER_ADDRESS,
    GAMES,
    PER_ADDRESS,
    Tally,
    _cpu_seconds,
    growth,
    growth_interval,
    pct,
    play_games,
    settle,
    start_server,
    tree_seconds,
)
from bench.report_bench import game_of
from ludoteca import record
from ludoteca.ai.book import book_for
from ludoteca.solve import cache_dir

#: the games of the reports: rule set, plies, the agent that plays them (as report_bench.py)
REPORTS = (("morris", 150, "search:depth=2,noise=300"), ("morelli", 100, "random"))
LINE_TIMEOUT = 60.0  # seconds a position change waits for its first line before it counts missing
POLL = 1.0  # seconds between two questions for a report's status, as the report page asks
STUDY_ADDRESS = "127.0.1.1"  # the study client's own address (its own per-address limits)


@dataclass
class Study:
    """What the study work saw: each report's ready time, each first line's latency."""

    ready: dict[str, float] = field(default_factory=dict)
    first_lines: list[float] = field(default_factory=list)
    missing: int = 0  # position changes answered by no line within LINE_TIMEOUT


def board_positions(texts: list[str], count: int) -> list[dict[str, Any]]:
    """``count`` analysis-board ``show`` messages (without ``id``): positions of the games of
    ``texts`` outside their opening book and not over, spread along each game, the games in
    turn."""
    per_game: list[list[dict[str, Any]]] = []
    for text in texts:
        game = record.loads(text)
        state = game.start()
        start = state.position_code()
        shown = []
        moves = [str(m) for m in game.state.moves]
        book = book_for(state.game)
        for ply, move in enumerate(game.state.moves):
            if state.outcome() is None and (book is None or book.lookup(state) is None):
                shown.append(
                    {
                        "type": "show",
                        "game": state.game.name,
                        "rules": str(state.rules),
                        "start": start,
                        "moves": moves[:ply],
                    }
                )
            state.push(move)
        step = max(1, len(shown) * len(texts) // count)
        per_game.append(shown[::step])
    mixed = [p for group in zip(*per_game, strict=False) for p in group]
    return (mixed * (count // max(1, len(mixed)) + 1))[:count]


async def report(http: httpx.AsyncClient, name: str, text: str, study: Study) -> None:
    """Ask for the report of ``text`` and poll it (as the pages do) until it is ready."""
    started = time.monotonic()
    answer = await http.post("/api/records/report", json={"text": text})
    answer.raise_for_status()
    key = answer.json()["key"]
    while (await http.get(f"/api/reports/{key}")).json()["status"] != "ready":
        await asyncio.sleep(POLL)
    study.ready[name] = time.monotonic() - started
    print(f"  report of {name} ready in {study.ready[name]:.1f} s", flush=True)


async def first_line(ws: Any, ask: int) -> None:
    """Wait for the first ``lines`` answer to the ``show`` numbered ``ask``."""
    while True:
        message = orjson.loads(await ws.recv())
        if message.get("type") == "error":
            raise RuntimeError(message["message"])
        if message.get("type") == "lines" and message.get("id") == ask:
            return


async def board(url: str, shows: list[dict[str, Any]], every: float, study: Study) -> None:
    """One analysis-board client: a new position every ``every`` seconds; the time from each
    ``show`` to its first ``lines`` answer."""
    ws_url = url.replace("http", "ws", 1) + "/ws/analysis"
    async with websockets.connect(ws_url, local_addr=(STUDY_ADDRESS, 0), max_size=2**22) as ws:
        for ask, show in enumerate(shows, 1):
            changed = time.monotonic()
            await ws.send(orjson.dumps({**show, "id": ask}).decode())
            try:
                await asyncio.wait_for(first_line(ws, ask), LINE_TIMEOUT)
                study.first_lines.append(time.monotonic() - changed)
            except TimeoutError:
                study.missing += 1
            await asyncio.sleep(max(0.0, changed + every - time.monotonic()))


async def warm(url: str, level: int, processes: int) -> None:
    """Wait until the server's move processes have loaded the compiled search: ``processes``
    games of each rule set against the computer (each from an address of its own, so that no
    per-address limit refuses one) until as many computer replies have come."""
    stop = asyncio.Event()
    tally = Tally(measuring=True)
    games = [game for _ in range(processes) for game in GAMES]
    seats = [
        asyncio.create_task(
            play_games(url, f"127.0.2.{i + 1}", game, stop, tally, random.Random(i), level)
        )
        for i, game in enumerate(games)
    ]
    until = time.monotonic() + 600
    while len(tally.rtts) < len(games) and time.monotonic() < until:
        failed = [t for t in seats if t.done()]
        if failed:
            failed[0].result()  # a seat that failed: its error ends the run
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.wait(seats, timeout=10)
    for task in seats:
        task.cancel()


def cpu_of(server: int) -> tuple[float, float]:
    """The processor seconds used so far by the server process itself (all its threads) and
    by its worker processes."""
    own = _cpu_seconds(server)
    return own, tree_seconds(server) - own


async def run(args: argparse.Namespace, url: str, server: int) -> dict[str, Any]:
    """Start the games; measure a window without study work, then ``args.cycles`` times one
    with it and one without; the figures (each window's latencies and the processor time of
    the ``server`` process and of its workers, each cycle's study)."""
    cycles = [
        {name: game_of(name, plies, spec, 100 * cycle) for name, plies, spec in REPORTS}
        for cycle in range(args.cycles)
    ]
    await warm(url, args.level, args.workers)
    stop = asyncio.Event()
    tallies = {"computer": Tally(), "hotseat": Tally()}
    rng = random.Random(1)
    players = []
    for i in range(args.games):
        game = GAMES[i % len(GAMES)]
        seed = random.Random(rng.random())
        if i < args.computer:  # the computer's games from 127.0.0.2 on, the others from 127.0.3.2
            address = f"127.0.0.{2 + i // COMPUTER_PER_ADDRESS}"
            seat = play_games(url, address, game, stop, tallies["computer"], seed, args.level)
        else:
            address = f"127.0.3.{2 + (i - args.computer) // PER_ADDRESS}"
            seat = play_games(url, address, game, stop, tallies["hotseat"], seed)
        players.append(asyncio.create_task(seat))
        if i % 50 == 49:
            await asyncio.sleep(0.2)  # ramp up
    await asyncio.sleep(args.warmup)
    for tally in tallies.values():
        tally.measuring = True
    windows: list[Window] = []

    async def window(label: str, work: Awaitable[Any] | None = None) -> None:
        """Measure a window of at least ``args.seconds`` (and until ``work`` is done)."""
        started, cpu = time.monotonic(), cpu_of(server)
        for tally in tallies.values():
            tally.rtts = []
        if work is not None:
            await work
        await asyncio.sleep(max(0.0, started + args.seconds - time.monotonic()))
        rtts = {kind: tally.rtts for kind, tally in tallies.items()}
        seconds = time.monotonic() - started
        used = [(b - a) / seconds for a, b in zip(cpu, cpu_of(server), strict=True)]
        windows.append(Window(label, rtts, seconds, used))
        print(
            f"  {label}: {len(rtts['computer'])} computer moves, "
            f"{len(rtts['hotseat'])} hot-seat moves in {seconds:.0f} s",
            flush=True,
        )

    studies = []
    await window("without study 1")
    for cycle, texts in enumerate(cycles, 1):
        study = Study()
        studies.append(study)
        await window(f"with study {cycle}", study_work(url, texts, args, study))
        await window(f"without study {cycle + 1}")
    stop.set()
    await asyncio.wait(players, timeout=10)
    for task in players:
        task.cancel()
    return {
        "windows": windows,
        "studies": studies,
        "errors": sum(tally.errors for tally in tallies.values()),
        "refused": sum(tally.refused for tally in tallies.values()),
    }


async def study_work(
    url: str, texts: dict[str, str], args: argparse.Namespace, study: Study
) -> None:
    """The two reports of ``texts`` asked for, and the analysis board's changes among their
    positions, at once."""
    shows = board_positions(list(texts.values()), args.changes)
    transport = httpx.AsyncHTTPTransport(local_address=STUDY_ADDRESS)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:
        work = [asyncio.create_task(report(http, n, text, study)) for n, text in texts.items()]
        work.append(asyncio.create_task(board(url, shows, args.every, study)))
        await asyncio.gather(*work)


@dataclass
class Window:
    """One measured window: its label, the latencies of each kind of move, its length and the
    cores used (the server process, its workers)."""

    label: str
    rtts: dict[str, list[float]]
    seconds: float
    cores: list[float]


def summary(figures: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """The result's lines."""
    studies: list[Study] = figures["studies"]
    windows: list[Window] = figures["windows"]
    lines = [
        f"{args.games} live games, a move about once a second each: {args.computer} against "
        f"computer level {args.level}, {args.games - args.computer} hot-seat; server with "
        f"--workers {args.workers}; {len(studies)} cycle(s) of study work, each between two "
        "windows without it",
        "reports (ready, from the request), by cycle:",
    ]
    for name, plies, spec in REPORTS:
        took = [study.ready.get(name, float("nan")) for study in studies]
        goal = "within" if max(took) <= 30 else "OVER"
        cells = ", ".join(f"{t:.1f}" for t in took)
        lines.append(f"  {name} ({plies} plies, {spec}): {cells} s ({goal} the 30 s goal)")
    first = [t for study in studies for t in study.first_lines]
    slowest = max(
        ((t, c, i) for c, study in enumerate(studies, 1) for i, t in enumerate(study.first_lines)),
        default=(float("nan"), 0, 0),
    )
    lines.append(
        f"first engine line after a position change ({len(first)} changes, one every "
        f"{args.every:g} s): p50 {pct(first, 0.5):.0f} ms, p95 {pct(first, 0.95):.0f} ms, "
        f"max {slowest[0] * 1000:.0f} ms (cycle {slowest[1]}, change {slowest[2] + 1}; goal "
        f"300 ms); {sum(s.missing for s in studies)} without a line within {LINE_TIMEOUT:g} s"
    )
    for kind, heading in (
        ("computer", "computer move latency (from the move sent to the computer's reply, ms):"),
        ("hotseat", "hot-seat move latency (from the move sent to seeing it played, ms):"),
    ):
        lines.append(heading)
        lines.append("                       moves      p50      p95      p99")
        for w in windows:
            rtts = w.rtts[kind]
            lines.append(
                f"  {w.label:18s} {len(rtts):8d} {pct(rtts, 0.5):8.1f} {pct(rtts, 0.95):8.1f} "
                f"{pct(rtts, 0.99):8.1f}   ({w.seconds:.0f} s)"
            )
        goal = "   (goal: at most +10%)" if kind == "computer" else ""
        growths = []
        for i in range(1, len(windows), 2):  # each window with study work, between two without
            quiet = windows[i - 1].rtts[kind] + windows[i + 1].rtts[kind]
            growths.append(growth(quiet, windows[i].rtts[kind]))
            lines.append(f"  {'growth, cycle ' + str(i // 2 + 1):18s} {'':8s}{_cells(growths[-1])}")
        if len(growths) > 1:
            median = [statistics.median(g[q] for g in growths) for q in range(3)]
            lines.append(f"  {'growth, median':18s} {'':8s}{_cells(median)}")
            quiet = [t for w in windows[0::2] for t in w.rtts[kind]]
            busy = [t for w in windows[1::2] for t in w.rtts[kind]]
            low, high = growth_interval(quiet, busy)
            lines.append(f"  {'growth, pooled':18s} {'':8s}{_cells(growth(quiet, busy))}{goal}")
            lines.append(f"  {'  95% interval':18s} {'':8s}{_cells(low)}")
            lines.append(f"  {'':18s} {'':8s}{_cells(high)}")
        elif growths:
            lines[-1] += goal
    lines.append(
        f"processor use (cores, of {os.cpu_count()}): the server process, its worker processes"
    )
    for w in windows:
        lines.append(f"  {w.label:18s} {w.cores[0]:8.2f} {w.cores[1]:8.2f}")
    lines.append(f"errors {figures['errors']}, refusals {figures['refused']}")
    return lines


def _cells(growths: list[float]) -> str:
    return "".join(f"{f'{g:+.1f}%':>9s}" for g in growths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="live games (default 200)")
    parser.add_argument(
        "--computer", type=int, default=40, help="of them, against the computer (default 40)"
    )
    parser.add_argument("--level", type=int, default=1, help="the computer's level (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="the server's move processes")
    parser.add_argument("--seconds", type=float, default=60.0, help="the least measured time")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--changes", type=int, default=30, help="analysis-board positions")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between them")
    parser.add_argument(
        "--cycles", type=int, default=1, help="windows with study work, each between two without"
    )
    parser.add_argument("--out", type=Path, help="write the result here")
    args = parser.parse_args()
    args.computer = min(args.computer, args.games)
    load = os.getloadavg()[0]
    folder = tempfile.mkdtemp(prefix="ludoteca-study-")
    server, url = start_server(
        f"sqlite+aiosqlite:///{folder}/study.db", Path(folder) / "server.log", args.workers
    )
    try:
        settle(server.pid)
        figures = uvloop.run(run(args, url, server.pid))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    tables = sorted(p.name for p in cache_dir().glob("*.npz")) if cache_dir().exists() else []
    header = [
        "# .venv/bin/python -m bench.study_bench " + " ".join(sys.argv[1:]),
        f"# {time.strftime('%Y-%m-%d %H:%M %Z')} at {commit}, {os.cpu_count()} cores, load "
        f"average before the run {load:.2f} (ludoteca {ludoteca.__version__})",
        f"# tables in {cache_dir()}: {', '.join(tables) or 'none'}",
    ]
    lines = header + summary(figures, args)
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

"""Play across time beside live play (issue 52): thousands of correspondence games and running
tournaments held by one server process, against the same server empty, in one run.

1. Seeds a fresh database (a SQLite file, or ``--db URL`` and ``--empty-db URL``: two empty
   PostgreSQL databases) through the server's own services
   (:func:`~ludoteca.server.services.build_services`, in a process of its own), with the hub's
   clock injected (as the tests make days pass): ``--accounts`` accounts (one password hash,
   computed once, shared by all); ``--tournaments`` tournaments through the tournaments
   service (arena and Swiss in turn, three days per move, ``--entrants`` accounts each):
   started, the arenas with two waves of games over and their players paired again, the
   Swiss with two rounds played and the third under way, 0-6 moves in each game under way;
   then ``--games`` rated correspondence games between the accounts (Nine Men's Morris, Felli
   and Morelli in turn, 1, 2, 3, 5, 7 or 14 days per move in turn), each opened through the
   hub and given 0-16 random moves by its players, the clock set so that its last move lies
   at a random moment of its days per move: the steady state of games whose players all let
   their time run out, where about ``games x 0.375 / 1440`` fall due a minute (2.6 of
   10,000); besides, ``--due`` of them (default one in a thousand) fall due at random moments
   of the run.  While seeding, the notifications and the planned moves' look-up after each
   move are left out (nobody subscribed, nothing planned).
2. Starts two ``ludoteca serve`` processes (one move process each, as :mod:`bench.load`'s),
   one on the seeded database and one on an empty one; both run for the whole run, their
   sweeps (correspondence deadlines every minute, tournaments every 5 s) too.
3. ``--rounds`` times: :mod:`bench.load`'s live games (``--live`` hot-seat games, each moving
   once a second over its websocket, :func:`bench.load.run_size`: a 5 s warm-up, then
   ``--seconds`` measured) against each server in turn, the order alternating (empty then
   seeded, seeded then empty, ...), so that drift on this shared machine falls on both.

Prints and writes (``--out``, with the command, date, commit, load average, the run's length
and how busy the machine's cores were with other work at its top): what was seeded and how long
it took; per round and server, the moves measured, moves/s, the move round-trip p50/p95/p99,
errors and refusals, the server's CPU (% of one core) and memory, then the server's sweeps in
the window (passes, seconds, games ended) and how often its event loop ran a 50 ms timer over
25, 50, 100, 250 or 1000 ms late (from its ``/metrics``, over the whole window: ramp-up and
warm-up included); the round-trips of all rounds pooled per server and the seeded server's
growth over the empty one's (p50, p95, p99) with a 95% bootstrap interval, and each round's p99
ratio; each server's sweeps over the whole run (``ludoteca_sweep_seconds``: passes, seconds a
minute, the mean pass and the bucket of the longest; ``ludoteca_sweep_ended``: games ended on
time) and event loop lag; each server's CPU while the other was measured (the cost of holding
the games and tournaments, idle).  The empty server's figures are :mod:`bench.load`'s at
``--live`` games.

    .venv/bin/python -m bench.across_time --out bench/results/across_time.txt
    .venv/bin/python -m bench.across_time --games 50 --tournaments 1 --entrants 4 --live 10 \\
        --seconds 3 --rounds 1 --due 5                            # a quick check
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import functools
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Literal

import httpx
import uvloop
from sqlalchemy import Connection, insert

import ludoteca
from bench.load import (
    GAMES,
    TICKS,
    _cpu_seconds,
    _rss_mb,
    growth,
    growth_interval,
    pct,
    run_size,
    settle,
    start_server,
    tree_seconds,
)

#: days per move of the seeded games, in turn (all those the server offers)
DAYS = (1, 2, 3, 5, 7, 14)
#: the tournaments' days per move
TOURNAMENT_CLOCK = "3d"
#: an arena's length (minutes): it runs through the benchmark
ARENA_MINUTES = 14 * 24 * 60
SWISS_ROUNDS = 7
#: the most random moves a seeded game gets
MOST_PLIES = 16
#: games seeded at once (each its own task; their moves commit together)
AT_ONCE = 256
#: seconds a window of the run takes besides its measured time (the players' ramp-up, the
#: warm-up, the end), to spread the ``--due`` deadlines over the run
WINDOW_EXTRA = 12.0
DAY_MS = 86_400_000
#: the most seconds a server is given to settle after it starts (its CPU quiet): the seeded
#: one's first sweep ends the games already due, whose reports its report process then makes
#: (at the lowest priority, the steady state of a server whose games end on time)
SETTLE = 30.0

#: the epoch ms the hub's clock says in the task seeding a game (None: the real time)
SEED_AT: ContextVar[int | None] = ContextVar("seed_at", default=None)


def seed_clock() -> int:
    """The seeding hub's clock: :data:`SEED_AT` of the task asking, else the real time."""
    at = SEED_AT.get()
    return at if at is not None else int(time.time() * 1000)


@dataclass
class Seeded:
    """What the seeding made."""

    accounts: int = 0
    games: int = 0
    moves: int = 0
    ended: int = 0  # seeded games that ended in their random moves (not in play)
    due_in_run: int = 0  # games in play given a deadline within the run (``--due``)
    tournaments: dict[str, int] = field(default_factory=dict)  # by system
    boards: int = 0
    tournament_games_in_play: int = 0
    seconds: float = 0.0
    #: the deadlines of the games in play, in hours from the end of the games' seeding
    deadlines_h: list[float] = field(default_factory=list)


def seed_main(db: str, args: dict[str, Any]) -> Seeded:
    """(In a process of its own.)  Seed ``db`` (see :func:`seed`)."""
    return asyncio.run(seed(db, **args))


async def seed(
    db: str,
    games: int,
    tournaments: int,
    accounts: int,
    entrants: int,
    due: int,
    due_span: float,
    seed: int,
) -> Seeded:
    """Seed ``db`` as the module's notes say; ``due_span``: the seconds after the seeding
    over which the ``due`` games' deadlines are spread."""
    from sqlalchemy import select

    from ludoteca.server.community.people import Accounts, User, UserRow
    from ludoteca.server.schemas import Plain
    from ludoteca.server.services import build_services
    from ludoteca.server.settings import Settings
    from ludoteca.server.store import now
    from ludoteca.server.tournaments.schemas import TournamentBody

    started = time.monotonic()
    rng = random.Random(seed)
    made = Seeded()
    settings = Settings(db=db, workers=1, warm=False, seek_wait=0)
    async with build_services(settings, clock=seed_clock) as services:
        # nobody to tell: the notifications of the seeded moves are not sent (the server's
        # notifier would queue and drop them),
        services.hub.committed = lambda live, change: None
        # nor any planned move to look for after each move (none is seeded)
        services.hub.listeners.remove(services.correspondence.plans.game_changed)
        store = services.store
        hashed = await asyncio.to_thread(Accounts(store).hasher.hash, "correspondence")
        names = [f"corr{i:05d}" for i in range(accounts)]
        for start in range(0, accounts, 1000):
            rows = [
                {"name": n, "name_key": n, "password": hashed, "created": now()}
                for n in names[start : start + 1000]
            ]
            await store.write(functools.partial(_insert_users, rows=rows))
        async with store.session() as session:
            found = (await session.execute(select(UserRow.id, UserRow.name))).all()
        wanted = set(names)
        users = {name: user_id for user_id, name in found if name in wanted}
        ids = [users[n] for n in names]
        made.accounts = len(ids)
        print(f"  {made.accounts} accounts in {time.monotonic() - started:.1f} s", flush=True)

        # the tournaments first, then the games (the last seeded are the games due in the run)
        people = {
            user_id: User(user_id, name, "") for name, user_id in zip(names, ids, strict=True)
        }
        made_ids = []
        for t in range(tournaments):
            system: Literal["arena", "swiss"] = "arena" if t % 2 == 0 else "swiss"
            body = TournamentBody(
                name=f"Across time {t + 1}",
                game=GAMES[t % len(GAMES)],
                clock=TOURNAMENT_CLOCK,
                system=system,
                rounds=SWISS_ROUNDS if system == "swiss" else None,
                minutes=ARENA_MINUTES if system == "arena" else None,
                starts=datetime.datetime.now(datetime.UTC),
                rated=True,
            )
            tid = await services.tournaments.create(body, None)
            for user_id in rng.sample(ids, entrants):
                await services.tournaments.join(tid, people[user_id])
            made.tournaments[system] = made.tournaments.get(system, 0) + 1
            made_ids.append(tid)
        await _settled(services)  # started, the first games paired and opened
        resign = Plain(type="resign")
        for _wave in range(2):  # arenas: half their games over; Swiss: a whole round
            for tid in made_ids:
                view = await services.tournaments.view(tid)
                playing = [b for b in view.boards if b.result == "*" and b.url]
                if view.system == "arena":
                    playing = rng.sample(playing, len(playing) // 2)
                for board in playing:
                    loser = users[rng.choice([board.white, board.black or board.white])]
                    await services.hub.act(_game_of(board.url), None, resign, user=loser)
            await _settled(services)
        for tid in made_ids:
            view = await services.tournaments.view(tid)
            made.boards += len(view.boards)
            for board in view.boards:
                if board.result == "*" and board.url:
                    made.tournament_games_in_play += 1
                    await _random_moves(services, _game_of(board.url), rng.randint(0, 6), rng)
        await _settled(services)
        print(f"  {len(made_ids)} tournaments in {time.monotonic() - started:.0f} s", flush=True)

        # the games: the steady state first, then those due in the run (their deadlines are set
        # from the time they are seeded at)
        plans = [
            (GAMES[i % len(GAMES)], DAYS[i % len(DAYS)], rng.random(), rng.random())
            for i in range(games)
        ]
        due_from = [0]  # epoch ms: the run's start, as the games due in it are seeded

        async def one(i: int) -> None:
            game, days, where, mine = plans[i]
            own = random.Random(mine)
            white, black = own.sample(ids, 2)
            if i >= games - due:  # its deadline at a random moment of the run
                deadline = due_from[0] + int(where * due_span * 1000)
            else:  # its last move at a random moment of its days per move
                deadline = int(time.time() * 1000) + int(where * days * DAY_MS)
            plies = own.randint(0, MOST_PLIES)
            played, over = await seed_game(
                services, game, days, (white, black), deadline, plies, own, names, ids
            )
            made.games += 1
            made.moves += played
            made.ended += over
            if not over:
                deadlines.append(deadline)
                made.due_in_run += i >= games - due

        deadlines: list[int] = []
        for start in range(0, games, AT_ONCE):
            if start + AT_ONCE > games - due and not due_from[0]:
                due_from[0] = int(time.time() * 1000) + 30_000  # (the servers' start-up)
            await _all(one(i) for i in range(start, min(games, start + AT_ONCE)))
            if made.games % 2048 == 0:
                print(
                    f"  {made.games} games, {made.moves} moves in "
                    f"{time.monotonic() - started:.0f} s",
                    flush=True,
                )
        reference = time.time() * 1000
        made.deadlines_h = [(d - reference) / 3_600_000 for d in deadlines]
    made.seconds = time.monotonic() - started
    return made


def _insert_users(connection: Connection, rows: list[dict[str, Any]]) -> None:
    from ludoteca.server.community.people import UserRow

    connection.execute(insert(UserRow), rows)


def _game_of(url: str | None) -> str:
    """The game id of a board's ``/game/ID``."""
    assert url is not None
    return url.rsplit("/", 1)[1]


async def seed_game(
    services: Any,
    game: str,
    days: int,
    players: tuple[int, int],
    deadline: int,
    plies: int,
    rng: random.Random,
    names: list[str],
    ids: list[int],
) -> tuple[int, bool]:
    """Open a rated game of ``game`` with ``days`` per move between the accounts ``players``
    (White, Black) and play ``plies`` random moves, the hub's clock set so that the side to
    move's deadline is ``deadline`` (epoch ms); its moves played and whether it ended (a
    random move that ends the game is not played: it stops there, unless no other is left)."""
    from ludoteca.server.play.catalogue import rule_set
    from ludoteca.server.play.clock import parse_control
    from ludoteca.server.play.opening import Opening
    from ludoteca.server.schemas import HUMAN, Mode

    span = days * DAY_MS
    gap = span * 2 // 5 // max(1, plies)  # each move well within its days
    bound = rule_set(game)
    by_id = dict(zip(ids, names, strict=True))
    SEED_AT.set(deadline - span - plies * gap)
    opening = Opening(
        game=bound.name,
        rules=str(bound.rules),
        start=None,
        mode=Mode.ONLINE,
        kinds={"white": HUMAN, "black": HUMAN},
        control=parse_control(f"{days}d"),
        names={"white": by_id[players[0]], "black": by_id[players[1]]},
        users={"white": players[0], "black": players[1]},
        rated=True,
    )
    row = await services.hub.open(opening)
    played = 0
    for ply in range(plies):
        SEED_AT.set(deadline - span - (plies - ply - 1) * gap)
        if not await _random_moves(services, row.id, 1, rng):
            break
        played += 1
    live = await services.hub.get(row.id)
    over = live.row.status != "live"
    services.hub.evict(live)
    return played, over


async def _random_moves(services: Any, game_id: str, count: int, rng: random.Random) -> int:
    """Play up to ``count`` random moves in a game (by the player to move), none that ends
    it; how many."""
    from ludoteca.server.play.seats import colour_name, seat
    from ludoteca.server.schemas import MoveIntent

    played = 0
    for _ in range(count):
        live = await services.hub.get(game_id)
        state = live.state.copy()
        codes = state.legal_codes()
        rng.shuffle(codes)
        move = None
        for code in codes:
            state.push_code(code)
            ends = state.outcome() is not None
            state.pop_code()
            if not ends:
                move = str(state.move_of(code))
                break
        if move is None:
            return played
        user = seat(colour_name(state.turn)).user_of(live.row)
        intent = MoveIntent(type="move", move=move, ply=live.ply)
        await services.hub.act(game_id, None, intent, user=user)
        played += 1
    return played


async def _settled(services: Any) -> None:
    """The work the hub's listeners started (tournament games recorded, rounds paired, games
    opened) done, then a pass of the tournaments' scheduler, until nothing is left running."""
    while True:
        while services.hub.tasks.running:
            await asyncio.gather(*services.hub.tasks.running, return_exceptions=True)
        await services.tournaments.tick()
        if not services.hub.tasks.running:
            return


async def _all(work: Any) -> None:
    """Run the coroutines of ``work`` at once, each in a task (its own :data:`SEED_AT`)."""
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(c) for c in work]
    await asyncio.gather(*tasks)


# --- the run -----------------------------------------------------------------------------------
@dataclass
class Server:
    """One of the two servers: its label, process, address and what was measured of it."""

    label: str
    process: subprocess.Popen[bytes]
    url: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    idle_cpu: list[tuple[float, float]] = field(default_factory=list)  # (CPU s, wall s)
    metrics: list[tuple[float, dict[str, float]]] = field(default_factory=list)
    rss_start: float = 0.0


SAMPLE = re.compile(
    r"^(ludoteca_(?:sweep_\w+?|event_loop_lag_seconds_\w+?))(?:\{([^}]*)\})? (\S+)$"
)
LAG = "ludoteca_event_loop_lag_seconds"
#: the lags counted (seconds, buckets of the histogram)
LATE = ("0.025", "0.05", "0.1", "0.25", "1.0")


def scrape(url: str) -> dict[str, float]:
    """The sweeps' and the event loop lag's samples of a server's ``/metrics``, by name and
    labels (``name{labels}``)."""
    found = {}
    for line in httpx.get(url + "/metrics", timeout=30).text.splitlines():
        match = SAMPLE.match(line)
        if match:
            found[match.group(1) + "{" + (match.group(2) or "") + "}"] = float(match.group(3))
    return found


def grown(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What each sample grew by between two scrapes."""
    return {key: value - before.get(key, 0.0) for key, value in after.items()}


def sweep_lines(server: Server) -> list[str]:
    """What a server's sweeps cost between its first and last scrape, and how late its event
    loop ran meanwhile."""
    (t0, first), (t1, last) = server.metrics[0], server.metrics[-1]
    minutes = (t1 - t0) / 60
    grew = grown(first, last)
    lines = [f"  over {minutes:.1f} minutes:"]
    for name in ("correspondence", "tournaments"):
        label = f'sweep="{name}"'
        passes = grew.get(f"ludoteca_sweep_seconds_count{{{label}}}", 0.0)
        spent = grew.get(f"ludoteca_sweep_seconds_sum{{{label}}}", 0.0)
        largest = "-"
        for key in sorted(grew, key=_bucket_bound):
            bucket = key.startswith("ludoteca_sweep_seconds_bucket{") and label in key
            if bucket and passes and grew[key] == passes:
                largest = "<= " + _le(key) + " s"
                break
        mean = spent / max(1, passes) * 1000
        line = (
            f"  {name:15s} {passes:4.0f} passes  {spent / minutes:7.3f} s a minute "
            f"({spent / minutes / 60 * 100:.2f}% of the time), a pass {mean:.0f} ms on "
            f"average, the longest {largest}"
        )
        if name == "correspondence":
            line += f"; {grew.get('ludoteca_sweep_ended_sum{}', 0.0):.0f} games ended on time"
        lines.append(line)
    lines.append("  " + _lag(grew))
    return lines


def _lag(grew: dict[str, float]) -> str:
    """How often the event loop ran a 50 ms timer late, from the lag histogram's growth."""
    samples = grew.get(LAG + "_count{}", 0.0)
    over = [samples - grew.get(f'{LAG}_bucket{{le="{le}"}}', 0.0) for le in LATE]
    return (
        f"event loop late by over {' / '.join(f'{float(le) * 1000:g}' for le in LATE)} ms: "
        f"{' / '.join(f'{n:.0f}' for n in over)} of {samples:.0f} samples"
    )


def _le(key: str) -> str:
    found = re.search(r'le="([^"]+)"', key)
    return found.group(1) if found else "+Inf"


def _bucket_bound(key: str) -> float:
    bound = _le(key)
    return float("inf") if bound == "+Inf" else float(bound)


def window(server: Server, other: Server, args: argparse.Namespace, seed: int) -> None:
    """Measure one window of live games against ``server``, ``other`` idle meanwhile; the
    server's sweeps and event loop lag are scraped around the whole window (the players'
    ramp-up and warm-up included)."""
    cpu0, wall0 = _cpu_seconds(other.process.pid), time.monotonic()
    before = scrape(server.url)
    row = uvloop.run(run_size(server.url, args.live, args.seconds, server.process.pid, seed))
    row["during"] = grown(before, scrape(server.url))
    other.idle_cpu.append((_cpu_seconds(other.process.pid) - cpu0, time.monotonic() - wall0))
    server.rows.append(row)
    print(f"  {server.label:6s} {_row(row)}", flush=True)
    print(f"{'':14s}{_during(row['during'])}", flush=True)


def _during(grew: dict[str, float]) -> str:
    """The sweeps' passes in a window and how late the event loop ran in it."""
    cells = []
    for name in ("correspondence", "tournaments"):
        label = f'sweep="{name}"'
        passes = grew.get(f"ludoteca_sweep_seconds_count{{{label}}}", 0.0)
        spent = grew.get(f"ludoteca_sweep_seconds_sum{{{label}}}", 0.0)
        cells.append(f"{name} {passes:.0f} passes {spent:.2f} s")
    cells[0] += f" ({grew.get('ludoteca_sweep_ended_sum{}', 0.0):.0f} ended)"
    return ", ".join(cells) + "; " + _lag(grew)


def _row(r: dict[str, Any]) -> str:
    return (
        f"{len(r['rtts']):7d} {r['moves_per_s']:8.1f} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} "
        f"{r['p99_ms']:8.1f} {r['errors']:6d} {r['refused']:7d} {r['server_cpu_pct']:10.0f} "
        f"{r['server_rss_mb']:9.0f}"
    )


HEADER = "  server   moves  moves/s   p50 ms   p95 ms   p99 ms errors refused  server CPU%  RSS MB"


def report(args: argparse.Namespace, made: Seeded, servers: list[Server]) -> list[str]:
    """The result's lines (after the header)."""
    empty, seeded = servers
    in_play = made.games - made.ended
    hours = sorted(made.deadlines_h)
    lines = [
        f"seeded in {made.seconds:.0f} s: {made.accounts} accounts; {made.games} correspondence "
        f"games ({in_play} in play, {made.ended} ended by a random move; {made.moves} moves; "
        f"days per move {', '.join(map(str, DAYS))} in turn), the deadlines (from the seeding's "
        f"end) from {hours[0]:.2f} h to {hours[-1]:.0f} h, median {statistics.median(hours):.0f} "
        f"h, {sum(h <= 1 for h in hours)} within the first hour ({made.due_in_run} of them put "
        "within the run on purpose)"
        if hours
        else "no game seeded",
        f"{sum(made.tournaments.values())} running tournaments "
        f"({', '.join(f'{n} {s}' for s, n in sorted(made.tournaments.items()))}; "
        f"{args.entrants} entrants each, {TOURNAMENT_CLOCK} per move): {made.boards} boards, "
        f"{made.tournament_games_in_play} games in play",
        f"each server: `ludoteca serve --workers 1`; live load: {args.live} hot-seat games "
        f"(bench.load), each a move a second; {args.rounds} round(s) of {args.seconds:g} s "
        "measured per server, the order alternating",
        f"server memory at start (RSS): seeded {seeded.rss_start:.0f} MB, empty "
        f"{empty.rss_start:.0f} MB",
        "",
        "round " + HEADER.strip(),
    ]
    for i in range(args.rounds):
        order = (empty, seeded) if i % 2 == 0 else (seeded, empty)
        for server in order:
            lines.append(f"{i + 1:5d} {server.label:6s} {_row(server.rows[i])}")
            lines.append(f"{'':13s}{_during(server.rows[i]['during'])}")
    quiet = [t for r in empty.rows for t in r["rtts"]]
    busy = [t for r in seeded.rows for t in r["rtts"]]
    low, high = growth_interval(quiet, busy)
    lines += [
        "",
        "all rounds pooled     moves   p50 ms   p95 ms   p99 ms",
        f"  empty            {len(quiet):8d} {pct(quiet, 0.5):8.1f} {pct(quiet, 0.95):8.1f} "
        f"{pct(quiet, 0.99):8.1f}",
        f"  seeded           {len(busy):8d} {pct(busy, 0.5):8.1f} {pct(busy, 0.95):8.1f} "
        f"{pct(busy, 0.99):8.1f}",
        f"  growth                    {_cells(growth(quiet, busy))}   (goal: p99 at most +10%)",
        f"  95% interval              {_cells(low)}",
        f"                            {_cells(high)}",
    ]
    ratios = [s["p99_ms"] / e["p99_ms"] for e, s in zip(empty.rows, seeded.rows, strict=True)]
    lines.append(
        "  p99 seeded / empty, by round: "
        + ", ".join(f"{r:.2f}" for r in ratios)
        + (f" (median {statistics.median(ratios):.2f})" if len(ratios) > 1 else "")
    )
    lines += ["", "the sweeps over the run, from each server's /metrics:"]
    for server in (seeded, empty):
        lines.append(f"{server.label}:")
        lines += sweep_lines(server)
    lines += ["", "each server's CPU while the other was measured (% of one core):"]
    for server in (seeded, empty):
        used = sum(c for c, _ in server.idle_cpu) / sum(w for _, w in server.idle_cpu) * 100
        lines.append(f"  {server.label:6s} {used:6.1f}%")
    return lines


def _cells(figures: list[float]) -> str:
    return "".join(f"{f'{g:+.1f}%':>9s}" for g in figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="correspondence games")
    parser.add_argument("--tournaments", type=int, default=20, help="running tournaments")
    parser.add_argument("--entrants", type=int, default=16, help="accounts in each tournament")
    parser.add_argument("--accounts", type=int, help="accounts (default: games / 5, at least 20)")
    parser.add_argument(
        "--due", type=int, help="games due within the run on purpose (default: games / 1000)"
    )
    parser.add_argument("--live", type=int, default=200, help="live games (bench.load's)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time a window")
    parser.add_argument("--rounds", type=int, default=3, help="windows per server, alternating")
    parser.add_argument("--db", help="the database to seed (default: a new SQLite file)")
    parser.add_argument("--empty-db", help="the empty server's (with --db; an empty database)")
    parser.add_argument("--seed", type=int, default=52, help="the seeding's random seed")
    parser.add_argument("--out", type=Path, help="write the result here too")
    args = parser.parse_args()
    if bool(args.db) != bool(args.empty_db):
        parser.error("--db and --empty-db go together")
    accounts = args.accounts or max(20, args.games // 5, args.entrants)
    due = min(args.games, args.games // 1000 if args.due is None else args.due)
    load = os.getloadavg()
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="ludoteca-across-"))
    seeded_db = args.db or f"sqlite+aiosqlite:///{folder}/seeded.db"
    empty_db = args.empty_db or f"sqlite+aiosqlite:///{folder}/empty.db"
    print(f"seeding {seeded_db} ({folder})", flush=True)
    span = 30 + args.rounds * 2 * (args.seconds + WINDOW_EXTRA)
    plan = {
        "games": args.games,
        "tournaments": args.tournaments,
        "accounts": accounts,
        "entrants": min(args.entrants, accounts),
        "due": due,
        "due_span": span,
        "seed": args.seed,
    }
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        made = pool.submit(seed_main, seeded_db, plan).result()
    print(f"seeded in {made.seconds:.0f} s; starting the servers", flush=True)
    servers: list[Server] = []
    sharing = (float("nan"), float("nan"))
    try:
        for label, db in (("empty", empty_db), ("seeded", seeded_db)):
            process, url = start_server(db, folder / f"{label}.log")
            servers.append(Server(label, process, url))
        for server in servers:
            settle(server.process.pid, SETTLE)
            server.rss_start = _rss_mb(server.process.pid)
            server.metrics.append((time.monotonic(), scrape(server.url)))
        empty, seeded = servers
        print("round " + HEADER.strip(), flush=True)
        shared = Shared(servers)
        for i in range(args.rounds):
            order = (empty, seeded) if i % 2 == 0 else (seeded, empty)
            for k, server in enumerate(order):
                print(f"{i + 1:5d}", end="", flush=True)
                window(server, order[1 - k], args, 1000 * i + k)
        for server in servers:
            server.metrics.append((time.monotonic(), scrape(server.url)))
        sharing = shared.done()
    finally:
        for server in servers:
            server.process.send_signal(signal.SIGINT)
        for server in servers:
            try:
                server.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.process.kill()
    for made_file in folder.glob("*.db*"):  # (the servers' logs stay)
        made_file.unlink()
    took = time.monotonic() - began
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    commit += " with uncommitted changes" if changed else ""
    header = [
        "# .venv/bin/python -m bench.across_time " + " ".join(sys.argv[1:]),
        f"# {time.strftime('%Y-%m-%d %H:%M %Z')} at {commit} (ludoteca {ludoteca.__version__}), "
        f"{os.cpu_count()} cores, load average before the run {load[0]:.2f} {load[1]:.2f} "
        f"{load[2]:.2f}, after it {' '.join(f'{x:.2f}' for x in os.getloadavg())}; the whole "
        f"run took {took / 60:.1f} minutes",
        f"# databases: {_plain_url(seeded_db)} (seeded), {_plain_url(empty_db)} (empty)",
        f"# this machine is shared: while the rounds ran its cores were busy {sharing[0]:.2f} "
        f"of {os.cpu_count()} on average, {sharing[1]:.2f} of them this run's processes (the "
        f"two servers, their workers, the players), {sharing[0] - sharing[1]:.2f} other "
        "people's work",
    ]
    lines = header + report(args, made, servers)
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


class Shared:
    """How busy the machine's cores were from now to :meth:`done`, and how much of that was
    this run's (the servers' process trees and this process)."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.started = time.monotonic()
        self.busy, self.ours = _machine_busy(), self._ours()

    def _ours(self) -> float:
        return time.process_time() + sum(tree_seconds(s.process.pid) for s in self.servers)

    def done(self) -> tuple[float, float]:
        """The cores busy on average: all, and this run's."""
        wall = time.monotonic() - self.started
        return (_machine_busy() - self.busy) / wall, (self._ours() - self.ours) / wall


def _machine_busy() -> float:
    """The processor seconds all cores have been busy since the machine started (/proc/stat:
    all but idle and waiting for input or output)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICKS


def _plain_url(url: str) -> str:
    """A database URL without its password, its folder or temporary name left aside."""
    return re.sub(r"//[^@/]*@", "//", url.split("///")[0] + ("///..." if "///" in url else ""))


if __name__ == "__main__":
    main()

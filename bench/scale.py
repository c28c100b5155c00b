"""One server process against two, side by side in one run: each behind nginx, on PostgreSQL and
Redis, as ``scripts/cluster`` starts them (a fresh folder each), loaded by ``bench/load.py``'s
players (hot-seat games each moving once a second over its own websocket).

    .venv/bin/python -m bench.scale --games 500,1000 --seconds 20 --out bench/results/scale.txt

Prints, per number of server processes and of games, moves/s, the round-trip p50/p95/p99 and
the CPU each tier used (% of one core: all servers together, PostgreSQL, Redis, nginx, and the
players in this process).
Every process shares this machine's cores with the others (PostgreSQL, Redis, nginx, the
players), so the figures say how the tiers share one machine, not what a machine per tier gives;
the table ends with a model of what the machine's cores allow each process count (:func:`model`),
to set the measured gain of a second process against.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import uvloop

from bench.load import _free_port, run_size

ROOT = Path(__file__).resolve().parent.parent


def cluster(servers: int, folder: str, port: int) -> subprocess.Popen[str]:
    """``scripts/cluster`` with ``servers`` processes, once it says it is running."""
    process = subprocess.Popen(
        [str(ROOT / "scripts" / "cluster")],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "SERVERS": str(servers), "PORT": str(port), "CLUSTER_DIR": folder},
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "Ludoteca is running" in line:  # (after the time stamp)
            return process
    raise RuntimeError(f"scripts/cluster did not start (see {folder})")


def stop(process: subprocess.Popen[str]) -> None:
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="500,1000", help="comma-separated numbers of games")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per size")
    parser.add_argument("--servers", default="1,2", help="comma-separated process counts")
    parser.add_argument(
        "--computer",
        type=int,
        default=None,
        metavar="LEVEL",
        help="games against the computer at this level (default: hot-seat)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=20.0,
        help="seconds to wait after the cluster starts, before the players",
    )
    parser.add_argument("--out", type=Path, help="append the table here too")
    args = parser.parse_args()
    rows: list[tuple[int, dict[str, Any]]] = []
    for servers in (int(x) for x in args.servers.split(",")):
        folder = tempfile.mkdtemp(prefix=f"ludoteca-scale-{servers}-")
        port = _free_port()
        process = cluster(servers, folder, port)
        time.sleep(args.settle)  # the workers load the compiled search after the servers start
        try:
            for games in (int(x) for x in args.games.split(",")):
                row = uvloop.run(
                    run_size(
                        f"http://127.0.0.1:{port}",
                        games,
                        args.seconds,
                        None,
                        games,
                        (process.pid, folder),
                        args.computer,
                    )
                )
                rows.append((servers, row))
                print(_format(servers, row), flush=True)
                time.sleep(2)
        finally:
            stop(process)
    header = "servers  games  moves/s   p50 ms   p95 ms   p99 ms  errors refused   " + " ".join(
        f"{t:>7}" for t in COLUMNS
    )
    table = "\n".join([header, *(_format(s, r) for s, r in rows), *model(rows)])
    print(table)
    if args.out:
        command = "python -m bench.scale " + " ".join(sys.argv[1:])
        with args.out.open("a") as out:
            out.write(f"# {time.strftime('%Y-%m-%d %H:%M')}  {command}\n{table}\n\n")


#: the CPU columns (% of one core over the measured time): each tier, and the players
COLUMNS = ("server", "worker", "postgresql", "redis", "nginx", "players")


def model(rows: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """What this machine's cores allow each process count, from the CPU a move cost at its
    largest size: the servers' event loops (one core each, the moves shared evenly) and the
    machine (every tier and the players on its cores); the lower bound is the capacity."""
    cores = os.cpu_count() or 1
    largest = {servers: row for servers, row in rows}  # (sizes run in increasing order)
    lines = [f"model of this machine's {cores} cores (CPU a move at each count's largest size):"]
    capacity = {}
    for servers, r in sorted(largest.items()):
        rate = r["moves_per_s"]
        if not rate:
            continue
        cpu = {**r["tiers"], "players": r["client_cpu_pct"]}
        server_ms = cpu.get("server", 0.0) * 10 / rate
        other_ms = sum(v for t, v in cpu.items() if t != "server") * 10 / rate
        loops = servers * 1000 / server_ms if server_ms else float("inf")
        machine = cores * 1000 / (server_ms + other_ms)
        capacity[servers] = min(loops, machine)
        lines.append(
            f"  {servers} server(s): a move {server_ms:.2f} ms of the servers' CPU and "
            f"{other_ms:.2f} ms of the other tiers and players; at most {loops:,.0f} moves/s "
            f"by the event loops, {machine:,.0f} by the machine: {capacity[servers]:,.0f}"
        )
    if 1 in capacity and 2 in capacity:
        lines.append(
            f"  two processes against one: the model {capacity[2] / capacity[1]:.2f}x, measured "
            f"{largest[2]['moves_per_s'] / largest[1]['moves_per_s']:.2f}x at their largest size"
        )
    return lines


def _format(servers: int, r: dict[str, Any]) -> str:
    cpu = {**r["tiers"], "players": r["client_cpu_pct"]}
    return (
        f"{servers:7d} {r['games']:6d} {r['moves_per_s']:8.1f} {r['p50_ms']:8.1f} "
        f"{r['p95_ms']:8.1f} {r['p99_ms']:8.1f} {r['errors']:7d} {r['refused']:7d}   "
        + " ".join(f"{cpu.get(t, 0.0):7.0f}" for t in COLUMNS)
    )


if __name__ == "__main__":
    main()

"""Kill the server mid-game, again and again, and check that no acknowledged move is lost.

Starts ``ludoteca serve`` on a throw-away SQLite database (or the database ``--db`` names, a
PostgreSQL one say), opens hot-seat games (Nine Men's Morris, Felli and Morelli in turn) and
plays random legal moves in all of them from several threads through the JSON API. At a random
moment it kills the server with SIGKILL, starts it again on the same database and reads every
game back: each game's stored moves must begin with every move the server acknowledged (answered
200), and hold at most the one move that was on its way when the server died. Then play goes on,
until ``--kills`` kills.

    .venv/bin/python -m bench.kill9 --kills 100 --games 8
    .venv/bin/python -m bench.kill9 --kills 100 --db postgresql+asyncpg://user@host/db

``tests/server/test_server_crash.py`` runs a few kills of it in the suite.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from ludoteca.record import loads

GAMES = ["morris", "felli", "morelli"]


@dataclass
class Report:
    kills: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)  # "game: what went wrong"
    restarts_seconds: list[float] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One ``ludoteca serve`` process on a fixed port and database (``db``, by default a
    SQLite file in ``folder``)."""

    def __init__(self, folder: Path, db: str | None = None) -> None:
        self.port = _free_port()
        self.db = db or f"sqlite+aiosqlite:///{folder / 'games.db'}"
        self.log = folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> float:
        """Start it and wait until it answers; the seconds that took."""
        started = time.monotonic()
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "ludoteca",
                    "serve",
                    "--port",
                    str(self.port),
                    "--workers",
                    "1",
                    "--db",
                    self.db,
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = started + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/lobby", timeout=2).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start (see {self.log})")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _player(
    url: str, game_id: str, token: str, acked: list[str], stop: threading.Event, rng: random.Random
) -> None:
    """Play random legal moves in one game until ``stop`` or the server goes away."""
    with httpx.Client(base_url=url, timeout=10) as http:
        while not stop.is_set():
            try:
                view = http.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
                if view["status"] != "live" or not view["legal"]:
                    return
                move = rng.choice(view["legal"]).split(" ")[0]
                answer = http.post(
                    f"/api/games/{game_id}/actions",
                    json={"token": token, "type": "move", "move": move, "ply": view["ply"]},
                )
            except (httpx.HTTPError, ValueError):
                return  # the server died
            if answer.status_code == 200:
                acked.append(move)
            time.sleep(rng.random() * 0.05)


def soak(
    kills: int, games: int = 4, seed: int = 0, folder: Path | None = None, db: str | None = None
) -> Report:
    """Run ``kills`` kill-and-restart rounds over ``games`` games on the database ``db`` (by
    default a new SQLite file in ``folder``); what was found."""
    rng = random.Random(seed)
    folder = folder or Path(tempfile.mkdtemp(prefix="ludoteca-kill9-"))
    server = Server(folder, db)
    report = Report()
    server.start()
    seats: dict[str, str] = {}
    acked: dict[str, list[str]] = {}
    try:
        while report.kills < kills:
            for game_id in [g for g in seats if _over(server.url, g)]:
                del seats[game_id]
            while len(seats) < games:
                created = httpx.post(
                    server.url + "/api/games",
                    json={"game": GAMES[len(acked) % len(GAMES)], "opponent": "hotseat"},
                ).json()
                seats[created["id"]] = created["tokens"]["white"]
                acked[created["id"]] = []
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=_player,
                    args=(server.url, g, t, acked[g], stop, random.Random(rng.random())),
                )
                for g, t in seats.items()
            ]
            for thread in threads:
                thread.start()
            # kill at a random moment, but only once every game could have moved since the last
            # restart (a slow machine still tests something); at most 20 s more
            before = sum(len(m) for m in acked.values())
            deadline = time.monotonic() + 20
            time.sleep(0.3 + rng.random())
            while (
                sum(len(m) for m in acked.values()) < before + games and time.monotonic() < deadline
            ):
                time.sleep(0.05)
            server.kill()
            report.kills += 1
            stop.set()
            for thread in threads:
                thread.join(30)
            report.restarts_seconds.append(server.start())
            for game_id, moves in acked.items():
                plain = _stored(server.url, game_id)
                if plain[: len(moves)] != moves or len(plain) > len(moves) + 1:
                    report.lost.append(f"{game_id}: acknowledged {moves}, stored {plain}")
                moves[:] = plain  # a move on its way when the server died may have landed
            report.acknowledged = sum(len(m) for m in acked.values())
    finally:
        server.stop()
    return report


def _stored(url: str, game_id: str) -> list[str]:
    """A game's moves as the server's record of it gives them."""
    text = httpx.get(f"{url}/api/games/{game_id}/record").text
    return loads(text).moves


def _over(url: str, game_id: str) -> bool:
    return bool(httpx.get(f"{url}/api/games/{game_id}").json()["status"] != "live")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", help="the database's URL (default: a new SQLite file)")
    args = parser.parse_args()
    report = soak(args.kills, args.games, args.seed, db=args.db)
    restarts = sorted(report.restarts_seconds)
    print(
        f"{report.kills} kills, {report.acknowledged} acknowledged moves, "
        f"{len(report.lost)} games lost moves; restart median "
        f"{restarts[len(restarts) // 2]:.1f} s"
    )
    for line in report.lost:
        print("LOST", line)
    raise SystemExit(1 if report.lost else 0)


if __name__ == "__main__":
    main()

"""``ludoteca db backup`` and ``restore``, on SQLite and PostgreSQL: a backup taken while moves
are being played holds every move acknowledged before it started, and restores into a fresh
database that the server opens (and migrates); a file of the wrong kind is refused with a
sentence, the database left as it was."""

from __future__ import annotations

import asyncio
import random
import secrets
import sqlite3
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludoteca.cli import main
from ludoteca.server.store import Store

from ..support.postgres import database


def fresh(url: str, tmp_path: Path, name: str) -> str:
    """Another fresh, empty database of the same kind as ``url``."""
    if url.startswith("sqlite"):
        return f"sqlite+aiosqlite:///{tmp_path / name}"
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    return database(port, f"t{secrets.token_hex(6)}")


def play(client: TestClient, acked: dict[str, list[str]], stop: threading.Event) -> None:
    """Play random legal moves in hotseat games (a new one when one ends) until ``stop``; each
    move acknowledged is appended to its game's list in ``acked``."""
    rng = random.Random(1)
    while not stop.is_set():
        created = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["tokens"]["white"]
        acked[game_id] = []
        while not stop.is_set():
            view = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
            if view["status"] != "live" or not view["legal"]:
                break
            move = rng.choice(view["legal"]).split(" ")[0]
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json={"token": token, "type": "move", "move": move, "ply": view["ply"]},
            )
            assert answer.status_code == 200, answer.text
            acked[game_id].append(move)


async def stored_moves(url: str) -> dict[str, list[str]]:
    """Every game's moves in a database, opened (and migrated) as the server opens it."""
    store = Store(url)
    try:
        await store.open()
        ids = [row.id for status in ("live", "over") for row in await store.listing(status, 1000)]
        found = {}
        for game_id in ids:
            game = await store.game(game_id)
            assert game is not None
            found[game_id] = game[1]
        return found
    finally:
        await store.close()


def test_a_backup_mid_play_restores_every_acknowledged_move(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url: str = client.app.state.url  # type: ignore[attr-defined]
    acked: dict[str, list[str]] = {}
    stop = threading.Event()
    player = threading.Thread(target=play, args=(client, acked, stop))
    player.start()
    try:
        while sum(map(len, acked.values())) < 20:
            stop.wait(0.02)
        before = {game_id: list(moves) for game_id, moves in list(acked.items())}
        assert main(["db", "backup", str(tmp_path / "games.backup"), "--db", url]) == 0
        during = sum(map(len, acked.values()))
        stop.wait(0.3)  # moves go on after it
    finally:
        stop.set()
        player.join(30)
    assert sum(map(len, acked.values())) > during, "no move was played after the backup"
    target = fresh(url, tmp_path, "restored.db")
    assert main(["db", "restore", str(tmp_path / "games.backup"), "--db", target]) == 0
    restored = asyncio.run(stored_moves(target))
    for game_id, moves in before.items():
        assert restored[game_id][: len(moves)] == moves
    assert "restore" in capsys.readouterr().out


def test_a_file_of_the_wrong_kind_is_refused(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url: str = client.app.state.url  # type: ignore[attr-defined]
    game_id = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"}).json()["id"]
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a backup at all" * 10)
    stranger = tmp_path / "stranger.db"  # a SQLite database, not a Ludoteca one
    with sqlite3.connect(stranger) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    for refused, said in (
        (["restore", str(junk)], "is not a backup of"),
        (["restore", str(stranger)], "is not a backup of"),
        (["restore", str(tmp_path / "missing")], "no backup file"),
        (["backup", str(tmp_path)], "is a folder"),
    ):
        assert main(["db", *refused, "--db", url]) == 2
        assert said in capsys.readouterr().err
    if url.startswith("postgresql"):  # a good backup, but the server is using the database
        assert main(["db", "backup", str(tmp_path / "good.backup"), "--db", url]) == 0
        assert main(["db", "restore", str(tmp_path / "good.backup"), "--db", url]) == 2
        assert "stop the server" in capsys.readouterr().err
    assert client.get(f"/api/games/{game_id}").json()["status"] == "live"  # nothing changed


def test_a_missing_postgresql_program_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("ludoteca.backup._POSTGRES_BINS", tmp_path)
    url = "postgresql+asyncpg://nobody@127.0.0.1:1/none"
    assert main(["db", "backup", str(tmp_path / "x.backup"), "--db", url]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "pg_dump is missing" in line
    assert not (tmp_path / "x.backup").exists()

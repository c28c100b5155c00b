"""The server on PostgreSQL (asyncpg): the same store, migrations and rules as on SQLite.

Runs when PostgreSQL's server programs (``initdb``, ``pg_ctl``) are installed: a throw-away
cluster is created in a temporary folder (as user ``nobody`` when the tests run as root)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludoteca.server import create_app

from . import test_server_api as api
from .conftest import need

INITDB = shutil.which("initdb") or next(
    (str(p) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)),
    None)
need(INITDB, "PostgreSQL's server programs")


@pytest.fixture(scope="module")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("postgres")
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        os.chmod(folder, 0o777)
        for parent in folder.parents:
            if parent == Path("/"):
                break
            os.chmod(parent, os.stat(parent).st_mode | 0o005)
        prefix = ["runuser", "-u", "nobody", "--"]
    pg_ctl = str(Path(str(INITDB)).with_name("pg_ctl"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = folder / "data"
    subprocess.run([*prefix, str(INITDB), "-D", str(data), "-A", "trust", "-U", "ludoteca"],
                   check=True, capture_output=True)
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-w", "-l", str(folder / "log"), "-o",
                    f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    yield f"postgresql+asyncpg://ludoteca@127.0.0.1:{port}/postgres"
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
                   capture_output=True)


def test_games_are_played_and_guarded_on_postgres(postgres: str) -> None:
    with TestClient(create_app(postgres, workers=1)) as client:
        api.test_hot_seat_moves_are_checked_and_stored(client)
        api.test_seats_are_guarded(client)


def test_games_survive_a_restart_on_postgres(postgres: str) -> None:
    with TestClient(create_app(postgres, workers=1)) as client:
        game_id, tokens = api.new(client, game="morris", opponent="hotseat", clock="10+5")
        api.act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
    with TestClient(create_app(postgres, workers=1)) as client:
        state = api.view(client, game_id)
        assert state["moves"] == ["d6"] and state["clock"]["running"] == "black"
        assert state["clock"]["white"] == 600_000  # the first move is not timed
        assert state["clock"]["black"] < 600_000  # Black's clock has run since
        state = api.act(client, game_id, tokens["white"], type="move", move="f4",
                        ply=1).json()
        assert state["moves"] == ["d6", "f4"]

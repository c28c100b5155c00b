"""The server on PostgreSQL (asyncpg): the same store, migrations and rules as on SQLite.

Runs when PostgreSQL's server programs (``initdb``, ``pg_ctl``) are installed: a throw-away
cluster is created in a temporary folder (as user ``nobody`` when the tests run as root)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app

from ..support.need import need
from ..support.postgres import database
from . import test_server_api as api

need("initdb")


@pytest.fixture(scope="module")
def postgres(postgres_port: int) -> str:
    return database(postgres_port, "api")


def test_games_are_played_and_guarded_on_postgres(postgres: str) -> None:
    with TestClient(create_app(Settings(db=postgres, workers=1, warm=False))) as client:
        api.test_hot_seat_moves_are_checked_and_stored(client)
        api.test_seats_are_guarded(client)


def test_games_survive_a_restart_on_postgres(postgres: str) -> None:
    with TestClient(create_app(Settings(db=postgres, workers=1, warm=False))) as client:
        game_id, tokens = api.new(client, game="morris", opponent="hotseat", clock="10+5")
        api.act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
    with TestClient(create_app(Settings(db=postgres, workers=1, warm=False))) as client:
        state = api.view(client, game_id)
        assert state["moves"] == ["d6"] and state["clock"]["running"] == "black"
        assert state["clock"]["white"] == 600_000  # the first move is not timed
        assert state["clock"]["black"] < 600_000  # Black's clock has run since
        state = api.act(client, game_id, tokens["white"], type="move", move="f4", ply=1).json()
        assert state["moves"] == ["d6", "f4"]

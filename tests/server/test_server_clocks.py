"""Clocks as docs/web.md promises: a move made after the flag fell loses on time instead of
being played, and the time the server is down counts against the side to move.  The server's
clock (``now_ms``) is moved forward by the test, not waited for."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app

from ..support.clocks import ServerClock
from ..support.postgres import sqlite_only
from .test_server_api import act, new, url, view


@pytest.fixture
def server_clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    return ServerClock(monkeypatch)


@sqlite_only
def test_a_move_after_the_flag_fell_loses_on_time(
    client: TestClient, server_clock: ServerClock
) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat", clock="1+0")
    act(client, game_id, tokens["white"], type="move", move="d6", ply=0)  # Black's clock runs
    server_clock.ahead = 61_000  # Black's minute is over (the flag timer has not fired yet)
    act(client, game_id, tokens["black"], type="move", move="f4", ply=1)
    state = view(client, game_id)
    assert state["moves"] == ["d6"]  # not played
    assert state["status"] == "over" and state["outcome"]["result"] == "1-0"
    assert "time" in state["outcome"]["termination"]
    assert state["clock"]["black"] == 0


@sqlite_only
def test_a_move_in_time_is_played(client: TestClient, server_clock: ServerClock) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat", clock="1+0")
    act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
    server_clock.ahead = 59_000
    state = act(client, game_id, tokens["black"], type="move", move="f4", ply=1).json()
    assert state["moves"] == ["d6", "f4"] and state["status"] == "live"
    assert 0 < state["clock"]["black"] <= 1_000


def test_downtime_counts_against_the_side_to_move(
    tmp_path: Path, server_clock: ServerClock
) -> None:
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        game_id, tokens = new(client, game="morris", opponent="hotseat", clock="1+0")
        act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
        before = view(client, game_id)["clock"]
    assert before["running"] == "black" and before["black"] > 59_000
    server_clock.ahead = 40_000  # the server is down for 40 s
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        clock = view(client, game_id)["clock"]
        assert clock["running"] == "black" and clock["white"] == 60_000
        assert 15_000 < clock["black"] <= 20_000  # the 40 s were Black's
        server_clock.ahead = 40_000 + 61_000  # and the flag falls at the usual time
        act(client, game_id, tokens["black"], type="move", move="f4", ply=1)
        assert view(client, game_id)["outcome"]["result"] == "1-0"

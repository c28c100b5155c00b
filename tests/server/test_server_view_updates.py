"""Following a game by its websocket updates (docs/web.md): each update applied to the view
before it gives the server's whole view, and applying it again, or to the newer view that
already holds it, changes nothing (``views.apply`` is the reference a page follows)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.server.play.hub import CROWD_DELAY
from ludoteca.server.play.views import apply
from ludoteca.server.schemas import GameView

from ..support.postgres import sqlite_only
from .test_server_api import act, new, wait_for
from .test_server_api import view as http_view


@sqlite_only
def test_updates_give_the_whole_view_and_applying_again_changes_nothing(
    client: TestClient,
) -> None:
    game_id, tokens = new(client, game="felli", opponent="hotseat")
    views: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens["white"]})
        view = ws.receive_json()
        assert view["type"] == "state"
        for _ in range(8):  # each move is the first legal one (a capture when one is due)
            ws.send_json({"type": "move", "move": view["legal"][0].split()[0], "ply": view["ply"]})
            view, update = _follow(ws, view)
            assert update["type"] == "update"
            views.append(view)
            updates.append(update)
            # the view followed is the server's whole view for this seat
            whole = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens["white"]})
            expected = {**whole.json(), "type": "state"}
            assert {k: view[k] for k in ("moves", "pieces", "ply", "turn", "legal")} == {
                k: expected[k] for k in ("moves", "pieces", "ply", "turn", "legal")
            }
    for i, update in enumerate(updates):
        assert apply(views[i], update) == views[i]  # applied twice
    assert len({len(v["moves"]) for v in views}) == 8  # every update moved the game on


@pytest.mark.parametrize(
    ("game", "extra"),
    [
        ("morris", {"clock": "5+3"}),
        ("felli", {"rules": "felli:mullah"}),
        ("morelli", {"rules": "morelli-9"}),
    ],
)
def test_every_view_a_page_follows_is_a_valid_game_view(
    client: TestClient, game: str, extra: dict[str, Any]
) -> None:
    """The whole view and every view a page follows by applying updates, to the game's end,
    pass the schema's own validation (the seat to move's legal moves, a clock, a finished
    game's outcome), in each game, and are exactly the JSON the schema writes for them (the
    server makes them as JSON values, not through the models)."""
    rng = random.Random(game)
    game_id, tokens = new(client, game=game, opponent="hotseat", **extra)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens["white"]})
        view = ws.receive_json()
        _exact(view)
        for _ in range(300):
            if view["status"] != "live":
                break
            move = rng.choice(view["legal"]).split()[0]
            ws.send_json({"type": "move", "move": move, "ply": view["ply"]})
            view, _ = _follow(ws, view)
        else:
            ws.send_json({"type": "resign", "token": tokens["white"]})
            view, _ = _follow(ws, view)
    assert view["status"] == "over" and view["outcome"]["text"]
    for colour in ("white", "black"):
        whole = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens[colour]})
        GameView.model_validate(whole.json())
        # the last view followed is the whole view of the finished game (but for its reader)
        seen = {**whole.json(), "type": "state", "you": view["you"], "watchers": view["watchers"]}
        assert seen == view


def _follow(ws: Any, view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply the messages that come until the one answering the move or resignation just sent
    (the ply moved on, or the game ended), checking each view on the way: others may come
    first, such as the count of watchers a second after connecting (with the seat's legal
    moves and the running clock); the view then, and that last message."""
    ply = view["ply"]
    while True:
        message = ws.receive_json()
        view = apply(view, message)
        _exact(view)
        if view["ply"] != ply or view["status"] != "live":
            return view, message


def _exact(view: dict[str, Any]) -> None:
    """The view passes the schema's validation and is what the schema writes as JSON."""
    assert GameView.model_validate(view).model_dump(mode="json") == view


@sqlite_only
def test_the_watchers_are_told_how_many_they_are_once_for_several_comings_and_goings(
    client: TestClient,
) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    path = f"/ws/games/{game_id}"
    with client.websocket_connect(path) as first:
        first.send_json({"type": "hello"})
        assert first.receive_json()["watchers"] == 1
        with client.websocket_connect(path) as second, client.websocket_connect(path) as third:
            for count, ws in ((2, second), (3, third)):
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["watchers"] == count  # counting itself, at once
            # the two arrivals make one update, within CROWD_DELAY (not one each, at once)
            update = first.receive_json()
            assert update == {"type": "update", "watchers": 3}
        # two left; a move played before the count is due carries it, and nothing follows
        wait_for(client, game_id, lambda whole: whole["watchers"] == 1)
        move = http_view(client, game_id, tokens["white"])["legal"][0].split()[0]
        assert act(client, game_id, tokens["white"], type="move", move=move, ply=0).is_success
        update = first.receive_json()
        assert update["ply"] == 1 and update["watchers"] == 1
        # the count that was due (within CROWD_DELAY) has been sent now, or found nothing new
        live = client.app.state.services.hub.games[game_id]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10 * CROWD_DELAY
        while live.crowd is not None and time.monotonic() < deadline:
            time.sleep(0.01)  # polled: the hub's timer runs in the server's event loop
        assert live.crowd is None
        first.send_json({"type": "hello"})  # the next message is the answer: no update came
        assert first.receive_json()["type"] == "state"

"""Following a game by its websocket updates (docs/web.md): each update applied to the view
before it gives the server's whole view, and applying it again, or to the newer view that
already holds it, changes nothing (``views.apply`` is the reference a page follows)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ludoteca.server.play.views import apply

from .test_server_api import new


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
            update = ws.receive_json()
            assert update["type"] == "update"
            view = apply(view, update)
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

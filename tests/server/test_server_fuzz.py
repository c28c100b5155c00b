"""Hostile input on every surface of the web server: random requests to every route and random
websocket messages never get a 500, never close the connection where the docs say it stays
open, and never change a game held by someone else.

The number of examples is ``LUDOTECA_FUZZ_EXAMPLES`` (default 60 per test); the operator's longer
run is ``LUDOTECA_FUZZ_EXAMPLES=5000 .venv/bin/python -m pytest tests/server/test_server_fuzz.py``.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ludoteca.server import Settings, create_app

from ..support.live_server import serving

EXAMPLES = int(os.environ.get("LUDOTECA_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

ROUTES = [
    "/api/games",
    "/api/games/{id}",
    "/api/games/{id}/actions",
    "/api/games/{id}/hint",
    "/api/games/{id}/report",
    "/api/games/{id}/record",
    "/api/games/{id}/picture.svg",
    "/api/records/replay",
    "/api/levels",
    "/api/catalogue",
    "/api/lobby",
    "/api/puzzles/sets",
    "/api/puzzles/next",
    "/api/puzzles/daily",
    "/api/puzzles/me",
    "/api/puzzles/runs",
    "/api/puzzles/runs/{junk}",
    "/api/puzzles/own",
    "/api/puzzles/{id}",
    "/api/puzzles/{junk}/answer",
    "/api/puzzles/{junk}/solution",
    "/game/{id}",
    "/puzzles/{junk}",
    "/review",
    "/ws/games/{id}",
    "/static/../../etc/passwd",
    "/{junk}",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
intent_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "move",
                "resign",
                "offer_draw",
                "accept_draw",
                "undo",
                "accept_undo",
                "rematch",
                "cancel",
                "hint",
                "review",
                "hello",
                "nonsense",
            ]
        )
    },
    optional={
        "token": st.text(max_size=40) | st.none(),
        "move": st.text(max_size=20) | json_values,
        "ply": st.integers() | json_values,
    },
)
bodies = (
    json_values.map(json.dumps)
    | intent_like.map(json.dumps)
    | st.binary(max_size=200).map(lambda b: b.decode("latin-1"))
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """A server with one hot-seat game in play (two moves) whose token the fuzzer never has."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(
        Settings(
            db=f"sqlite+aiosqlite:///{folder / 'games.db'}",
            workers=1,
            warm=False,
            games_per_minute=10_000,
        )
    )
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"})
        game_id, token = created.json()["id"], created.json()["tokens"]["white"]
        for ply, move in enumerate(["d2", "d6"]):
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json={"token": token, "type": "move", "move": move, "ply": ply},
            )
            assert answer.status_code == 200
        yield client, game_id


def _standing(client: TestClient, game_id: str) -> dict[str, Any]:
    view: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return {
        k: view[k]
        for k in ("moves", "status", "pieces", "draw_offer", "undo_offer", "players", "rematch")
    }


@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    route=st.sampled_from(ROUTES),
    real_id=st.booleans(),
    junk=st.text(min_size=1, max_size=40),
    body=bodies,
    token=st.none() | st.text(max_size=60),
    query=st.dictionaries(
        st.sampled_from(["game", "rules", "flipped", "x"]), st.text(max_size=30), max_size=3
    ),
)
def test_random_requests_get_no_500_and_change_no_game(
    served: tuple[TestClient, str],
    method: str,
    route: str,
    real_id: bool,
    junk: str,
    body: str,
    token: str | None,
    query: dict[str, str],
) -> None:
    client, game_id = served
    before = _standing(client, game_id)
    junk = quote(junk, safe="/.")
    path = route.replace("{id}", game_id if real_id else junk).replace("{junk}", junk)
    headers = {"content-type": "application/json"}
    if token is not None and token.isascii() and token.isprintable():
        headers["x-seat-token"] = token
    answer = client.request(method, path, content=body.encode(), headers=headers, params=query)
    assert answer.status_code < 500, (method, path, body, answer.text)
    assert _standing(client, game_id) == before


@FUZZ
@example(messages=["[" * 1100, "{" * 5000 + "}" * 5000, '{"type": "move", "ply": ' + "9" * 5000])
@given(messages=st.lists(bodies | st.text(max_size=300), min_size=1, max_size=6))
def test_random_websocket_messages_are_refused_and_the_socket_stays_open(
    served: tuple[TestClient, str], messages: list[str]
) -> None:
    client, game_id = served
    before = _standing(client, game_id)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        for message in messages:
            ws.send_text(message)
        ws.send_text(json.dumps({"type": "hello"}))
        while (answer := ws.receive_json())["type"] != "state":
            assert answer["type"] in ("error", "update"), answer
        assert answer["moves"] == before["moves"] and answer["you"] == []
    assert _standing(client, game_id) == before


TRAVERSALS = [
    "/static/../../../../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/static/../app.py",
    "/static/..%2fapp.py",
    "/static//etc/passwd",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_a_path_out_of_the_static_folder_is_not_found(path: str, tmp_path: Path) -> None:
    """Sent byte for byte on a socket (an HTTP client would tidy the ``..`` away first): 404, and
    nothing of the file outside the folder (the system's passwords, the server's own code)."""
    app = create_app(Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", warm=False))
    with serving(app) as port, socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        raw.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    status = answer.split(b"\r\n", 1)[0]
    assert status.startswith(b"HTTP/1.1 404"), status
    assert b"root:" not in answer and b"def create_app" not in answer

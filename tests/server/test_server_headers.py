"""Every HTTP response carries the security headers docs/web.md lists (a content security
policy without inline script, ``nosniff``, no framing, no referrer): pages, the API, static
files, errors and refusals alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .test_server_api import new

REQUESTS = [
    ("GET", "/"),
    ("GET", "/review"),
    ("GET", "/game/{id}"),
    ("GET", "/api/lobby"),
    ("GET", "/api/games/{id}"),
    ("GET", "/api/games/{id}/record"),
    ("GET", "/api/games/{id}/picture.svg"),
    ("GET", "/static/style.css"),
    ("GET", "/static/no-such-file.js"),
    ("GET", "/no/such/page"),
    ("GET", "/api/games/nosuchgame"),
    ("POST", "/api/games"),  # no body: refused
    ("DELETE", "/api/lobby"),  # wrong method
    ("GET", "/healthz"),
]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The headers are the app's, whatever its database: SQLite only."""
    return f"sqlite+aiosqlite:///{tmp_path}/games.db"


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    game_id, _ = new(client, game="morris", opponent="hotseat")
    statuses = set()
    for method, path in REQUESTS:
        answer = client.request(method, path.replace("{id}", game_id))
        statuses.add(answer.status_code // 100)
        headers = answer.headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "'unsafe-inline'" not in policy.split("script-src", 1)[-1].split(";")[0], path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["referrer-policy"] == "no-referrer", path
    assert statuses == {2, 4}  # successes and refusals both checked

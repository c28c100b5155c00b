"""The computer answers a draw offer at once: it accepts when it is not ahead (level or
behind) and declines when it stands better (docs/web.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .test_server_api import act, new, url

# Felli positions with White (the person) to move: the computer (Black) far ahead, level, and
# far behind (rows of 3, 3, 1, 3 and 3 points)
AHEAD = "bbb/bbb/./.../w.. w 0 0"
BEHIND = "b../..././www/www w 0 0"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The answer is the game's, whatever its database: SQLite only."""
    return url(tmp_path)


@pytest.mark.parametrize(("position", "accepted"), [(AHEAD, False), (None, True), (BEHIND, True)])
def test_the_computer_accepts_a_draw_only_when_not_ahead(
    client: TestClient, position: str | None, accepted: bool
) -> None:
    extra = {"position": position} if position else {}
    game_id, tokens = new(client, game="felli", opponent="computer", colour="white", **extra)
    answer = act(client, game_id, tokens["white"], type="offer_draw")
    state = client.get(f"/api/games/{game_id}").json()
    if accepted:
        assert answer.status_code == 200
        assert state["status"] == "over" and state["outcome"]["result"] == "1/2-1/2"
    else:
        assert answer.status_code == 409 and "declines" in answer.json()["error"]
        assert state["status"] == "live" and state["outcome"] is None

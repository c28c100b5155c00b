"""Challenges as docs/web.md describes them, on SQLite and PostgreSQL: sent to a named player,
declined with a reason (the challenger told: its lobby's list and its event stream), accepted
(the game opened with the challenge's options, both seats the accounts'), expired on the
hub's clock, and every refusal changing nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from ludoteca import record
from ludoteca.server.app import create_app
from ludoteca.server.settings import Settings

from .test_server_community import Person, acting, sign_up

START = 1_800_000_000_000  # the hub's clock at the start, epoch ms
HOUR = 3_600_000


@pytest.fixture
def clock() -> list[int]:
    """The hub's clock (epoch ms): a test moves it on by changing ``clock[0]``."""
    return [START]


@pytest.fixture
def client(database_url: str, clock: list[int]) -> Iterator[TestClient]:
    app = create_app(Settings(db=database_url, workers=1, warm=False), clock=lambda: clock[0])
    app.state.url = database_url
    with TestClient(app) as test_client:
        yield test_client


def execute(client: TestClient, sql: str) -> None:
    """Run a statement straight on the app's database (committed)."""

    async def run() -> None:
        engine = create_async_engine(client.app.state.url)  # type: ignore[attr-defined]
        try:
            async with engine.begin() as connection:
                await connection.execute(text(sql))
        finally:
            await engine.dispose()

    asyncio.run(run())


def challenge(client: TestClient, by: Person, to: str, status: int = 201, **body: Any) -> Any:
    with acting(client, by) as csrf:
        answer = client.post(f"/api/challenge/{to}", json={"game": "morris", **body}, headers=csrf)
    assert answer.status_code == status, answer.text
    return answer.json()


def mine(client: TestClient, person: Person) -> Any:
    with acting(client, person):
        return client.get("/api/challenges").json()


def test_a_challenge_declined_with_its_reason_then_another_accepted(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    first = challenge(client, ann, "bob", rules="morris", clock="5+3", rated=True, colour="white")
    assert first["challenger"] == "Ann" and first["challenged"] == "Bob"
    assert first["status"] == "open" and first["expires"] == START + 24 * HOUR
    assert [c["id"] for c in mine(client, bob)["incoming"]] == [first["id"]]
    assert [c["id"] for c in mine(client, ann)["outgoing"]] == [first["id"]]
    with acting(client, bob) as csrf:
        answer = client.post(
            f"/api/challenge/{first['id']}/decline", json={"reason": "timeControl"}, headers=csrf
        )
        assert answer.status_code == 200, answer.text
    reasons = mine(client, bob)["reasons"]  # the reasons to decline with, in words
    assert reasons[0] == {"key": "generic", "text": "I'm not accepting challenges right now."}
    assert "timeControl" in [r["key"] for r in reasons]
    told = mine(client, ann)["outgoing"][0]  # the challenger's lobby sees it, with the reason
    assert told["status"] == "declined" and told["reason"] == "timeControl"
    assert "time control" in told["reason_text"]
    assert mine(client, bob)["incoming"] == []

    second = challenge(client, ann, "Bob", rules="morris", clock="3d", colour="black")
    assert second["expires"] == START + 7 * 24 * HOUR
    with acting(client, bob) as csrf:
        answer = client.post(f"/api/challenge/{second['id']}/accept", headers=csrf)
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["game"]
        game = client.get(f"/api/games/{game_id}").json()
    players = game["players"]
    assert players["white"]["account"] == "Bob" and players["black"]["account"] == "Ann"
    assert game["rules"] == "morris" and game["rated"] is False
    sent = {c["id"]: c for c in mine(client, ann)["outgoing"]}
    assert sent[second["id"]]["game_id"] == game_id and sent[second["id"]]["status"] == "accepted"
    with acting(client, bob) as csrf:  # accepted once only
        again = client.post(f"/api/challenge/{second['id']}/accept", headers=csrf)
        assert again.status_code == 404


def test_an_open_challenge_expires_and_the_challenger_may_cancel(
    client: TestClient, clock: list[int]
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    live = challenge(client, ann, "Bob", clock="5+0")
    clock[0] += 24 * HOUR - 1
    assert mine(client, bob)["incoming"][0]["id"] == live["id"]
    clock[0] += 1
    assert mine(client, bob)["incoming"] == []
    assert mine(client, ann)["outgoing"][0]["status"] == "expired"
    with acting(client, bob) as csrf:
        assert client.post(f"/api/challenge/{live['id']}/accept", headers=csrf).status_code == 404
    again = challenge(client, ann, "Bob", clock="5+0")  # the pair is free again
    with acting(client, bob) as csrf:  # only the challenger cancels
        assert client.post(f"/api/challenge/{again['id']}/cancel", headers=csrf).status_code == 404
    with acting(client, ann) as csrf:
        assert client.post(f"/api/challenge/{again['id']}/cancel", headers=csrf).status_code == 200
    assert mine(client, bob)["incoming"] == []


def test_refused_challenges_change_nothing(client: TestClient) -> None:
    ann, bob, cid = sign_up(client, "Ann"), sign_up(client, "Bob"), sign_up(client, "Cid")
    assert "yourself" in challenge(client, ann, "ann", 400)["error"]
    assert challenge(client, ann, "nobody", 404)["error"]
    assert challenge(client, ann, "Bob", 400, game="chess")["error"]
    assert challenge(client, ann, "Bob", 400, clock="soon")["error"]
    with acting(client, None):
        assert client.post("/api/challenge/Bob", json={"game": "morris"}).status_code == 401
    with acting(client, bob) as csrf:
        assert (
            client.post("/api/moderation/blocks", json={"player": "Ann"}, headers=csrf).status_code
            == 200
        )
    assert challenge(client, ann, "Bob", 403)["error"]
    assert challenge(client, bob, "Ann", 403)["error"]
    challenge(client, ann, "Cid")
    assert challenge(client, ann, "Cid", 409)["error"]  # one open a pair
    execute(
        client,
        "INSERT INTO restrictions (user_id, closed_until) SELECT id, '2999-01-01' FROM users"
        " WHERE name = 'Cid'",
    )
    assert challenge(client, cid, "Ann", 403)["error"]  # from a closed account
    assert mine(client, ann)["incoming"] == [] and len(mine(client, cid)["incoming"]) == 1


def test_at_most_twenty_open_challenges(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ludoteca.server.community import challenges

    monkeypatch.setattr(challenges, "OUTGOING", 2)
    ann = sign_up(client, "Ann")
    for name in ("Bob", "Cid", "Dan"):
        sign_up(client, name)
    challenge(client, ann, "Bob")
    challenge(client, ann, "Cid")
    assert "2" in challenge(client, ann, "Dan", 429)["error"]
    assert len(mine(client, ann)["outgoing"]) == 2


def test_a_bot_account_is_marked_wherever_its_name_shows(client: TestClient) -> None:
    """The views that name a player say whether it is a bot: the profile, the game's seats,
    the your-turn list, the lobby's games, the finished games (and the challenge itself)."""
    ann, robo = sign_up(client, "Ann"), sign_up(client, "Robo")
    with acting(client, robo) as csrf:
        upgraded = client.post("/api/bot/account/upgrade", headers=csrf)
        assert upgraded.status_code == 200, upgraded.text
    bot = {"Authorization": f"Bearer {upgraded.json()['token']}"}
    with acting(client, robo) as csrf:  # its seek in the lobby
        seek = {"game": "morris", "clock": "5+0"}
        assert client.post("/api/seeks", json=seek, headers=csrf).status_code == 201
        [offered] = client.get("/api/seeks").json()
        assert offered["player"] == "Robo" and offered["bot"] is True
    sent = challenge(client, ann, "Robo", clock="3d", colour="white")
    assert sent["challenged_bot"] is True and sent["challenger_bot"] is False
    answer = client.post(f"/api/challenge/{sent['id']}/accept", headers=bot)
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["game"]
    with acting(client, ann) as csrf:
        assert client.get("/api/players/Robo").json()["bot"] is True
        assert client.get("/api/players/Ann").json()["bot"] is False
        players = client.get(f"/api/games/{game_id}").json()["players"]
        assert (players["white"]["bot"], players["black"]["bot"]) == (False, True)
        [waiting] = client.get("/api/yourturn").json()["games"]
        assert waiting["opponent"] == "Robo" and waiting["opponent_bot"] is True
        state = record.loads(client.get(f"/api/games/{game_id}/record").text).state
        move = {"type": "move", "move": str(next(iter(state.legal_moves))), "ply": state.ply}
        moved = client.post(f"/api/games/{game_id}/actions", json=move, headers=csrf)
        assert moved.status_code == 200, moved.text
        [listed] = [g for g in client.get("/api/lobby").json()["live"] if g["id"] == game_id]
        assert (listed["white_bot"], listed["black_bot"]) == (False, True)
        resign = {"type": "resign", "ply": state.ply + 1}
        resigned = client.post(f"/api/games/{game_id}/actions", json=resign, headers=csrf)
        assert resigned.status_code == 200, resigned.text
        [done] = client.get("/api/finished", params={"player": "Ann"}).json()["games"]
        assert (done["white"]["bot"], done["black"]["bot"]) == (False, True)
        assert client.get("/api/players/Ann").json()["games"][0]["black"]["bot"] is True

"""Accounts, ratings, profiles, seeks and chat through the API, on SQLite and on PostgreSQL:
sessions and CSRF, throttled sign-in, one account never acting for another, Glicko-2 ratings
settled when a rated game ends (checked against a second implementation)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from ludoteca.server.deps import COOKIE
from ludoteca.server.schemas import ServerMessage

from ..support import glicko2_reference
from ..support.postgres import database, sqlite_only


def query(client: TestClient, sql: str) -> list[tuple[Any, ...]]:
    """Rows read straight from the app's database (its own connection)."""

    async def read() -> list[tuple[Any, ...]]:
        engine = create_async_engine(client.app.state.url)  # type: ignore[attr-defined]
        try:
            async with engine.connect() as connection:
                return [tuple(row) for row in await connection.execute(text(sql))]
        finally:
            await engine.dispose()

    return asyncio.run(read())


@dataclass
class Person:
    name: str
    password: str
    cookie: str
    csrf: str


@contextmanager
def acting(client: TestClient, person: Person | None) -> Iterator[dict[str, str]]:
    """Requests made in the block carry ``person``'s cookie; yields their CSRF header."""
    client.cookies.clear()
    if person is not None:
        client.cookies.set(COOKIE, person.cookie)
    yield {"X-CSRF-Token": person.csrf} if person else {}
    client.cookies.clear()


def sign_up(
    client: TestClient,
    name: str,
    password: str = "correct horse",
    claims: list[dict[str, str]] | None = None,
) -> Person:
    client.cookies.clear()
    answer = client.post(
        "/api/signup", json={"name": name, "password": password, "claims": claims or []}
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.cookies.get(COOKIE)
    assert cookie
    client.cookies.clear()
    return Person(name, password, cookie, answer.json()["csrf"])


def test_accounts_and_sessions(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client.cookies.clear()
    answer = client.post("/api/signup", json={"name": "Ann", "password": "s3cret-pass"})
    assert answer.status_code == 201
    header = answer.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    ann = Person("Ann", "s3cret-pass", answer.cookies[COOKIE], answer.json()["csrf"])
    with acting(client, ann):
        assert client.get("/api/me").json() == {"name": "Ann", "csrf": ann.csrf}
    # the name is taken whatever its case; the password is never stored or logged in clear
    assert client.post("/api/signup", json={"name": "ann", "password": "x" * 8}).status_code == 409
    rows = query(client, "SELECT * FROM users") + query(client, "SELECT * FROM sessions")
    assert rows[0][3].startswith("$argon2id$")  # users.password
    assert not any("s3cret-pass" in str(value) for row in rows for value in row)
    assert "s3cret-pass" not in caplog.text
    # sign out, in again; a wrong password is refused
    with acting(client, ann) as csrf:
        assert client.post("/api/logout", headers=csrf).status_code == 200
        assert client.get("/api/me").json()["name"] is None  # the session is gone
    assert (
        client.post("/api/login", json={"name": "ann", "password": "nope-nope"}).status_code == 401
    )
    answer = client.post("/api/login", json={"name": "ANN", "password": "s3cret-pass"})
    assert answer.status_code == 200 and answer.json()["name"] == "Ann"
    ann = Person("Ann", "s3cret-pass", answer.cookies[COOKIE], answer.json()["csrf"])
    client.cookies.clear()  # another browser
    other = client.post("/api/login", json={"name": "Ann", "password": "s3cret-pass"})
    elsewhere = Person("Ann", "", other.cookies[COOKIE], other.json()["csrf"])
    # a password change asks for the old one and ends the other sessions
    with acting(client, ann) as csrf:
        assert (
            client.post(
                "/api/password", headers=csrf, json={"old": "wrong-one", "new": "n3w-password"}
            ).status_code
            == 403
        )
        assert (
            client.post(
                "/api/password", headers=csrf, json={"old": "s3cret-pass", "new": "n3w-password"}
            ).status_code
            == 200
        )
        assert client.get("/api/me").json()["name"] == "Ann"
    with acting(client, elsewhere):
        assert client.get("/api/me").json()["name"] is None
    assert (
        client.post("/api/login", json={"name": "Ann", "password": "n3w-password"}).status_code
        == 200
    )


#: names a sign-up refuses: too short or long, a leading digit, a space, markup, a bidi
#: override, a letter outside ASCII, the reserved names (in any case), a dot
BAD_NAMES = [
    "ab",
    "a" * 21,
    "1abc",
    "ad min",
    "<script>",
    "ann\u202e",
    "émile",
    "admin",
    "Root",
    "computer",
    "a.b",
]


def test_usernames_are_checked(client: TestClient) -> None:
    """Each of :data:`BAD_NAMES` is refused (400, a sentence about the username) and makes no
    account (one server for them all)."""
    answers = {
        name: client.post("/api/signup", json={"name": name, "password": "long enough"})
        for name in BAD_NAMES
    }
    accepted = {name: a.status_code for name, a in answers.items() if a.status_code != 400}
    assert not accepted, accepted
    assert all("username" in a.json()["error"] for a in answers.values())
    for name in BAD_NAMES:  # (a refused or throttled sign-in alike: no account)
        signed = client.post("/api/login", json={"name": name, "password": "long enough"})
        assert signed.status_code != 200, name


def test_passwords_are_checked(client: TestClient) -> None:
    for password in ("short", "x" * 129):
        assert (
            client.post("/api/signup", json={"name": "Bea", "password": password}).status_code
            == 400
        )


def test_sign_in_is_throttled(client: TestClient) -> None:
    sign_up(client, "Cleo", "the right one")
    for _ in range(5):
        assert (
            client.post("/api/login", json={"name": "Cleo", "password": "guess-guess"}).status_code
            == 401
        )
    # now even the right password waits: the name is throttled
    answer = client.post("/api/login", json={"name": "cleo", "password": "the right one"})
    assert answer.status_code == 429


@sqlite_only
def test_a_cookie_request_needs_the_csrf_token(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    body = {"game": "morris", "opponent": "hotseat"}
    with acting(client, ann) as csrf:
        assert client.post("/api/games", json=body).status_code == 403
        assert (
            client.post("/api/games", json=body, headers={"X-CSRF-Token": "forged"}).status_code
            == 403
        )
        assert client.post("/api/logout").status_code == 403
        assert client.get("/api/me").json()["name"] == "Ann"  # nothing changed
        assert (
            client.post(
                "/api/games", json=body, headers={**csrf, "Origin": "https://evil.example"}
            ).status_code
            == 403
        )
        assert client.post("/api/games", json=body, headers=csrf).status_code == 201
    assert client.get("/api/lobby").status_code == 200


def post_seek(client: TestClient, person: Person, **body: Any) -> str:
    with acting(client, person) as csrf:
        answer = client.post("/api/seeks", json={"game": "morris", **body}, headers=csrf)
        assert answer.status_code == 201, answer.text
        seek_id: str = answer.json()["id"]
        client.get("/api/seeks/mine")  # the poster's lobby asks: the seek is on offer
    return seek_id


def test_a_rated_game_settles_both_ratings(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    seek = post_seek(client, ann, rules="morris", clock="5+0", rated=True, colour="white")
    offered = client.get("/api/seeks").json()
    assert [(s["id"], s["player"], s["rating"], s["rated"]) for s in offered] == [
        (seek, "Ann", 1500, True)
    ]
    with acting(client, bob) as csrf:
        assert client.post(f"/api/seeks/{seek}/accept", headers=csrf).status_code == 201
    with acting(client, ann) as csrf:
        # Ann's lobby learns the game from her seek
        game_id = next(
            s["game_id"] for s in client.get("/api/seeks/mine").json() if s["id"] == seek
        )
        assert game_id
        view = client.get(f"/api/games/{game_id}").json()  # her seat is her account's
        assert view["you"] == ["white"] and view["rated"] and view["status"] == "live"
        assert (
            client.post(
                f"/api/games/{game_id}/actions",
                headers=csrf,
                json={"type": "move", "move": "d6", "ply": 0},
            ).status_code
            == 200
        )
    with acting(client, bob) as csrf:
        assert client.get(f"/api/games/{game_id}").json()["you"] == ["black"]
        assert (
            client.post(
                f"/api/games/{game_id}/actions", headers=csrf, json={"type": "resign"}
            ).status_code
            == 200
        )
    # both ratings moved as Glicko-2 says (a second implementation), in the game's category
    win = glicko2_reference.rate(1500, 350, 0.06, [(1500, 350, 1.0)])
    loss = glicko2_reference.rate(1500, 350, 0.06, [(1500, 350, 0.0)])
    ratings = client.get(f"/api/games/{game_id}/ratings").json()
    assert ratings["category"] == "blitz"
    assert ratings["white"]["rating"] == round(win[0])
    assert ratings["white"]["change"] == round(win[0] - 1500)
    assert ratings["black"]["rating"] == round(loss[0])
    for name, expected in (("Ann", win), ("Bob", loss)):
        profile = client.get(f"/api/players/{name.lower()}").json()
        (rating,) = profile["ratings"]
        assert (rating["game"], rating["category"], rating["games"]) == ("morris", "blitz", 1)
        assert rating["rating"] == round(expected[0])
        assert rating["deviation"] == round(expected[1]) and rating["provisional"]
        assert [h["game_id"] for h in profile["history"]] == [game_id]
        assert profile["games"][0]["id"] == game_id
        wins = 1 if name == "Ann" else 0
        assert profile["counts"] == {"wins": wins, "draws": 0, "losses": 1 - wins}
    # the finished games list finds it; the record names both players
    found = client.get("/api/finished", params={"player": "bob", "result": "1-0"}).json()
    assert [g["id"] for g in found["games"]] == [game_id]
    assert (
        client.get("/api/finished", params={"player": "bob", "result": "0-1"}).json()["games"] == []
    )
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[White "Ann"]' in record and '[Black "Bob"]' in record
    # a new site's leaderboard is not empty: provisional ratings are listed, marked
    board = client.get("/api/leaderboard", params={"game": "morris", "category": "blitz"}).json()
    assert [(entry["name"], entry["provisional"]) for entry in board] == [
        ("Ann", True),
        ("Bob", True),
    ]


def test_quick_pairing_matches_compatible_seeks(client: TestClient) -> None:
    ann, bob, cleo = sign_up(client, "Ann"), sign_up(client, "Bob"), sign_up(client, "Cleo")
    with acting(client, ann) as csrf:
        first = client.post(
            "/api/seeks/quick", headers=csrf, json={"game": "felli", "clock": "10+0"}
        ).json()
        assert set(first) == {"seek"}
        client.get("/api/seeks/mine")
    with acting(client, cleo) as csrf:  # another clock: no match, a seek of her own
        assert set(
            client.post(
                "/api/seeks/quick", headers=csrf, json={"game": "felli", "clock": "5+0"}
            ).json()
        ) == {"seek"}
    with acting(client, bob) as csrf:  # out of Bob's range: no match
        assert set(
            client.post(
                "/api/seeks/quick",
                headers=csrf,
                json={"game": "felli", "clock": "10+0", "min_rating": 1600},
            ).json()
        ) == {"seek"}
    with acting(client, bob) as csrf:
        paired = client.post(
            "/api/seeks/quick", headers=csrf, json={"game": "felli", "clock": "10+0"}
        ).json()
        assert set(paired) == {"game"}
        assert client.get(f"/api/games/{paired['game']}").json()["status"] == "live"
    with acting(client, ann):
        assert any(s["game_id"] == paired["game"] for s in client.get("/api/seeks/mine").json())


def test_one_account_cannot_act_for_another(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    with acting(client, ann) as csrf:
        answer = client.post(
            "/api/games", headers=csrf, json={"game": "morris", "opponent": "online", "rated": True}
        )
        game_id = answer.json()["id"]
    seek = post_seek(client, ann, rules="morris")
    with acting(client, bob) as csrf:
        # Bob holds no seat of Ann's waiting game: he cannot move, resign or cancel it
        view = client.get(f"/api/games/{game_id}").json()
        assert view["you"] == [] and view["legal"] == []
        for intent in (
            {"type": "move", "move": "d6", "ply": 0},
            {"type": "cancel"},
            {"type": "resign"},
        ):
            assert (
                client.post(f"/api/games/{game_id}/actions", headers=csrf, json=intent).status_code
                == 403
            )
        assert client.delete(f"/api/seeks/{seek}", headers=csrf).status_code == 404
        # Ann's CSRF token is no use with Bob's cookie
        assert (
            client.post(f"/api/seeks/{seek}/accept", headers={"X-CSRF-Token": ann.csrf}).status_code
            == 403
        )
    with acting(client, ann) as csrf:
        assert client.post(f"/api/seeks/{seek}/accept", headers=csrf).status_code == 403
        assert client.post(f"/api/games/{game_id}/join", headers=csrf).status_code == 409
    # a rated game needs an account; a guest cannot take its seat
    assert client.post(f"/api/games/{game_id}/join", json={"name": "Guest"}).status_code == 403
    # signed out, the account's seats are out of reach
    assert client.get(f"/api/games/{game_id}").json()["you"] == []
    for path in ("/api/seeks", "/api/password", "/api/logout"):
        assert (
            client.post(path, json={"game": "morris", "old": "a" * 8, "new": "b" * 8}).status_code
            == 401
        )


def test_a_guest_keeps_the_games_of_the_browser_on_signing_up(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"})
    game_id, token = answer.json()["id"], answer.json()["tokens"]["white"]
    forged = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"}).json()
    dana = sign_up(
        client,
        "Dana",
        claims=[
            {"game": game_id, "token": token},
            {"game": forged["id"], "token": "not-its-token"},
        ],
    )
    with acting(client, dana) as csrf:  # another device: the account alone holds the seats
        assert client.get(f"/api/games/{game_id}").json()["you"] == ["black", "white"]
        assert client.get(f"/api/games/{forged['id']}").json()["you"] == []
        assert (
            client.post(
                f"/api/games/{game_id}/actions",
                headers=csrf,
                json={"type": "move", "move": "d6", "ply": 0},
            ).status_code
            == 200
        )
    assert [g["id"] for g in client.get("/api/players/Dana").json()["games"]] == [game_id]


def test_chat_reaches_its_room_only(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    seek = post_seek(client, ann, colour="white")
    with acting(client, bob) as csrf:
        game_id = client.post(f"/api/seeks/{seek}/accept", headers=csrf).json()["game"]
    path = f"/ws/games/{game_id}"
    client.cookies.set(COOKIE, ann.cookie)
    with client.websocket_connect(path) as ws_ann:
        client.cookies.set(COOKIE, bob.cookie)
        with client.websocket_connect(path) as ws_bob:
            client.cookies.clear()
            with client.websocket_connect(path) as ws_eve:
                for ws in (ws_ann, ws_bob, ws_eve):
                    ws.send_json({"type": "hello"})
                    assert ws.receive_json()["type"] == "state"
                ws_ann.send_json({"type": "chat", "room": "players", "text": "<b>good luck</b>  "})
                said = next_of(ws_bob, "chat")
                assert said["name"] == "Ann" and said["text"] == "<b>good luck</b>"
                assert next_of(ws_ann, "chat")["text"] == "<b>good luck</b>"
                ws_eve.send_json({"type": "chat", "room": "players", "text": "hi"})
                assert "spectators" in next_of(ws_eve, "error")["message"]
                ws_eve.send_json({"type": "chat", "room": "spectators", "text": "nice"})
                assert next_of(ws_eve, "chat")["name"] == "Spectator"
                ws_ann.send_json({"type": "chat", "room": "players", "text": "x" * 301})
                assert "at most 300" in next_of(ws_ann, "error")["message"]
                # the players never saw the spectators' line: the next thing Bob reads is Ann's
                ws_ann.send_json({"type": "chat", "room": "players", "text": "second"})
                assert next_of(ws_bob, "chat")["text"] == "second"
                for _ in range(6):
                    ws_bob.send_json({"type": "chat", "room": "players", "text": "spam"})
                assert "at most 5 lines" in next_of(ws_bob, "error", also=("chat",))["message"]
    # a page opening the game later gets its room's lines: kept with the game in memory, and
    # read from the store once the game has left memory
    hub = client.app.state.services.hub  # type: ignore[attr-defined]
    client.cookies.set(COOKIE, bob.cookie)
    for evicted in (False, True):
        if evicted:
            client.portal.call(lambda: hub.evict_idle(idle=0))  # type: ignore[attr-defined]
            assert game_id not in hub.games
        with client.websocket_connect(path) as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "state"
            earlier = ws.receive_json()
            assert earlier["type"] == "chat_history" and earlier["room"] == "players"
            texts = [line["text"] for line in earlier["lines"]]
            assert texts[:3] == ["<b>good luck</b>", "second", "spam"]
    client.cookies.clear()


def next_of(ws: Any, kind: str, also: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message of a kind (views, updates and the chat history between are
    skipped, and the kinds in ``also``)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        ServerMessage.validate_python(message)
        if message["type"] == kind:
            return message
        assert message["type"] in ("state", "update", "chat_history", *also), message


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_community_migration_goes_down_and_up(
    request: pytest.FixtureRequest, kind: str, tmp_path: Path
) -> None:
    from alembic import command
    from alembic.config import Config

    from ludoteca.server.store import MIGRATIONS, Store

    address = (
        f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
        if kind == "sqlite"
        else database(request.getfixturevalue("postgres_port"), f"m{secrets.token_hex(6)}")
    )

    def migrate(target: str) -> Any:
        def work(connection: Any) -> None:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            (command.upgrade if target == "head" else command.downgrade)(config, target)

        return work

    async def run() -> list[str]:
        store = Store(address)
        tables = []
        for target in ("head", "0005", "head"):
            async with store.engine.begin() as connection:
                await connection.run_sync(migrate(target))
                tables.append(
                    ",".join(
                        sorted(await connection.run_sync(lambda c: inspect(c).get_table_names()))
                    )
                )
        await store.close()
        return tables

    up, down, again = asyncio.run(run())
    assert "users" in up and "chat" in up and "seeks" in up and up == again
    assert "users" not in down and "games" in down


def test_computer_games_count_in_the_history_unrated(client: TestClient) -> None:
    eve = sign_up(client, "Eve")
    with acting(client, eve) as csrf:
        answer = client.post(
            "/api/games",
            headers=csrf,
            json={"game": "felli", "opponent": "computer", "level": 2, "colour": "white"},
        )
        game_id = answer.json()["id"]
        assert (
            client.post(
                f"/api/games/{game_id}/actions", headers=csrf, json={"type": "resign"}
            ).status_code
            == 200
        )
        assert (
            client.post(
                "/api/games",
                headers=csrf,
                json={"game": "felli", "opponent": "computer", "rated": True},
            ).status_code
            == 400
        )
    profile = client.get("/api/players/Eve").json()
    (game,) = profile["games"]
    assert game["id"] == game_id and game["black"]["computer"] == "level 2"
    assert not game["rated"] and profile["ratings"] == []
    assert profile["counts"] == {"wins": 0, "draws": 0, "losses": 1}


@sqlite_only
def test_the_leaderboard_shows_established_ratings_best_first_then_provisional_ones(
    client: TestClient,
) -> None:
    import datetime

    from sqlalchemy import insert

    from ludoteca.server.community.ratings import RatingRow

    for name in ("Ann", "Bob", "Cleo", "Dan"):
        sign_up(client, name)
    ids = dict(query(client, "SELECT name, id FROM users"))
    now = datetime.datetime.now(datetime.UTC)
    rows = [
        ("Ann", 1700.0, 60.0, now),
        ("Bob", 1800.0, 200.0, now),  # Bob: provisional
        ("Cleo", 1600.0, 80.0, now),
        ("Dan", 1900.0, 50.0, now - datetime.timedelta(days=400)),
    ]  # Dan: away too long

    async def store() -> None:
        engine = create_async_engine(client.app.state.url)  # type: ignore[attr-defined]
        async with engine.begin() as connection:
            await connection.execute(
                insert(RatingRow),
                [
                    {
                        "user_id": ids[name],
                        "game": "morris",
                        "category": "blitz",
                        "rating": rating,
                        "deviation": deviation,
                        "volatility": 0.06,
                        "games": 12,
                        "updated": when,
                    }
                    for name, rating, deviation, when in rows
                ],
            )
        await engine.dispose()

    asyncio.run(store())
    board = client.get("/api/leaderboard", params={"game": "morris", "category": "blitz"}).json()
    assert [(entry["name"], entry["rating"], entry["provisional"]) for entry in board] == [
        ("Ann", 1700, False),
        ("Cleo", 1600, False),
        ("Bob", 1800, True),
    ]
    assert (
        client.get("/api/leaderboard", params={"game": "morris", "category": "rapid"}).json() == []
    )
    assert (
        client.get("/api/leaderboard", params={"game": "morris", "category": "bullet"}).status_code
        == 400
    )

"""Moderation through the API, on SQLite and PostgreSQL: reports and blocks; the moderator role
granted on the command line; mutes, closures (sign-in refused, sessions ended, a live game lost
on time with ratings settled), removed chat lines (gone live for a watcher), unrated games
(ratings recomputed); every action refused to a non-moderator and logged; the chat's word list
and lines a minute."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.cli import main
from ludoteca.server import Settings, create_app
from ludoteca.server.deps import COOKIE

from .test_server_community import Person, acting, next_of, post_seek, sign_up


def url_of(client: TestClient) -> str:
    url: str = client.app.state.url  # type: ignore[attr-defined]
    return url


def moderator(client: TestClient, name: str = "Mona") -> Person:
    """A new account granted the moderator role on the command line."""
    person = sign_up(client, name)
    assert main(["users", "grant", name, "moderator", "--db", url_of(client)]) == 0
    return person


def act(client: TestClient, who: Person, **body: Any) -> Any:
    with acting(client, who) as csrf:
        return client.post("/api/moderation/actions", headers=csrf, json=body)


def game_between(client: TestClient, white: Person, black: Person, rated: bool = False) -> str:
    seek = post_seek(client, white, colour="white", clock="5+0", rated=rated)
    with acting(client, black) as csrf:
        answer = client.post(f"/api/seeks/{seek}/accept", headers=csrf)
        assert answer.status_code == 201, answer.text
        game_id: str = answer.json()["game"]
    return game_id


def say(ws: Any, text: str) -> None:
    ws.send_json({"type": "chat", "room": "players", "text": text})


def test_reports_blocks_and_the_moderators_view(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, bob, mona = sign_up(client, "Ann"), sign_up(client, "Bob"), moderator(client)
    assert "moderator granted: Mona" in capsys.readouterr().out
    game_id = game_between(client, ann, bob)
    path = f"/ws/games/{game_id}"
    client.cookies.set(COOKIE, ann.cookie)
    with client.websocket_connect(path) as ws_ann:
        ws_ann.send_json({"type": "hello"})
        say(ws_ann, "you are hopeless")
        line = next_of(ws_ann, "chat")
    client.cookies.clear()
    with acting(client, bob) as csrf:
        reasons = client.get("/api/moderation/reasons").json()
        assert "abuse" in [r["key"] for r in reasons]
        for body, status, said in (
            ({"player": "Ann", "reason": "bad"}, 400, "a reason is one of"),
            ({"player": "Ann", "reason": "other"}, 400, "say what"),
            ({"player": "Bob", "reason": "spam"}, 400, "yourself"),
            ({"player": "Nobody", "reason": "spam"}, 404, "no player"),
        ):
            refused = client.post("/api/moderation/reports", headers=csrf, json=body)
            assert refused.status_code == status and said in refused.json()["error"]
        for body in (
            {"chat_id": line["id"], "reason": "abuse", "text": "in our game"},
            {"player": "ann", "reason": "cheating"},
        ):
            assert (
                client.post("/api/moderation/reports", headers=csrf, json=body).status_code == 201
            )
        # not a moderator: refused, with a sentence
        for refused in (
            client.get("/api/moderation/reports"),
            client.get("/api/moderation/log"),
            client.post(
                "/api/moderation/actions",
                headers=csrf,
                json={"action": "mute", "player": "Ann", "minutes": 5, "reason": "x"},
            ),
        ):
            assert refused.status_code == 403
            assert refused.json()["error"] == "only moderators may do that"
        assert client.get("/api/moderation/me").json()["moderator"] is False
    with acting(client, mona):
        assert client.get("/api/moderation/me").json()["moderator"] is True
        reports = client.get("/api/moderation/reports").json()
    assert [(r["reporter"], r["player"], r["reason"]) for r in reports] == [
        ("Bob", "Ann", "cheating"),
        ("Bob", "Ann", "abuse"),
    ]
    assert reports[1]["chat_text"] == "you are hopeless" and reports[1]["game_id"] == game_id
    # Bob blocks Ann: her lines are not shown to him, live or in the history; no seek pairs them
    with acting(client, bob) as csrf:
        assert (
            client.post("/api/moderation/blocks", headers=csrf, json={"player": "ann"}).status_code
            == 200
        )
        assert client.get("/api/moderation/me").json()["blocks"] == ["Ann"]
    client.cookies.set(COOKIE, bob.cookie)
    with client.websocket_connect(path) as ws_bob:
        ws_bob.send_json({"type": "hello"})
        client.cookies.set(COOKIE, ann.cookie)
        with client.websocket_connect(path) as ws_ann:
            ws_ann.send_json({"type": "hello"})
            say(ws_ann, "can you hear me")
            say(ws_bob, "quiet here")
            assert next_of(ws_bob, "chat")["text"] == "quiet here"  # Ann's line never came
    seek = post_seek(client, ann)
    with acting(client, bob) as csrf:
        refused = client.post(f"/api/seeks/{seek}/accept", headers=csrf)
        assert refused.status_code == 403
        assert refused.json()["error"] == "you cannot play this player"
        paired = client.post("/api/seeks/quick", headers=csrf, json={"game": "morris"}).json()
        assert set(paired) == {"seek"}  # Ann's seek is not his match
        assert client.delete("/api/moderation/blocks/Ann", headers=csrf).status_code == 200
        assert client.get("/api/moderation/me").json()["blocks"] == []
    client.cookies.clear()


def test_mute_close_remove_and_unrate_are_logged(client: TestClient) -> None:
    ann, bob, mona = sign_up(client, "Ann"), sign_up(client, "Bob"), moderator(client)
    game_id = game_between(client, ann, bob, rated=True)
    path = f"/ws/games/{game_id}"
    client.cookies.set(COOKIE, ann.cookie)
    with client.websocket_connect(path) as ws_ann:
        ws_ann.send_json({"type": "hello"})
        client.cookies.clear()
        with client.websocket_connect(path) as ws_eve:  # a watcher (the spectators' room)...
            ws_eve.send_json({"type": "hello"})
            client.cookies.set(COOKIE, bob.cookie)
            with client.websocket_connect(path) as ws_bob:  # ...and Bob, who reads Ann's room
                ws_bob.send_json({"type": "hello"})
                say(ws_ann, "a rude line")
                line = next_of(ws_bob, "chat")
                assert (
                    act(
                        client, bob, action="remove_line", chat_id=line["id"], reason="x"
                    ).status_code
                    == 403
                )
                refused = act(client, mona, action="remove_line", reason="rude")
                assert refused.status_code == 400 and "chat_id" in refused.json()["error"]
                done = act(client, mona, action="remove_line", chat_id=line["id"], reason="rude")
                assert done.status_code == 200, done.text
                assert next_of(ws_bob, "chat_removed") == {
                    "type": "chat_removed",
                    "room": "players",
                    "id": line["id"],
                }
                # muted: Ann's next line is refused with a sentence
                refused = act(client, mona, action="mute", player="Ann", reason="rude")
                assert refused.status_code == 400 and "minutes" in refused.json()["error"]
                assert (
                    act(
                        client, mona, action="mute", player="Ann", minutes=60, reason="rude"
                    ).status_code
                    == 200
                )
                say(ws_ann, "still here")
                refusal = next_of(ws_ann, "error", also=("chat", "chat_removed"))
                assert "you are muted until" in refusal["message"]
                assert refusal["about"] == "chat"  # (the page tells it in the chat panel)
            client.cookies.set(COOKIE, bob.cookie)  # (act() signed him out of the client)
            with client.websocket_connect(path) as ws_bob:  # the removed line is gone for good
                ws_bob.send_json({"type": "hello"})
                say(ws_bob, "shown")
                while (message := ws_bob.receive_json())["type"] != "chat":
                    lines = message.get("lines", [])
                    assert line["id"] not in [one["id"] for one in lines]
                assert message["text"] == "shown"
    client.cookies.clear()
    assert act(client, mona, action="unmute", player="Ann", reason="sorry").status_code == 200
    # closed: the live game is Bob's loss on time, rated as usual; his sessions end; no sign-in
    assert (
        act(client, mona, action="close", player="Bob", minutes=60, reason="abuse").status_code
        == 200
    )
    view = client.get(f"/api/games/{game_id}").json()
    assert (view["status"], view["outcome"]["result"]) == ("over", "1-0")
    assert view["outcome"]["termination"] == "time forfeit"
    ratings = client.get(f"/api/games/{game_id}/ratings").json()
    assert ratings["white"]["change"] > 0 and ratings["black"]["change"] < 0
    with acting(client, bob):
        assert client.get("/api/me").json()["name"] is None
    refused = client.post("/api/login", json={"name": "Bob", "password": bob.password})
    assert refused.status_code == 403 and "closed until" in refused.json()["error"]
    assert COOKIE not in refused.cookies
    # unrated: the game counts for no one, the ratings recomputed without it
    assert act(client, mona, action="unrate", player="Bob", reason="sandbagging").status_code == 200
    ratings = client.get(f"/api/games/{game_id}/ratings").json()
    assert ratings["rated"] is False
    assert ratings["white"]["rating"] == 1500 and ratings["white"]["change"] is None
    profile = client.get("/api/players/ann").json()
    assert [(r["rating"], r["games"]) for r in profile["ratings"]] == [(1500, 0)]
    assert act(client, mona, action="reopen", player="Bob", reason="served").status_code == 200
    assert (
        client.post("/api/login", json={"name": "Bob", "password": bob.password}).status_code == 200
    )
    with acting(client, mona):
        log = client.get("/api/moderation/log").json()
    assert [(e["moderator"], e["action"], e["player"]) for e in reversed(log)] == [
        ("(command line)", "grant", "Mona"),
        ("Mona", "remove_line", "Ann"),
        ("Mona", "mute", "Ann"),
        ("Mona", "unmute", "Ann"),
        ("Mona", "close", "Bob"),
        ("Mona", "unrate", "Bob"),
        ("Mona", "reopen", "Bob"),
    ]
    assert log[-2]["detail"] == "a rude line" and log[-2]["reason"] == "rude"
    assert log[1]["detail"] == "1 games"


def test_the_users_command(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    sign_up(client, "Ann")
    url = url_of(client)
    capsys.readouterr()
    assert main(["users", "grant", "nobody", "moderator", "--db", url]) == 2
    assert "no player 'nobody'" in capsys.readouterr().err
    assert main(["users", "grant", "ann", "admin", "--db", url]) == 2
    assert "a role is one of moderator" in capsys.readouterr().err
    assert main(["users", "grant", "ann", "moderator", "--db", url]) == 0
    assert main(["users", "grant", "ann", "moderator", "--db", url]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert main(["users", "list", "--db", url]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("Ann\t") and line.endswith("\tmoderator")
    assert main(["users", "revoke", "ann", "moderator", "--db", url]) == 0
    assert main(["users", "list", "--db", url]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("\t")


@pytest.fixture
def strict_client(database_url: str, tmp_path: Path) -> Any:
    """The app with a word list and two chat lines a minute an account."""
    words = tmp_path / "words.txt"
    words.write_text("# refused here\nbadword\nvery rude phrase\n", encoding="utf-8")
    app = create_app(
        Settings(db=database_url, workers=1, warm=False, chat_words=words, chat_lines_per_minute=2)
    )
    app.state.url = database_url
    with TestClient(app) as test_client:
        yield test_client


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_word_list_and_the_lines_a_minute(strict_client: TestClient) -> None:
    client = strict_client
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    game_id = game_between(client, ann, bob)
    client.cookies.set(COOKIE, ann.cookie)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        for text in ("BadWord!", "a Very  rude phrase indeed"):
            say(ws, text)
            refused = next_of(ws, "error")["message"]
            assert refused == "this server does not allow one of the words of that line"
        say(ws, "badwords are fine")  # (a word, not a part of one)
        assert next_of(ws, "chat")["text"] == "badwords are fine"
        say(ws, "two")
        assert next_of(ws, "chat")["text"] == "two"
        say(ws, "three")
        assert next_of(ws, "error")["message"] == "at most 2 chat lines a minute"
    client.cookies.clear()

"""The web server through its HTTP API and websockets: every move is checked by the engine and
stored, seats are guarded by tokens, hostile input changes nothing, games survive a restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.ai.levels import levels, within
from ludoteca.games.morris import Morris
from ludoteca.server import Settings, create_app
from ludoteca.server.play import duties
from ludoteca.server.play.views import apply
from ludoteca.server.schemas import ServerMessage

from ..support.clocks import ServerClock
from ..support.postgres import sqlite_only

FELLI_TRIPLE = ".b./..b/./b../w.w w 0 0"  # White a1 leaps b2, d4 and c5 with multi_capture


def url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path / 'games.db'}"


def new(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], data["tokens"]


def act(client: TestClient, game_id: str, token: str | None, **intent: Any) -> Any:
    return client.post(f"/api/games/{game_id}/actions", json={"token": token, **intent})


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    answer = client.get(f"/api/games/{game_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def wait_for(client: TestClient, game_id: str, test: Any, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = view(client, game_id)
        if test(state):
            return state
        time.sleep(0.1)  # polling: a test without a websocket is told of no change
    raise AssertionError(f"timed out; last state: {state}")


ROLES = {"f": "from", "t": "to", "x": "take"}


def legal_move(text: str) -> dict[str, Any]:
    """A legal move as docs/web.md writes it: notation, touches, ``r`` and removed points."""
    notation, *parts = text.split(" ")
    move: dict[str, Any] = {"n": notation, "g": []}
    for part in parts:
        if part[0] == "r":
            move["x"] = [int(p) for p in part[1:].split(",")]
        else:
            move["g"].append((ROLES[part[0]], int(part[1:])))
    return move


def notations(state: dict[str, Any]) -> set[str]:
    return {legal_move(text)["n"] for text in state["legal"]}


def follow(ws: Any, view: dict[str, Any] | None, test: Any) -> dict[str, Any]:
    """Read messages, keeping the view up to date as a page does, until ``test(view)``."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        ServerMessage.validate_python(message)  # every message has the documented shape
        assert message["type"] != "error", message
        if message["type"] in ("state", "update"):
            view = apply(view or {}, message)
            if test(view):
                return view


@sqlite_only
def test_catalogue_offers_every_game_with_rated_levels(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalogue").json()}
    assert set(games) == {"morris", "felli", "morelli"}
    rule_sets = {r["name"]: r for g in games.values() for r in g["rule_sets"]}
    assert {
        "morris-6",
        "morris-12",
        "morabaraba",
        "morris-lasker",
        "felli-mullah",
        "morelli-9",
    } < set(rule_sets)
    for name in ["morris", "felli", "morelli"]:
        shown = rule_sets[name]["levels"]
        ladder = levels(ludoteca.load(name).rules)
        assert len(shown) >= 5 and [lv["number"] for lv in shown] == [lv.number for lv in ladder]
        # nobody has played a level here yet: no rating on people's scale (the ladder Elo never)
        assert all(lv["rating"] is None and lv["games"] == 0 for lv in shown), name
    for rules in rule_sets.values():
        assert len(rules["pieces"]) == len(rules["board"]["points"])
        assert rules["levels"] == client.get("/api/levels", params={"game": rules["name"]}).json()
    assert all(g["summary"] for g in games.values())
    assert rule_sets["morelli"]["board"]["cells"] and not rule_sets["morris"]["board"]["cells"]
    assert len(rule_sets["morelli-9"]["board"]["points"]) == 81
    assert len(rule_sets["morris-6"]["board"]["points"]) == 16
    # the ladder shown is the one played: only the basic Felli rule sets are solved
    assert "perfect" in rule_sets["felli"]["levels"][-1]["description"]
    assert "perfect" not in rule_sets["felli-mullah"]["levels"][-1]["description"]
    mullah = client.get("/api/levels", params={"game": "felli", "rules": "felli:mullah"})
    assert "perfect" not in mullah.json()[-1]["description"]
    assert (
        client.get("/api/levels", params={"game": "felli", "rules": "felli:x"}).status_code == 400
    )


@sqlite_only
def test_the_lobby_offers_morelli_setups(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalogue").json()}
    for rules in games["morelli"]["rule_sets"]:
        assert rules["settings"] == {"setup": "random_opposite"}
        # Boardspace's setups but Free, where no stone stands and nothing can be played
        choices = {c["value"]: c["label"] for c in rules["choices"]["setup"]}
        assert list(choices) == ["random_opposite", "adjacent", "opposing", "random", "blocks"]
        assert choices["opposing"] == "Opposing"
        assert "Boardspace" in rules["options"]["setup"]
    assert all(not r["choices"] for r in games["felli"]["rule_sets"])
    game_id, _ = new(client, game="morelli", rules="morelli-9:setup=opposing", opponent="hotseat")
    state = view(client, game_id)
    assert state["rules"] == "morelli-9:setup=opposing"
    start = ludoteca.load("morelli-9:setup=opposing").new()
    assert state["pieces"] == start.pieces()
    answer = client.post(
        "/api/games",
        json={"game": "morelli", "rules": "morelli-9:setup=free", "opponent": "hotseat"},
    )
    assert answer.status_code == 400
    assert "over before its first move" in answer.json()["error"]
    answer = client.post(
        "/api/games",
        json={"game": "morelli", "rules": "morelli:setup=crosses", "opponent": "hotseat"},
    )
    assert answer.status_code == 400
    assert "setting setup is one of random_opposite, adjacent" in answer.json()["error"]


@sqlite_only
def test_hot_seat_moves_are_checked_and_stored(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    assert tokens["white"] == tokens["black"]
    token = tokens["white"]
    for ply, move in enumerate(["a7", "g1", "d7"]):
        state = act(client, game_id, token, type="move", move=move, ply=ply).json()
        assert state["moves"][-1] == move
    legal = notations(state)
    assert len(legal) == 21 and "a7" not in legal
    assert state["hand"] == [7, 8] and state["turn"] == "black"
    answer = act(client, game_id, token, type="move", move="a7", ply=3)
    assert answer.status_code == 400 and "a7" in answer.json()["error"]
    answer = act(client, game_id, token, type="move", move="z9", ply=3)
    assert answer.status_code == 400
    answer = act(client, game_id, token, type="move", move="g4", ply=1)  # a stale page
    assert answer.status_code == 409 and "changed" in answer.json()["error"]
    state = view(client, game_id)
    assert state["moves"] == ["a7", "g1", "d7"] and state["legal"] == []  # spectators get none
    # the mill a7-d7-g7 removes a black man: its gesture ends with the take
    act(client, game_id, token, type="move", move="g4", ply=3)
    state = act(client, game_id, token, type="move", move="g7xg1", ply=4).json()
    assert [(k, state["board"]["points"][p]) for k, p in state["last"]] == [
        ("to", "g7"),
        ("take", "g1"),
    ]
    names = state["board"]["points"]
    placed = {names[i]: t for i, t in enumerate(state["pieces"]) if t}
    assert placed == {"a7": "w", "d7": "w", "g7": "w", "g4": "b"}


@sqlite_only
def test_seats_are_guarded(client: TestClient) -> None:
    game_id, tokens = new(client, game="felli", opponent="online", colour="white")
    white = tokens["white"]
    answer = act(client, game_id, white, type="move", move="b2-c3", ply=0)
    assert answer.status_code == 409 and "not started" in answer.json()["error"]
    lobby = client.get("/api/lobby").json()
    assert [g["id"] for g in lobby["open"]] == [game_id] and lobby["open"][0]["free"] == "black"
    joined = client.post(f"/api/games/{game_id}/join").json()
    assert joined["colour"] == "black"
    black = joined["token"]
    assert client.post(f"/api/games/{game_id}/join").status_code == 409  # no third player
    assert act(client, game_id, "forged-token", type="move", move="b2-c3", ply=0).status_code == 403
    assert act(client, game_id, None, type="resign").status_code == 403
    answer = act(client, game_id, black, type="move", move="b4-c3", ply=0)
    assert answer.status_code == 409 and "turn" in answer.json()["error"]
    assert view(client, game_id)["ply"] == 0
    assert act(client, game_id, white, type="move", move="b2-c3", ply=0).status_code == 200
    assert view(client, game_id, black)["legal"]
    assert view(client, game_id, white)["legal"] == []


def test_malformed_requests_get_clear_errors(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    token = tokens["white"]
    bad = client.post(
        f"/api/games/{game_id}/actions",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert bad.status_code == 400 and "error" in bad.json()
    assert client.post("/api/games", json={"game": "chess"}).json()["error"].startswith("unknown")
    answer = client.post("/api/games", json={"game": "morris", "opponent": "alien"})
    assert answer.status_code == 400 and "opponent" in answer.json()["error"]
    assert client.post("/api/games", json={"game": "morris", "level": 99}).status_code == 400
    answer = client.post("/api/games", json={"game": "felli", "position": "bbb/www w 0 0"})
    assert answer.status_code == 400 and "rows" in answer.json()["error"]
    assert client.get("/api/games/no-such-game").status_code == 404
    assert act(client, game_id, token, type="teleport").status_code == 400
    assert act(client, game_id, token, type="move", move="a7").status_code == 400  # no ply
    huge = client.post(
        f"/api/games/{game_id}/actions",
        content=b"x" * 300_000,
        headers={"Content-Type": "application/json"},
    )
    assert huge.status_code == 413
    assert view(client, game_id)["ply"] == 0


@sqlite_only
def test_websocket_updates_both_seats_and_spectators(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="online", colour="black")
    black = tokens["black"]
    white = client.post(f"/api/games/{game_id}/join").json()["token"]
    path = f"/ws/games/{game_id}"
    with (
        client.websocket_connect(path) as ws_white,
        client.websocket_connect(path) as ws_black,
        client.websocket_connect(path) as ws_watch,
    ):
        for ws, token in ((ws_white, white), (ws_black, black), (ws_watch, None)):
            ws.send_json({"type": "hello", "token": token})
        seen = {}
        for ws, seats in ((ws_white, ["white"]), (ws_black, ["black"]), (ws_watch, [])):
            first = ws.receive_json()
            assert first["type"] == "state" and first["you"] == seats
            seen[ws] = first
        ws_white.send_json({"type": "move", "move": "d6", "ply": 0})
        for ws in (ws_white, ws_black, ws_watch):
            seen[ws] = follow(ws, seen[ws], lambda v: v["ply"] == 1)
            assert seen[ws]["moves"] == ["d6"]
            # what an update leaves the page holding is the whole view, as HTTP gives it
            token = {ws_white: white, ws_black: black}.get(ws)
            assert seen[ws] == view(client, game_id, token) | {"watchers": 3}
        assert seen[ws_black]["legal"] and not seen[ws_white]["legal"]
        ws_watch.send_json({"type": "move", "move": "f4", "ply": 1})
        assert ws_watch.receive_json()["type"] == "error"
        ws_watch.send_text("{oops")
        assert "JSON" in ws_watch.receive_json()["message"]
        ws_black.send_text('{"type": "move", "move": "' + "f" * 5000 + '", "ply": 1}')
        assert "limited" in ws_black.receive_json()["message"]
        ws_black.send_json({"type": "move", "move": "f4", "ply": 1})
        after = follow(ws_black, seen[ws_black], lambda v: v["ply"] == 2)
        assert after["moves"] == ["d6", "f4"] and not after["legal"]
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["type"] == "error"


@sqlite_only
def test_idle_games_leave_memory_and_come_back(client: TestClient) -> None:
    game_id, tokens = new(client, game="felli", opponent="hotseat")
    hub = client.app.state.services.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens["white"]})
        first = ws.receive_json()
        ws.send_json({"type": "move", "move": "b2-c3", "ply": 0})
        follow(ws, first, lambda v: v["ply"] == 1)
        assert game_id in hub.games
    deadline = time.monotonic() + 5
    while game_id in hub.games and time.monotonic() < deadline:
        time.sleep(0.05)  # polling: letting a game go is announced to no one
    assert game_id not in hub.games
    state = act(client, game_id, tokens["white"], type="move", move="d4xb2", ply=1).json()
    assert state["moves"] == ["b2-c3", "d4xb2"]


def test_a_corrupt_stored_game_is_reported(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        game_id, tokens = new(client, game="morris", opponent="hotseat", clock="5+0")
        act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
    engine = create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.begin() as connection:  # someone edits the database by hand
        connection.execute(text("UPDATE moves SET move = 'd9' WHERE ply = 0"))
    engine.dispose()
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 500 and "d9" in answer.json()["error"]
        assert client.get("/api/lobby").status_code == 200


def test_offers_resignation_and_take_backs_online(client: TestClient) -> None:
    game_id, tokens = new(client, game="felli", opponent="online", colour="white")
    white = tokens["white"]
    black = client.post(f"/api/games/{game_id}/join").json()["token"]
    act(client, game_id, white, type="move", move="b2-c3", ply=0)
    assert act(client, game_id, white, type="accept_undo").status_code == 409
    act(client, game_id, white, type="undo")
    assert view(client, game_id)["undo_offer"] == "white"
    assert act(client, game_id, white, type="accept_undo").status_code == 409  # not your own
    state = act(client, game_id, black, type="accept_undo").json()
    assert state["moves"] == [] and state["undo_offer"] is None
    act(client, game_id, white, type="offer_draw")
    act(client, game_id, black, type="decline_draw")
    assert view(client, game_id)["draw_offer"] is None
    act(client, game_id, black, type="offer_draw")
    state = act(client, game_id, white, type="accept_draw").json()
    assert state["status"] == "over" and state["outcome"]["result"] == "1/2-1/2"
    assert "agreement" in state["outcome"]["text"]
    assert act(client, game_id, white, type="move", move="b2-c3", ply=0).status_code == 409
    record = client.get(f"/api/games/{game_id}/record").text
    tags = ludoteca.record.loads(record).tags
    assert tags["Result"] == "1/2-1/2" and tags["Termination"] == "draw agreed"
    # a rematch with colours swapped: each player finds their new seat token in their own view
    assert view(client, game_id, white)["rematch"] is None
    act(client, game_id, black, type="rematch")
    assert act(client, game_id, white, type="rematch").status_code == 409
    rematch = view(client, game_id, white)["rematch"]
    assert set(view(client, game_id)["rematch"]) == {"id"}  # spectators only see the link
    new_white = view(client, game_id, black)["rematch"]["token"]
    assert view(client, rematch["id"], new_white)["you"] == ["white"]
    assert view(client, rematch["id"], rematch["token"])["you"] == ["black"]
    assert view(client, rematch["id"])["status"] == "live"
    # another process that had not heard of it (its memory stale) starts no second rematch
    client.app.state.services.hub.games[game_id].row.rematch = None  # type: ignore[attr-defined]
    assert act(client, game_id, white, type="rematch").status_code == 409
    assert view(client, game_id)["rematch"] == {"id": rematch["id"]}


@sqlite_only
def test_felli_chain_and_resignation(client: TestClient) -> None:
    game_id, tokens = new(
        client, game="felli", rules="felli:multi_capture", opponent="hotseat", position=FELLI_TRIPLE
    )
    token = tokens["white"]
    state = view(client, game_id, token)
    chain = next(m for m in map(legal_move, state["legal"]) if m["n"] == "a1xc3xe5xa5")
    names = state["board"]["points"]
    assert [(k, names[p]) for k, p in chain["g"]] == [
        ("from", "a1"),
        ("to", "c3"),
        ("to", "e5"),
        ("to", "a5"),
    ]
    assert sorted(names[p] for p in chain["x"]) == ["b2", "c5", "d4"]
    state = act(client, game_id, token, type="move", move="a1xc3xe5xa5", ply=0).json()
    assert state["status"] == "over" and state["outcome"]["result"] == "1-0"
    assert state["pieces"].count("b") == 0
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    state = act(client, game_id, tokens["white"], type="resign").json()
    assert state["outcome"]["result"] == "0-1" and "resign" in state["outcome"]["text"]


@sqlite_only
def test_records_replay_and_reject_bad_ones(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    for ply, move in enumerate(["d6", "f4", "d2"]):
        act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
    text = client.get(f"/api/games/{game_id}/record").text
    assert ludoteca.record.loads(text).moves == ["d6", "f4", "d2"]
    replay = client.post("/api/records/replay", json={"text": text}).json()
    assert len(replay["positions"]) == 4 and replay["positions"][3]["move"] == "d2"
    assert replay["positions"][2]["pieces"].count("b") == 1
    picture = client.get(f"/api/games/{game_id}/picture.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.count('class="piece"') == 3
    broken = text.replace("f4", "f9")
    answer = client.post("/api/records/replay", json={"text": broken})
    assert answer.status_code == 400 and "f9" in answer.json()["error"]


@sqlite_only
def test_computer_replies_and_takes_back(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="computer", level=1, colour="white")
    token = tokens["white"]
    act(client, game_id, token, type="move", move="d6", ply=0)
    state = wait_for(client, game_id, lambda s: s["ply"] == 2 and not s["thinking"])
    assert state["players"]["black"]["kind"] == "computer"
    assert act(client, game_id, token, type="move", move="d6", ply=2).status_code == 400
    hint = client.post(f"/api/games/{game_id}/hint", json={"token": token}).json()
    assert hint["move"] in notations(view(client, game_id, token))
    assert hint["text"] and hint["pv"][0] == hint["move"]
    state = act(client, game_id, token, type="undo").json()
    assert state["moves"] == [] and state["turn"] == "white"
    assert client.post(f"/api/games/{game_id}/hint", json={"token": "x"}).status_code == 403


@sqlite_only
def test_a_take_back_while_the_computer_thinks(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="computer", level=6, colour="white")
    token = tokens["white"]
    assert act(client, game_id, token, type="move", move="d6", ply=0).json()["thinking"]
    state = act(client, game_id, token, type="undo").json()  # within its second of thought
    assert state["moves"] == [] and not state["thinking"]
    act(client, game_id, token, type="move", move="f4", ply=0)
    # the app has one worker process, which answers in turn: the answer to d6 came first (and
    # was dropped), so the reply to f4 is the later event that shows it
    state = wait_for(client, game_id, lambda s: s["ply"] == 2 and not s["thinking"])
    assert state["moves"][0] == "f4" and state["ply"] == 2 and state["turn"] == "white"


def test_games_survive_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        hot, tokens = new(client, game="felli", opponent="hotseat")
        for ply, move in enumerate(["b2-c3", "d4xb2"]):
            assert (
                act(client, hot, tokens["white"], type="move", move=move, ply=ply).status_code
                == 200
            )
        # the computer (White) is to move when the server stops
        computer, _ = new(client, game="morris", opponent="computer", level=1, colour="black")
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        state = view(client, hot, tokens["white"])
        assert state["moves"] == ["b2-c3", "d4xb2"] and state["turn"] == "white"
        state = act(client, hot, tokens["white"], type="move", move="c2-c3", ply=2).json()
        assert state["moves"][-1] == "c2-c3"
        assert wait_for(client, computer, lambda s: s["ply"] >= 1)["moves"]


def test_an_old_database_is_upgraded_in_place(tmp_path: Path) -> None:
    import asyncio

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from ludoteca.server.store import MIGRATIONS, Store

    engine = create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "INSERT INTO games (id, game, rules, mode, white, black, status, ply, result, "
                "created, updated) VALUES ('old', 'morris', 'morris', 'hotseat', 'human', 'human', "
                "'live', 1, '*', '2026-01-01', '2026-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO moves (game_id, ply, move, played)"
                " VALUES ('old', 0, 'd6', '2026-01-01')"
            )
        )
    engine.dispose()

    async def read() -> tuple[str | None, list[str]]:
        store = Store(url(tmp_path))
        await store.open()
        found = await store.game("old")
        await store.close()
        assert found is not None
        return found[0].rematch, found[1]

    assert asyncio.run(read()) == (None, ["d6"])


def test_the_computer_thinks_within_its_clock() -> None:
    rules = Morris.parse_rules("morris")
    top = len(levels(rules))
    assert levels(rules)[top - 1].spec == "search:time=1,tables=1,book=1"
    assert within(f"level:{top}", rules, 0.25) == "search:time=0.25,tables=1,book=1"
    assert within(f"level:{top}", rules, 5) == "search:time=1,tables=1,book=1"  # its own time
    assert within("level:2", rules, 0.25) == levels(rules)[1].spec  # fixed depth: quick
    assert within("mcts:sims=50,time=3", rules, 0.5) == "mcts:sims=50,time=0.5"


@sqlite_only
def test_a_game_against_the_computer_on_a_clock(client: TestClient) -> None:
    game_id, tokens = new(
        client, game="morris", opponent="computer", level=1, colour="white", clock="1+0"
    )
    assert act(client, game_id, tokens["white"], type="move", move="d6", ply=0).status_code == 200
    clock = wait_for(client, game_id, lambda s: s["ply"] >= 2)["clock"]
    assert clock["control"] == "1+0" and clock["running"] == "white"
    assert 0 < clock["black"] < 60_000  # the computer's reply was charged
    assert 50_000 < clock["white"] <= 60_000  # the first move was not; White's clock runs


@sqlite_only
def test_clocks_charge_the_mover_add_the_increment_and_flag(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        client.post(
            "/api/games", json={"game": "morris", "opponent": "hotseat", "clock": "5 minutes"}
        ).status_code
        == 400
    )
    server_clock = ServerClock(monkeypatch)
    game_id, tokens = new(client, game="morris", opponent="hotseat", clock="1+2")
    token = tokens["white"]
    clock = view(client, game_id)["clock"]
    # the clocks start with the first move: nobody is charged before it
    assert clock["control"] == "1+2" and clock["running"] is None
    assert clock["white"] == clock["black"] == 60_000
    server_clock.ahead = 5_000  # White thinks 5 s over the first move
    started = time.monotonic()
    clock = act(client, game_id, token, type="move", move="d6", ply=0).json()["clock"]
    assert clock["white"] == 60_000 and clock["running"] == "black"
    server_clock.ahead += 7_000  # Black thinks 7 s
    clock = act(client, game_id, token, type="move", move="f4", ply=1).json()["clock"]
    real = (time.monotonic() - started) * 1000 + 1  # the real time between the two moves
    # charged Black's 7 s (and the real time that passed), then added 2 s
    assert 55_000 - real <= clock["black"] <= 55_000
    assert clock["running"] == "white" and clock["white"] <= 60_000  # White's clock runs
    # a game of 3 seconds a side: Black lets the clock run out and loses on time
    game_id, tokens = new(client, game="felli", opponent="hotseat", clock="0.05+0")
    act(client, game_id, tokens["white"], type="move", move="b2-c3", ply=0)
    state = wait_for(client, game_id, lambda s: s["status"] == "over", seconds=10)
    assert state["outcome"]["result"] == "1-0" and "time" in state["outcome"]["text"]
    assert state["clock"]["black"] == 0 and state["clock"]["running"] is None
    answer = act(client, game_id, tokens["white"], type="move", move="b4-c3", ply=1)
    assert answer.status_code == 409


@sqlite_only
def test_the_lobby_lists_only_games_under_way(client: TestClient) -> None:
    """A game opened and left before its first move does not fill the list of games to watch;
    each row says when the game was last active (an ISO time with its zone)."""
    import datetime

    game_id, tokens = new(client, game="felli", opponent="hotseat")
    assert game_id not in [g["id"] for g in client.get("/api/lobby").json()["live"]]
    act(client, game_id, tokens["white"], type="move", move="b2-c3", ply=0)
    rows = {g["id"]: g for g in client.get("/api/lobby").json()["live"]}
    assert rows[game_id]["ply"] == 1
    when = datetime.datetime.fromisoformat(rows[game_id]["updated"])
    assert when.tzinfo is not None
    assert abs((datetime.datetime.now(datetime.UTC) - when).total_seconds()) < 60


@sqlite_only
def test_a_waiting_game_can_be_cancelled_by_its_creator(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="online", colour="black")
    assert act(client, game_id, None, type="cancel").status_code == 403
    assert act(client, game_id, "forged", type="cancel").status_code == 403
    assert act(client, game_id, tokens["black"], type="cancel").status_code == 200
    state = view(client, game_id)
    assert state["status"] == "over" and state["outcome"]["result"] == "*"
    assert "cancelled" in state["outcome"]["text"]
    assert game_id not in [g["id"] for g in client.get("/api/lobby").json()["open"]]
    assert client.post(f"/api/games/{game_id}/join").status_code == 409
    other, seats = new(client, game="felli", opponent="online", colour="white")
    client.post(f"/api/games/{other}/join")
    answer = act(client, other, seats["white"], type="cancel")
    assert answer.status_code == 409 and "resign" in answer.json()["error"]


@sqlite_only
def test_display_names(client: TestClient) -> None:
    game_id, tokens = new(
        client, game="felli", opponent="online", colour="white", name="  Ada   L. "
    )
    lobby = {g["id"]: g for g in client.get("/api/lobby").json()["open"]}
    assert lobby[game_id]["white_name"] == "Ada L." and lobby[game_id]["black_name"] is None
    assert view(client, game_id)["players"]["black"]["label"] == "(free seat)"
    for bad in ("x" * 25, "bell\x07", 'quote"s', "[White"):
        answer = client.post(f"/api/games/{game_id}/join", json={"name": bad})
        assert answer.status_code == 400 and "24 printable" in answer.json()["error"]
    assert view(client, game_id)["status"] == "waiting"  # a refused join changes nothing
    black = client.post(f"/api/games/{game_id}/join", json={"name": "Bo"}).json()["token"]
    players = view(client, game_id)["players"]
    assert players["white"]["label"] == "Ada L." and players["black"]["label"] == "Bo"
    act(client, game_id, tokens["white"], type="resign")
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[White "Ada L."]' in record and '[Black "Bo"]' in record
    act(client, game_id, black, type="rematch")
    rematch = view(client, game_id)["rematch"]["id"]
    players = view(client, rematch)["players"]
    assert players["white"]["label"] == "Bo" and players["black"]["label"] == "Ada L."
    assert client.post("/api/games", json={"game": "felli", "name": "\x00"}).status_code == 400


def test_abandoned_games_leave_the_lists(tmp_path: Path) -> None:
    """A computer game without a move for an hour, or any game without one for a day, is ended
    (no result) by the server's sweep; a game someone has open is kept."""
    import sqlite3

    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        computer, seats = new(client, game="felli", opponent="computer")
        act(client, computer, seats["white"], type="move", move="b2-c3", ply=0)
        fresh, fresh_seats = new(client, game="felli", opponent="computer")
        act(client, fresh, fresh_seats["white"], type="move", move="b2-c3", ply=0)
        hotseat, both = new(client, game="felli", opponent="hotseat")
        act(client, hotseat, both["white"], type="move", move="b2-c3", ply=0)
        for game_id in (computer, fresh):  # the computer has replied
            for _ in range(200):
                if view(client, game_id)["ply"] == 2:
                    break
                time.sleep(0.05)  # polling: a test without a websocket is told of no move
        waiting, _ = new(client, game="felli", opponent="online")
        kept, _ = new(client, game="felli", opponent="online")
        with sqlite3.connect(tmp_path / "games.db") as db:

            def age(game_id: str, hours: float) -> None:
                db.execute(
                    "UPDATE games SET updated = datetime(updated, ?) WHERE id = ?",
                    (f"-{hours} hours", game_id),
                )

            age(computer, 2)
            age(fresh, 0.5)
            age(hotseat, 5)  # not a day yet
            age(waiting, 30)
            age(kept, 30)
        hub = client.app.state.services.hub  # type: ignore[attr-defined]
        hub.evict_idle(0)
        client.portal.call(hub.get, kept)  # open in memory: someone is looking at it
        ended = client.portal.call(hub.duties.abandon)
        assert sorted(ended) == sorted([computer, waiting])
        state = view(client, computer)
        assert state["status"] == "over" and state["outcome"]["result"] == "*"
        assert "abandoned" in state["outcome"]["text"]
        lobby = client.get("/api/lobby").json()
        live = [g["id"] for g in lobby["live"]]
        # (a game against the computer is listed to watch from its tenth ply: fresh has two)
        assert computer not in live and fresh not in live and hotseat in live
        assert [g["id"] for g in lobby["open"]] == [kept]


@sqlite_only
def test_the_move_list_annotates_conversions_and_a_king(client: TestClient) -> None:
    """Morelli's move list says how many stones a move converted (``x2``) and when it seats a
    King (`` K``), as the record annotation does, checked against the engine."""
    import random

    import ludoteca

    rng = random.Random(8)
    state = ludoteca.new_game("morelli-9", seed=8)
    while not any(state.is_tactical(c) for c in state.legal_codes()):
        state.push(rng.choice(list(state.legal_moves)))
    code = next(c for c in state.legal_codes() if state.is_tactical(c))
    expected = state.move_label(code)
    child = state.child(state.move_of(code))
    converted = sum(
        a != b and bool(a) and bool(b) and not a.startswith("k")
        for a, b in zip(state.pieces(), child.pieces(), strict=True)
    )
    assert converted and expected.startswith(f"{state.move_of(code)}x{converted}")
    game_id, tokens = new(
        client,
        game="morelli",
        rules="morelli-9",
        opponent="hotseat",
        position=state.position_code(),
    )
    answer = act(
        client, game_id, tokens["white"], type="move", move=str(state.move_of(code)), ply=0
    ).json()
    assert answer["moves"] == [expected]
    assert act(client, game_id, tokens["white"], type="undo").json()["moves"] == []


@sqlite_only
def test_no_take_back_once_the_game_is_over(client: TestClient) -> None:
    game_id, tokens = new(client, game="felli", opponent="hotseat")
    act(client, game_id, tokens["white"], type="move", move="b2-c3", ply=0)
    act(client, game_id, tokens["white"], type="resign")
    answer = act(client, game_id, tokens["white"], type="undo")
    assert answer.status_code == 409 and "over" in answer.json()["error"]
    assert view(client, game_id)["moves"] == ["b2-c3"]


@sqlite_only
def test_the_lobby_offers_each_option_once_and_in_words(client: TestClient) -> None:
    catalogue = {g["name"]: g for g in client.get("/api/catalogue").json()}
    felli = {r["name"]: r for r in catalogue["felli"]["rule_sets"]}
    assert "mullah" not in felli["felli"]["settings"]  # the felli-mullah rule set is the way
    assert set(felli["felli"]["settings"]) == {
        "forced_capture",
        "multi_capture",
        "repetition",
        "move_rule",
    }
    assert felli["felli"]["options"]["forced_capture"].startswith("Capturing is compulsory")
    morris = {r["name"]: r for r in catalogue["morris"]["rule_sets"]}
    assert "plies" in morris["morris"]["options"]["move_rule"]
    assert morris["morabaraba"]["settings"]["three_men_rule"] == 20


@sqlite_only
def test_a_failed_computer_move_is_tried_again_then_given_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    computer = client.app.state.services.computer  # type: ignore[attr-defined]
    real, calls = computer.move, []

    async def failing_twice(live: Any) -> str:
        calls.append(live.version)
        if len(calls) <= 2:
            raise RuntimeError("the worker and its fallback were both killed")
        return str(await real(live))

    monkeypatch.setattr(duties, "RETRY_AFTER", (0.05, 0.05, 0.05))
    monkeypatch.setattr(computer, "move", failing_twice)
    game_id, tokens = new(client, game="morris", opponent="computer", level=1, colour="white")
    act(client, game_id, tokens["white"], type="move", move="d6", ply=0)
    assert wait_for(client, game_id, lambda s: s["ply"] == 2)["turn"] == "white"
    assert len(calls) == 3 and len(set(calls)) == 1  # two failures, then the move

    async def always_failing(live: Any) -> str:
        calls.append(live.version)
        raise RuntimeError("broken")

    monkeypatch.setattr(computer, "move", always_failing)
    calls.clear()
    move = min(notations(view(client, game_id, tokens["white"])))  # free after any reply
    answer = act(client, game_id, tokens["white"], type="move", move=move, ply=2)
    assert answer.status_code == 200, answer.text
    hub = client.app.state.services.hub  # type: ignore[attr-defined]
    live = hub.games[game_id]

    def settled() -> bool:
        """The game's computer move has failed and no try of it is running or waiting for its
        retry delay: nothing is left that would try again (a retry comes only from such a
        task; ``after_change`` starts none while ``failed_for`` is this version)."""
        pending = [
            task
            for task in hub.tasks.running
            if not task.done()
            and task.get_coro().__qualname__ == "Duties._computer"
            and task.get_coro().cr_frame.f_locals.get("live") is live
        ]
        return live.failed_for == live.version and not live.thinking and not pending

    deadline = time.monotonic() + 30
    while not client.portal.call(settled):  # read in the server's loop, between its steps
        assert time.monotonic() < deadline, (calls, live.failures)
        time.sleep(0.05)  # polling: nothing announces a failed try
    # the first try and its three retries, counted by the game too, and none waiting
    assert len(calls) == 4 and live.failures == 4 and live.failing == live.version
    assert view(client, game_id)["ply"] == 3

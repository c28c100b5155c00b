"""The Bot API on a real server on 127.0.0.1 (docs/web.md): a bot's event stream receives a
challenge, the bot accepts it, its game stream gives gameFull then gameState, its move is
played; a wrong token, a foreign game and a flood are refused, changing nothing; ``ludoteca bot``
connecting ``ludoteca engine`` plays a rated game against a person to its end; ``ludoteca bot
--uci`` connecting a UCI Morris engine (tests/support/uci_engine.py) declines another rule set
with "variant", plays Nine Men's Morris with legal moves, and resigns when its engine answers an
illegal move; a seek left waiting is taken by a level bot."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludoteca import record
from ludoteca.games import load
from ludoteca.server.app import create_app
from ludoteca.server.settings import Settings

from ..support.live_server import serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    settings = Settings(
        db=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
        workers=1,
        warm=False,
        bot_requests_per_minute=40,
        seek_wait=1.0,
    )
    with serving(create_app(settings)) as port:
        yield f"http://127.0.0.1:{port}"


def person(server: str, name: str) -> httpx.Client:
    """A signed-in client (its cookie, and its CSRF token in every request)."""
    client = httpx.Client(base_url=server, timeout=30)
    answer = client.post("/api/signup", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def bot_token(server: str, name: str) -> str:
    answer = person(server, name).post("/api/bot/account/upgrade")
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines():
        if line.strip():
            yield json.loads(line)


def play_a_legal_move(ann: httpx.Client, game_id: str) -> None:
    """Ann plays the first legal move of the game's position."""
    state = record.loads(ann.get(f"/api/games/{game_id}/record").text).state
    move = str(next(iter(state.legal_moves)))
    answer = ann.post(
        f"/api/games/{game_id}/actions", json={"type": "move", "move": move, "ply": state.ply}
    )
    assert answer.status_code == 200, answer.text


def test_a_bot_accepts_a_challenge_streams_and_moves(server: str) -> None:
    token = bot_token(server, "Robo")
    bot = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    ann = person(server, "Ann")
    with bot.stream("GET", "/api/bot/stream/event") as stream:
        told = events(stream)
        sent = ann.post("/api/challenge/Robo", json={"game": "morris", "colour": "white"})
        assert sent.status_code == 201, sent.text
        event = next(told)
        assert event["type"] == "challenge" and event["challenge"]["challenger"] == "Ann"
        accepted = bot.post(f"/api/challenge/{event['challenge']['id']}/accept")
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["game"]
        assert next(told) == {
            "type": "gameStart",
            "game": {"id": game_id, "url": f"/game/{game_id}"},
        }
    with bot.stream("GET", f"/api/bot/game/stream/{game_id}") as stream:
        told = events(stream)
        full = next(told)
        assert full["type"] == "gameFull" and full["black"]["name"] == "Robo"
        assert full["state"]["moves"] == "" and full["state"]["status"] == "live"
        play_a_legal_move(ann, game_id)
        state = next(told)
        assert state["type"] == "gameState" and len(state["moves"].split()) == 1
        position = load("morris").new()
        position.push(state["moves"])
        reply = str(next(iter(position.legal_moves)))
        assert bot.post(f"/api/bot/game/{game_id}/move/{reply}").status_code == 200
        assert len(next(told)["moves"].split()) == 2

    # refused, nothing changed: a wrong token, a game not its own, a move out of turn
    wrong = httpx.Client(base_url=server, headers={"Authorization": "Bearer nope"})
    assert wrong.post(f"/api/bot/game/{game_id}/resign").status_code == 401
    other = bot_token(server, "Other")
    intruder = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {other}"})
    assert intruder.post(f"/api/bot/game/{game_id}/resign").status_code == 403
    assert intruder.get(f"/api/bot/game/stream/{game_id}").status_code == 403
    assert ann.get(f"/api/games/{game_id}").json()["status"] == "live"
    # a flood: past its requests a minute, 429 with a sentence, and the resignation not made
    codes = [intruder.get("/api/bot/account").status_code for _ in range(45)]
    assert codes[0] == 200 and codes[-1] == 429
    refused = intruder.post(f"/api/bot/game/{game_id}/resign")
    assert refused.status_code == 429 and "minute" in refused.json()["error"]


def test_ludoteca_bot_plays_a_rated_game_to_its_end(server: str) -> None:
    token = bot_token(server, "Stockbot")
    command = f"{sys.executable} -m ludoteca engine"
    bot = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca",
            "bot",
            "--server",
            server,
            "--token",
            token,
            *["--engine", command],
        ]
    )
    try:
        ann = person(server, "Ann")
        time.sleep(2)  # the bot's event stream opens
        sent = ann.post(
            "/api/challenge/Stockbot", json={"game": "felli", "rated": True, "colour": "white"}
        )
        assert sent.status_code == 201, sent.text
        game_id = None
        for _ in range(120):
            outgoing = ann.get("/api/challenges").json()["outgoing"]
            game_id = outgoing[0]["game_id"]
            if game_id:
                break
            time.sleep(0.5)
        assert game_id, "the bot did not accept"
        for _ in range(4):  # a few moves each, then Ann resigns
            play_a_legal_move(ann, game_id)
            for _ in range(120):
                if ann.get(f"/api/games/{game_id}").json()["ply"] % 2 == 0:
                    break
                time.sleep(0.5)
        resigned = ann.post(f"/api/games/{game_id}/actions", json={"type": "resign"})
        assert resigned.status_code == 200, resigned.text
        ratings = ann.get(f"/api/games/{game_id}/ratings").json()
        assert ratings, ratings
        profile = ann.get("/api/players/Stockbot").json()
        assert any(r["games"] == 1 for r in profile["ratings"]), profile
    finally:
        bot.terminate()
        bot.wait(10)


def test_a_seek_left_waiting_is_taken_by_a_level_bot(server: str) -> None:
    ann = person(server, "Ann")
    posted = ann.post("/api/seeks", json={"game": "felli", "clock": "5+0"})
    assert posted.status_code == 201, posted.text
    for _ in range(40):
        mine = ann.get("/api/seeks/mine").json()  # (her lobby asks: the seek stays on offer)
        if mine[0]["game_id"]:
            break
        time.sleep(0.5)
    game = ann.get(f"/api/games/{mine[0]['game_id']}").json()
    accounts = {p["account"] for p in game["players"].values()}
    assert "Ann" in accounts and any(a and a.startswith("felli-level-") for a in accounts)


ROOT = Path(__file__).resolve().parents[2]
UCI_ENGINE = f"{sys.executable} -m tests.support.uci_engine"


#: how long a bot process may take to answer (its start and its engine's, on a busy machine)
BOT_WAIT = 60.0


def uci_bot(server: str, token: str, engine: str) -> subprocess.Popen[str]:
    """``ludoteca bot --uci`` connecting ``engine`` (run from the repository's root)."""
    argv = [sys.executable, "-m", "ludoteca", "bot", "--server", server, "--token", token]
    return subprocess.Popen(
        [*argv, "--uci", "--engine", engine], cwd=ROOT, stderr=subprocess.PIPE, text=True
    )


def answered(ann: httpx.Client, bot: str) -> dict[str, Any]:
    """Ann's last challenge to ``bot`` once it is answered (accepted: its game id set), within
    :data:`BOT_WAIT` seconds (a bot process's start, its engine's among them, included)."""
    deadline = time.monotonic() + BOT_WAIT
    while time.monotonic() < deadline:
        mine = [c for c in ann.get("/api/challenges").json()["outgoing"] if c["challenged"] == bot]
        if mine and mine[0]["status"] != "open":
            return dict(mine[0])
        time.sleep(0.2)  # polled: the challenger is told nothing here
    raise AssertionError(f"{bot} did not answer")


def wait_ply(ann: httpx.Client, game_id: str, ply: int) -> dict[str, Any]:
    deadline = time.monotonic() + BOT_WAIT
    while time.monotonic() < deadline:
        game: dict[str, Any] = ann.get(f"/api/games/{game_id}").json()
        if game["ply"] >= ply or game["status"] != "live":
            return game
        time.sleep(0.2)
    raise AssertionError(f"no ply {ply} in {game_id}")


def test_ludoteca_bot_uci_plays_nine_mens_morris_and_declines_other_rules(server: str) -> None:
    bot = uci_bot(server, bot_token(server, "Millbot"), UCI_ENGINE)
    try:
        ann = person(server, "Ann")
        sent = ann.post("/api/challenge/Millbot", json={"game": "morris", "rules": "morris-6"})
        assert sent.status_code == 201, sent.text
        declined = answered(ann, "Millbot")
        assert declined["status"] == "declined" and declined["reason"] == "variant"
        sent = ann.post("/api/challenge/Millbot", json={"game": "morris", "colour": "white"})
        assert sent.status_code == 201, sent.text
        game_id = answered(ann, "Millbot")["game_id"]
        assert game_id, "the bot did not accept"
        for ply in range(2, 26, 2):  # twelve moves each (a mill or two), then Ann resigns
            play_a_legal_move(ann, game_id)
            assert wait_ply(ann, game_id, ply)["ply"] == ply
        resigned = ann.post(f"/api/games/{game_id}/actions", json={"type": "resign"})
        assert resigned.status_code == 200, resigned.text
    finally:
        bot.terminate()
        _, err = bot.communicate(timeout=10)
    assert "declined Ann's challenge" in err and "not 'morris-6'" in err, err
    game = record.loads(ann.get(f"/api/games/{game_id}/record").text)
    assert game.result == "0-1" and len(game.moves) == 24
    assert any("x" in text for text in game.moves[1::2])  # a removal: the engine's second go
    state = load("morris").new()
    for ply, text in enumerate(game.moves):
        if ply % 2:  # the bot's move: legal, and the test engine's (the first in text order)
            assert text == min(str(m) for m in state.legal_moves), (ply, text)
        state.push(text)  # (InvalidMoveError if not legal)


def test_ludoteca_bot_uci_resigns_on_an_illegal_engine_move(server: str) -> None:
    bot = uci_bot(server, bot_token(server, "Badbot"), UCI_ENGINE + " --illegal")
    try:
        ann = person(server, "Ann")
        sent = ann.post("/api/challenge/Badbot", json={"game": "morris", "colour": "black"})
        assert sent.status_code == 201, sent.text
        game_id = answered(ann, "Badbot")["game_id"]
        assert game_id, "the bot did not accept"
        for _ in range(100):
            game = ann.get(f"/api/games/{game_id}").json()
            if game["status"] != "live":
                break
            time.sleep(0.2)
        assert game["ply"] == 0 and game["status"] != "live", game
        assert bot.poll() is None  # still connected, ready for the next challenge
    finally:
        bot.terminate()
        _, err = bot.communicate(timeout=10)
    assert f"resigning game {game_id}" in err and "illegal move 'a1-g7'" in err, err
    assert record.loads(ann.get(f"/api/games/{game_id}/record").text).result == "0-1"

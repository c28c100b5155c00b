"""Two server processes sharing PostgreSQL and Redis, and a worker thinking for both through the
queue (as ``scripts/cluster`` runs them): a move made through one reaches a watcher of the
other, chat crosses too, and when one is killed (SIGKILL) mid-game the other takes its games'
duties over: the computer's turn is played, once, the clock's flag falls, and a player whose
websocket was on the dead process reconnects to the other and finds every acknowledged move."""

from __future__ import annotations

import json
import secrets
import signal
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.sync.client import connect

from ludoteca.server.cluster.fanout import channel

from ..support.postgres import database
from ..support.servers import Command, Server, Worker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")


@pytest.fixture(scope="module")
def services(
    postgres_port: int, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, str, Path]:
    """The database and Redis the module's server processes share, and a folder for logs."""
    return (
        database(postgres_port, f"k{secrets.token_hex(6)}"),
        redis_url,
        tmp_path_factory.mktemp("cluster"),
    )


@pytest.fixture(scope="module")
def pair(services: tuple[str, str, Path]) -> Iterator[tuple[Server, Server]]:
    """Two server processes and a worker for the module's tests."""
    db, redis_url, folder = services
    processes: list[Command] = [Worker(redis_url, folder, "worker")]
    try:
        for name in ("first", "second"):  # both start at once (and migrate the database once)
            processes.append(Server(db, redis_url, folder, name, "--queue"))
        first, second = processes[1:]
        assert isinstance(first, Server) and isinstance(second, Server)
        first.wait_ready()
        second.wait_ready()
        yield first, second
    finally:
        for process in processes:
            process.stop()


@pytest.fixture
def doomed(services: tuple[str, str, Path], pair: tuple[Server, Server]) -> Iterator[Server]:
    """A third server process beside :func:`pair`, for a test that kills it."""
    db, redis_url, folder = services
    server = Server(db, redis_url, folder, "doomed", "--queue")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def receive_until(ws: Any, test: Any, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if test(message):
            return message


def test_a_move_and_a_chat_line_cross_to_the_other_process(pair: tuple[Server, Server]) -> None:
    first, second = pair
    made = first.call("/api/games", {"game": "morris", "opponent": "online", "colour": "white"})
    game_id, ann = made["id"], made["tokens"]["white"]
    bob = second.call(f"/api/games/{game_id}/join", {})["token"]
    with (
        connect(f"ws://127.0.0.1:{second.port}/ws/games/{game_id}") as ws_bob,
        connect(f"ws://127.0.0.1:{first.port}/ws/games/{game_id}") as ws_ann,
    ):
        ws_bob.send(json.dumps({"type": "hello", "token": bob}))
        assert json.loads(ws_bob.recv(timeout=10))["type"] == "state"
        ws_ann.send(json.dumps({"type": "hello", "token": ann}))
        assert json.loads(ws_ann.recv(timeout=10))["type"] == "state"
        # Ann moves through the first process; Bob, on the second, is told
        ws_ann.send(json.dumps({"type": "move", "move": "d6", "ply": 0}))
        update = receive_until(ws_bob, lambda m: m.get("append") == ["d6"])
        assert update["type"] == "update" and update.get("legal")  # now Bob's turn, his moves
        ws_bob.send(json.dumps({"type": "move", "move": "f4", "ply": 1}))
        receive_until(ws_ann, lambda m: m.get("append") == ["f4"])
        ws_ann.send(json.dumps({"type": "chat", "room": "players", "text": "hello, other side"}))
        line = receive_until(ws_bob, lambda m: m["type"] == "chat")
        assert line["text"] == "hello, other side"
        # a page of Bob's opened later on the second process gets the line in its history
        # (the room's history there was read before the line was said)
        with connect(f"ws://127.0.0.1:{second.port}/ws/games/{game_id}") as ws_again:
            ws_again.send(json.dumps({"type": "hello", "token": bob}))
            earlier = receive_until(ws_again, lambda m: m["type"] == "chat_history")
            assert [one["text"] for one in earlier["lines"]] == ["hello, other side"]
    assert second.call(f"/api/games/{game_id}")["moves"] == ["d6", "f4"]


def games_in_memory(server: Server) -> float:
    text = urllib.request.urlopen(server.base + "/metrics", timeout=10).read().decode()
    return float(
        next(
            line.split()[1]
            for line in text.splitlines()
            if line.startswith("ludoteca_games_in_memory ")
        )
    )


def test_a_process_lets_go_of_a_game_played_elsewhere(pair: tuple[Server, Server]) -> None:
    first, second = pair
    before = games_in_memory(first)
    made = first.call("/api/games", {"game": "felli", "opponent": "hotseat"})
    assert games_in_memory(first) == before + 1  # the first process made it and holds it
    game_id, token = made["id"], made["tokens"]["white"]
    with connect(f"ws://127.0.0.1:{second.port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "move", "move": "c2-c3", "ply": 0}))
        receive_until(ws, lambda m: m.get("append") == ["c2-c3"])
    # the first process heard of the move; nobody watches the game there: it let it go
    deadline = time.monotonic() + 10
    while games_in_memory(first) != before:
        assert time.monotonic() < deadline, "the first process kept the game"
        time.sleep(0.1)  # polling a metric: letting go of a game is announced to no one
    assert len(first.call(f"/api/games/{game_id}")["moves"]) == 1  # read back when asked


def listeners(redis_url: str, game_id: str) -> int:
    """How many processes listen to the game's channel, as Redis counts them."""
    client = redis.Redis.from_url(redis_url)
    try:
        return int(dict(client.pubsub_numsub(channel(game_id)))[channel(game_id).encode()])
    finally:
        client.close()


def until(test: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)  # polling Redis: subscribing is announced to no one


def test_a_process_hears_only_of_the_games_it_holds(
    pair: tuple[Server, Server], services: tuple[str, str, Path]
) -> None:
    """Each game has its own channel; a process listens to it while the game is in its memory,
    so news of a game reaches only the processes that hold it."""
    first, second = pair
    redis_url = services[1]
    made = first.call("/api/games", {"game": "felli", "opponent": "hotseat"})
    game_id, token = made["id"], made["tokens"]["white"]
    assert listeners(redis_url, game_id) == 1  # the first process made it; the second never heard
    with connect(f"ws://127.0.0.1:{second.port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert listeners(redis_url, game_id) == 2  # the second listens before it reads the game
        ws.send(json.dumps({"type": "move", "move": "c2-c3", "ply": 0}))
        receive_until(ws, lambda m: m.get("append") == ["c2-c3"])
        # the first process heard of the move, let the unwatched game go, and stopped listening
        until(lambda: listeners(redis_url, game_id) == 1, "the first process kept listening")
    until(lambda: listeners(redis_url, game_id) == 0, "the second process kept listening")
    assert len(first.call(f"/api/games/{game_id}")["moves"]) == 1


def test_the_computers_turn_and_a_clock_survive_their_server(
    pair: tuple[Server, Server], doomed: Server
) -> None:
    first, second = doomed, pair[1]
    # a game between people with a 24-second clock, all of it through the first process (which
    # so holds its lease): after White's first move (not timed) Black's clock runs
    timed = first.call(
        "/api/games", {"game": "morris", "opponent": "online", "colour": "white", "clock": "0.4+0"}
    )
    first.call(f"/api/games/{timed['id']}/join", {})
    first.call(
        f"/api/games/{timed['id']}/actions",
        {"token": timed["tokens"]["white"], "type": "move", "move": "d6", "ply": 0},
    )
    # a game played over a websocket on the first process, every move acknowledged
    played = first.call("/api/games", {"game": "felli", "opponent": "hotseat"})
    ws_game, ws_token = played["id"], played["tokens"]["white"]
    acknowledged = play_over_websocket(first, ws_game, ws_token, [], 6)
    made = first.call(
        "/api/games", {"game": "morris", "opponent": "computer", "level": 1, "colour": "white"}
    )
    game_id, token = made["id"], made["tokens"]["white"]
    # the first process plays the computer's replies while it lives
    state = first.call(
        f"/api/games/{game_id}/actions", {"token": token, "type": "move", "move": "d6", "ply": 0}
    )
    deadline = time.monotonic() + 60
    while len(state["moves"]) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)  # polling: the test holds no websocket on this game
        state = first.call(f"/api/games/{game_id}")
    # kill it right after the next move: the computer's turn is its duty, and it is gone
    first.call(
        f"/api/games/{game_id}/actions",
        {
            "token": token,
            "type": "move",
            "move": "d2" if "d2" not in state["moves"] else "b4",
            "ply": 2,
        },
    )
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(10)
    # the second process takes the lease over once it runs out and plays the move, once
    deadline = time.monotonic() + 60
    while True:
        state = second.call(f"/api/games/{game_id}", None)
        if len(state["moves"]) >= 4:
            break
        assert time.monotonic() < deadline, (
            f"the computer never moved: {state['moves']}\n{second.tails()}"
        )
        time.sleep(0.3)  # polling: the test holds no websocket on this game
    assert len(state["moves"]) == 4 and state["turn"] == "white"
    # played once only: White moves, and the worker (one process, answering in turn) replies;
    # a second answer for the dead server's turn would have come before that reply
    moves = play_over_websocket(second, game_id, token, state["moves"], 1)
    state = second.call(f"/api/games/{game_id}")
    deadline = time.monotonic() + 60
    while len(state["moves"]) < 6:
        assert time.monotonic() < deadline, (
            f"the computer never replied: {state['moves']}\n{second.tails()}"
        )
        time.sleep(0.3)  # polling: the test holds no websocket on this game
        state = second.call(f"/api/games/{game_id}")
    assert state["moves"][:5] == moves and len(state["moves"]) == 6
    # and Black's flag falls, seen by the second process, which took that game's lease too
    deadline = time.monotonic() + 60
    while (ended := second.call(f"/api/games/{timed['id']}"))["status"] != "over":
        assert time.monotonic() < deadline, "the flag never fell"
        time.sleep(0.3)  # polling: the test holds no websocket on this game
    assert ended["outcome"]["result"] == "1-0" and ended["moves"] == ["d6"]
    assert "time" in ended["outcome"]["termination"]
    # the websocket's player reconnects to the other process: every acknowledged move is there,
    # and the game goes on
    play_over_websocket(second, ws_game, ws_token, acknowledged, 2)


def play_over_websocket(
    server: Server, game_id: str, token: str, before: list[str], moves: int
) -> list[str]:
    """Connect to ``server`` as ``token``'s player, check that the game's moves are ``before``,
    play ``moves`` more (the first legal move each time), each acknowledged by its update, and
    return the moves played in all."""
    played = list(before)
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        view = json.loads(ws.recv(timeout=10))
        assert view["type"] == "state" and view["moves"] == played
        legal = view["legal"]
        for _ in range(moves):
            move = legal[0].split()[0]
            ws.send(json.dumps({"type": "move", "move": move, "ply": len(played)}))
            update: dict[str, Any] = {}
            while update.get("append") != [move] or update.get("moves_from") != len(played):
                update = json.loads(ws.recv(timeout=30))
            played.append(move)
            legal = update.get("legal", legal)
    return played

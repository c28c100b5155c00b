"""Hard limits and security basics of the web app: streamed bodies, deeply nested messages,
foreign origins, API docs, security headers, concurrent writers on SQLite, and worker processes
that die with the server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludoteca.server import Settings, create_app
from ludoteca.server.limits import nesting

from ..support.live_server import serving
from ..support.ports import ReservedPort
from .test_server_api import new, url


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """These limits are the app's, not the database's: SQLite only."""
    return url(tmp_path)


def test_a_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    before = client.get("/api/lobby").json()

    def chunks() -> Iterator[bytes]:
        yield b'{"game": "morris", "opponent": "hotseat", "position": "'
        for _ in range(400):
            yield b"x" * 1024
        yield b'"}'

    answer = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413 and "limited to" in answer.json()["error"]
    assert client.get("/api/lobby").json() == before
    new(client, game="morris", opponent="hotseat")  # the server goes on


def test_a_deeply_nested_message_is_refused_and_the_socket_stays_open(client: TestClient) -> None:
    game_id, tokens = new(client, game="felli", opponent="hotseat")
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_text("[" * 1100)
        answer = ws.receive_json()
        assert answer["type"] == "error" and "nest" in answer["message"]
        ws.send_text(json.dumps({"type": "hello", "token": tokens["white"]}))
        assert ws.receive_json()["type"] == "state"


def test_nesting_is_read_without_parsing() -> None:
    assert nesting('{"a": [1, {"b": "[[[["}]}') == 3
    assert nesting('"\\"[["') == 0 and nesting("[" * 50) == 50


def test_a_foreign_origin_cannot_open_a_game_socket(client: TestClient, tmp_path: Path) -> None:
    game_id, _ = new(client, game="morris", opponent="hotseat")
    with (
        client.websocket_connect(
            f"/ws/games/{game_id}", headers={"origin": "http://evil.example"}
        ) as ws,
        pytest.raises(WebSocketDisconnect) as refused,
    ):
        ws.receive_text()  # (accepted, then closed with a reason: see test_server_hardening)
    assert refused.value.code == 1008
    with client.websocket_connect(
        f"/ws/games/{game_id}", headers={"origin": "http://testserver"}
    ) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["type"] == "state"
    (tmp_path / "b").mkdir()
    with TestClient(
        create_app(
            Settings(
                db=url(tmp_path / "b"), workers=1, warm=False, origins=("http://friends.example",)
            )
        )
    ) as other:
        game_id, _ = new(other, game="morris", opponent="hotseat")
        with other.websocket_connect(
            f"/ws/games/{game_id}", headers={"origin": "http://friends.example"}
        ) as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            assert ws.receive_json()["type"] == "state"


def test_api_docs_are_off_by_default_and_pages_carry_security_headers(
    client: TestClient, tmp_path: Path
) -> None:
    assert client.get("/api/docs").status_code == 404
    assert client.get("/api/openapi.json").status_code == 404
    page = client.get("/")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["x-frame-options"] == "DENY"
    (tmp_path / "d").mkdir()
    with TestClient(
        create_app(Settings(db=url(tmp_path / "d"), workers=1, warm=False, api_docs=True))
    ) as documented:
        assert documented.get("/api/docs").status_code == 200


def test_concurrent_writers_on_sqlite(tmp_path: Path) -> None:
    """32 games created and moved in at once through a real server: no "database is locked"."""
    import httpx

    app = create_app(Settings(db=url(tmp_path), workers=1, warm=False, games_per_minute=100))
    with serving(app) as port:

        async def game(http: httpx.AsyncClient) -> list[int]:
            made = await http.post("/api/games", json={"game": "morris", "opponent": "hotseat"})
            if made.status_code != 201:
                return [made.status_code]
            data = made.json()
            moved = await http.post(
                f"/api/games/{data['id']}/actions",
                json={"token": data["tokens"]["white"], "type": "move", "move": "d6", "ply": 0},
            )
            return [made.status_code, moved.status_code]

        async def main() -> list[list[int]]:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                return list(await asyncio.gather(*(game(http) for _ in range(32))))

        assert asyncio.run(main()) == [[201, 200]] * 32


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid``: its children, theirs, and so on (from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    fringe = {pid}
    while fringe:
        fringe = {child for child, parent in parents.items() if parent in fringe} - found
        found |= fringe
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_worker_processes_die_with_a_killed_server(tmp_path: Path) -> None:
    port = ReservedPort()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca",
            "serve",
            "--port",
            str(port.number),
            "--workers",
            "2",
            "--db",
            url(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "LUDOTECA_WARM": "true"},  # (its workers started at once)
    )
    try:
        assert server.stdout is not None and "running at" in server.stdout.readline()
        deadline = time.monotonic() + 60
        # the resource tracker, the fork server and the workers forked from it (the two
        # computer players', the analysis's and the reports')
        while len(_descendants(server.pid)) < 6:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)  # polling /proc: a process starting sends no event
        children = _descendants(server.pid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        # a worker still starting (importing, on a loaded machine) exits once it gets as far
        # as its initializer, which sees its server gone
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in children):
            assert time.monotonic() < deadline, f"still alive: {children}"
            time.sleep(0.2)  # polling /proc: a process ending sends no event here
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        port.release()


def _insert_games(tmp_path: Path, rows: list[tuple[str, str, str, str]]) -> None:
    """Computer games straight into the database: (id, white, black, updated)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, game, rules, mode, white, black, status, ply, result, "
                "created, updated) VALUES (:id, 'morris', 'morris', 'computer', :white, :black, "
                "'live', 0, '*', :updated, :updated)"
            ),
            [{"id": i, "white": w, "black": b, "updated": u} for i, w, b, u in rows],
        )
    engine.dispose()


def _ply(tmp_path: Path, game_id: str) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.begin() as connection:
        ply = int(
            connection.execute(
                text("SELECT ply FROM games WHERE id = :id"), {"id": game_id}
            ).scalar_one()
        )
    engine.dispose()
    return ply


def test_every_computer_turn_resumes_after_a_restart(tmp_path: Path) -> None:
    """1,200 newer games wait for their human players; an older one waits for the computer:
    after a restart the computer plays it, without anyone opening it."""
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))):
        pass  # creates the schema
    waiting = [(f"h{i}", "human", "level:1", "2026-06-01 00:00:00") for i in range(1200)]
    _insert_games(tmp_path, [*waiting, ("old", "level:1", "human", "2026-01-01 00:00:00")])
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))):
        deadline = time.monotonic() + 60
        while _ply(tmp_path, "old") < 1:
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.2)  # polling the row: the server tells no one of this move


def test_opening_a_game_starts_the_computer(tmp_path: Path) -> None:
    """A game that reaches the store while the server runs (another server process wrote it)
    gets its computer move when someone opens it."""
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        _insert_games(tmp_path, [("late", "level:1", "human", "2026-01-01 00:00:00")])
        assert client.get("/api/games/late").status_code == 200
        deadline = time.monotonic() + 60
        while _ply(tmp_path, "late") < 1:
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.2)  # polling the row: nobody watches the game


def test_rematch_seats_survive_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        game_id, tokens = new(client, game="felli", opponent="online", colour="white")
        white = tokens["white"]
        black = client.post(f"/api/games/{game_id}/join").json()["token"]
        client.post(f"/api/games/{game_id}/actions", json={"token": white, "type": "resign"})
        client.post(f"/api/games/{game_id}/actions", json={"token": black, "type": "rematch"})
        before = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": white}).json()
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        for token, colour in ((white, "black"), (black, "white")):
            mine = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()[
                "rematch"
            ]
            assert mine["id"] == before["rematch"]["id"] and mine["token"]
            seat = client.get(f"/api/games/{mine['id']}", headers={"X-Seat-Token": mine["token"]})
            assert seat.json()["you"] == [colour]
        watcher = client.get(f"/api/games/{game_id}").json()["rematch"]
        assert set(watcher) == {"id"}


def test_many_hint_requests_cost_one_analysis(tmp_path: Path) -> None:
    """A player asking for a hint 40 times at once gets 40 answers from one analysis, done in
    the analysis workers, not those that play the computer's moves."""
    from concurrent.futures import ThreadPoolExecutor

    from prometheus_client import CollectorRegistry

    from ludoteca.server.cluster.adoption import Cluster
    from ludoteca.server.computer.computer import Computer
    from ludoteca.server.play.duties import Duties
    from ludoteca.server.play.hub import Hub
    from ludoteca.server.play.tasks import Tasks
    from ludoteca.server.schemas import NewGame
    from ludoteca.server.store import Store
    from ludoteca.server.study.explorer import Explorer
    from ludoteca.server.study.reports import Reports
    from ludoteca.server.timings import Timings

    class Counting(ThreadPoolExecutor):
        submitted = 0

        def submit(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            type(self).submitted += 1
            return super().submit(*args, **kwargs)  # type: ignore[arg-type]

    async def scenario() -> tuple[int, list[str]]:
        store = Store(url(tmp_path))
        await store.open()
        moves_pool, analysis = ThreadPoolExecutor(1), Counting(1)
        computer, tasks = Computer(moves_pool, analysis=analysis), Tasks()
        hub = Hub(
            store,
            computer,
            Cluster(None),
            Duties(),
            Reports(store, computer, tasks.spawn),
            Explorer(store, computer, tasks),
            tasks,
            CollectorRegistry(),
            Timings(),
        )
        await hub.resume()
        game_id, tokens = await hub.create(NewGame(game="morris", level=1))
        live = await hub.get(game_id)
        seats = live.seats(tokens["white"])
        answers = await asyncio.gather(*(hub.computer.hint(live, seats) for _ in range(40)))
        await hub.close()
        moves_pool.shutdown()
        analysis.shutdown()
        await store.close()
        return Counting.submitted, [a.move for a in answers]

    submitted, moves = asyncio.run(scenario())
    assert submitted == 1 and len(set(moves)) == 1 and len(moves) == 40


def test_game_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with TestClient(
        create_app(Settings(db=url(tmp_path), workers=1, warm=False, games_per_minute=5))
    ) as client:
        for _ in range(5):
            new(client, game="felli", opponent="hotseat")
        refused = client.post("/api/games", json={"game": "felli", "opponent": "hotseat"})
        assert refused.status_code == 429 and "a minute" in refused.json()["error"]


def test_rate_limit_window_slides() -> None:
    from ludoteca.server.limits import RateLimit

    now = [0.0]
    limit = RateLimit(2, 60.0, clock=lambda: now[0])
    assert limit.allow("a") and limit.allow("a") and not limit.allow("a")
    assert limit.allow("b")
    now[0] = 60.5
    assert limit.allow("a")


def test_games_touched_over_http_leave_memory_when_idle(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=url(tmp_path), workers=1, warm=False))) as client:
        hub = client.app.state.services.hub  # type: ignore[attr-defined]
        game_id, tokens = new(client, game="felli", opponent="hotseat")
        client.post(
            f"/api/games/{game_id}/actions",
            json={"token": tokens["white"], "type": "move", "move": "b2-c3", "ply": 0},
        )
        assert game_id in hub.games
        assert hub.evict_idle(idle=3600) == 0  # recently used: stays
        dropped = client.portal.call(lambda: hub.evict_idle(idle=0))  # type: ignore[attr-defined]
        assert dropped >= 1 and game_id not in hub.games
        again = client.get(f"/api/games/{game_id}").json()
        assert again["moves"] == ["b2-c3"] and game_id in hub.games


def test_unknown_games_and_pages_get_a_not_found_page(client: TestClient) -> None:
    for path in ("/game/doesnotexist", "/nowhere"):
        page = client.get(path)
        assert page.status_code == 404 and "Back to the lobby" in page.text
    assert client.get("/api/games/doesnotexist").json()["error"].startswith("no game")
    game_id, _ = new(client, game="felli", opponent="hotseat")
    assert client.get(f"/game/{game_id}").status_code == 200


def test_records_are_replayed_in_a_worker(client: TestClient) -> None:
    shuffle = ["a1-c1", "a5-c5", "c1-a1", "c5-a5"] * 250  # 1,000 legal plies
    text = (
        '[Game "felli"]\n[Rules "felli:repetition=0,move_rule=0"]\n'
        '[Position "b../..././.../w.. w 0 0"]\n\n' + " ".join(shuffle) + " *"
    )
    answer = client.post("/api/records/replay", json={"text": text})
    assert answer.status_code == 200 and len(answer.json()["positions"]) == 1001
    bad = client.post("/api/records/replay", json={"text": '[Game "felli"]\n\n1. b2-c3 b4-c3 *'})
    assert bad.status_code == 400 and "b4-c3" in bad.json()["error"]


def test_one_address_has_a_bounded_number_of_computer_games_and_sockets(client: TestClient) -> None:
    from contextlib import ExitStack

    made = [new(client, game="felli", opponent="computer", level=1) for _ in range(8)]
    refused = client.post("/api/games", json={"game": "felli", "opponent": "computer"})
    assert refused.status_code == 429 and "at once" in refused.json()["error"]
    game_id, tokens = made[0]
    client.post(f"/api/games/{game_id}/actions", json={"token": tokens["white"], "type": "resign"})
    new(client, game="felli", opponent="computer", level=1)  # a finished one frees a place
    with ExitStack() as stack:
        for _ in range(32):
            stack.enter_context(client.websocket_connect(f"/ws/games/{game_id}"))
        with (
            client.websocket_connect(f"/ws/games/{game_id}") as ws,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            ws.receive_text()
        assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:  # the others have closed
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["type"] == "state"


def test_the_status_says_who_may_fly(client: TestClient) -> None:
    code = "W.W/.B./.../.....W/.../B../BB. w 0 0 0 40"
    game_id, _ = new(client, game="morris", opponent="hotseat", position=code)
    assert client.get(f"/api/games/{game_id}").json()["notice"] == (
        "White has three men left and may fly to any empty point."
    )
    game_id, _ = new(
        client,
        game="morris",
        opponent="hotseat",
        rules="morris-6",
        position="W.W/.B./W..B/.B./... w 0 0 0 30",
    )
    assert client.get(f"/api/games/{game_id}").json()["notice"] is None  # no flying

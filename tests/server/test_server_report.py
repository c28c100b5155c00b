"""The game report (docs/web.md): computed once when a game ends, stored, served to everyone who
opens the game afterwards, across restarts, on SQLite and PostgreSQL; imported records get one
keyed by what they play; a malformed record is refused and changes nothing."""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select, update

import ludoteca
from ludoteca.ai import Limit
from ludoteca.server import Settings, create_app
from ludoteca.server.store import Store, now
from ludoteca.server.study import reports as reports_module
from ludoteca.server.study.reports import LEASE, ReportPlyRow, ReportRow, Reports

from .test_server_api import act, new

#: White builds a mill; Black's d6 ignores the threat of a second one and loses a man at once
PLAYED = ["a7", "b6", "d7", "a1", "g7xb6", "a4", "g4", "d6", "g1xd6"]
FELLI_ENDGAME = ".../b.././.../w.. w 0 0"  # White a1-b2; Black's b4-c3 walks into b2xd4


def app_on(database_url: str) -> Any:
    # a depth limit, so that a busy machine finds the same values
    return create_app(Settings(db=database_url, workers=1, warm=False, report_limit=Limit(depth=3)))


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(database_url)) as test_client:
        yield test_client


def ready(client: TestClient, path: str, seconds: float = 120) -> dict[str, Any]:
    """The report at ``path`` once ready, checking its progress on the way."""
    deadline = time.monotonic() + seconds
    seen = 0
    while time.monotonic() < deadline:
        answer = client.get(path)
        assert answer.status_code == 200, answer.text
        report: dict[str, Any] = answer.json()
        assert report["status"] in ("pending", "running", "ready")
        assert seen <= report["done"] <= report["total"]
        seen = report["done"]
        if report["status"] == "ready":
            return report
        time.sleep(0.1)  # polling: the API tells of no change
    raise AssertionError(f"timed out; last: {report}")


def rows(client: TestClient) -> tuple[int, int]:
    async def count() -> tuple[int, int]:
        store = client.app.state.services.store  # type: ignore[attr-defined]
        async with store.session() as session:
            reports = (await session.execute(select(func.count()).select_from(ReportRow))).scalar()
            plies = (await session.execute(select(func.count()).select_from(ReportPlyRow))).scalar()
            return int(reports), int(plies)

    return client.portal.call(count)  # type: ignore[union-attr]


def morris_game(client: TestClient) -> str:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    assert client.get(f"/api/games/{game_id}/report").status_code == 409  # not over yet
    for ply, move in enumerate(PLAYED):
        answer = act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
        assert answer.status_code == 200, answer.text
    act(client, game_id, tokens["black"], type="resign")
    return game_id


def test_a_finished_game_is_reported_once_and_served_after_a_restart(database_url: str) -> None:
    with TestClient(app_on(database_url)) as client:
        game_id = morris_game(client)
        report = ready(client, f"/api/games/{game_id}/report")
        assert rows(client) == (1, len(PLAYED) + 1)  # one row a position
    assert report["total"] == len(report["plies"]) == len(PLAYED) + 1
    assert [p["played"] for p in report["plies"]] == [*PLAYED, None]
    assert [m["side"] for m in report["moves"]] == ["white", "black"] * 4 + ["white"]
    # Black's d6 let the mill g7-g4-g1 close: a man lost
    d6 = report["moves"][7]
    assert d6["judgement"] in ("mistake", "blunder") and d6["loss"] >= 0.15
    assert report["plies"][7]["best"] != "d6"
    assert report["sides"]["black"]["mistakes"] + report["sides"]["black"]["blunders"] >= 1
    for ply in report["plies"][:-1]:
        assert ply["best"] and ply["line"][0] == ply["best"] and ply["best_touches"]
        assert ply["played_touches"]
    for side in ("white", "black"):
        assert 0 <= report["sides"][side]["accuracy"] <= 100
    # a second server on the same database serves it at once, without computing it again
    with TestClient(app_on(database_url)) as again:
        answer = again.get(f"/api/games/{game_id}/report").json()
        assert answer["status"] == "ready" and answer["plies"] == report["plies"]
        assert rows(again) == (1, len(PLAYED) + 1)


def felli_blunder(client: TestClient) -> str:
    """A finished Felli game from :data:`FELLI_ENDGAME` in which Black blunders (solved)."""
    game_id, tokens = new(client, game="felli", opponent="hotseat", position=FELLI_ENDGAME)
    for ply, move in enumerate(["a1-b2", "b4-c3", "b2xd4"]):
        act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
    return game_id


def test_a_solved_position_gives_exact_values_and_a_blunder(client: TestClient) -> None:
    report = ready(client, f"/api/games/{felli_blunder(client)}/report")
    plies = report["plies"]
    assert all(p["exact"] for p in plies)
    assert plies[-1]["text"] == "White wins in 0" and plies[-1]["best"] is None
    # the table: a draw before Black's b4-c3, a loss after it (White wins in 1 by b2xd4)
    assert (plies[1]["text"], plies[2]["text"]) == ("Draw", "White wins in 1")
    assert report["moves"][1]["judgement"] == "blunder"  # a draw thrown away
    # half a point lost: lichess's accuracy curve at 50 points, by hand,
    # 103.1668 e^(-0.04354 * 50) - 3.1669 = 103.1668 * 0.113366 - 3.1669 = 8.53
    assert report["moves"][1]["loss"] == 0.5
    assert report["moves"][1]["accuracy"] == pytest.approx(8.53, abs=0.005)
    assert report["sides"]["black"]["accuracy"] == 8.5  # its one move's, to one decimal
    assert plies[1]["best"] != "b4-c3"
    assert report["sides"]["black"]["blunders"] == 1
    assert report["sides"]["white"] == {
        "inaccuracies": 0,
        "mistakes": 0,
        "blunders": 0,
        "accuracy": 100.0,
    }


def test_a_report_reads_in_each_readers_language(client: TestClient) -> None:
    """A ready report (kept in memory once made) says its values in the language of whoever
    reads it, and so do its refusals."""
    path = f"/api/games/{felli_blunder(client)}/report"
    assert ready(client, path)["plies"][-1]["text"] == "White wins in 0"
    french = client.get(path, headers={"Accept-Language": "fr"}).json()
    assert french["plies"][-1]["text"] == "Les Blancs gagnent en 0"
    arabic = client.get(path, headers={"Accept-Language": "ar"}).json()
    assert arabic["plies"][-1]["text"] == "يفوز الأبيض في 0"
    assert client.get(path).json()["plies"][-1]["text"] == "White wins in 0"
    game_id, _tokens = new(client, game="morris", opponent="hotseat")
    refused = client.get(f"/api/games/{game_id}/report", headers={"Accept-Language": "fr"})
    assert refused.status_code == 409
    assert refused.json()["error"] == "les parties sont analysées une fois terminées"
    missing = client.get("/api/reports/record-x", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and missing.json()["error"] == "kein Bericht record-x"


def test_a_record_is_reported_by_what_it_plays(client: TestClient) -> None:
    text = '[Game "morris"]\n[Result "*"]\n\n1. a7 g1 2. d7 g4 3. g7xg1 *\n'
    first = client.post("/api/records/report", json={"text": text})
    assert first.status_code == 200, first.text
    key = first.json()["key"]
    report = ready(client, f"/api/reports/{key}")
    assert [p["played"] for p in report["plies"]] == ["a7", "g1", "d7", "g4", "g7xg1", None]
    # the same moves under other tags: the same report, already made
    retagged = text.replace('[Result "*"]', '[White "Ann"]\n[Result "*"]')
    again = client.post("/api/records/report", json={"text": retagged}).json()
    assert again["key"] == key and again["status"] == "ready"


def test_a_malformed_record_is_refused_and_changes_nothing(client: TestClient) -> None:
    before = rows(client)
    answer = client.post("/api/records/report", json={"text": '[Game "morris"]\n\n1. a7 a7 *\n'})
    assert answer.status_code == 400 and "a7" in answer.json()["error"]
    assert client.post("/api/records/report", json={"text": "not a record"}).status_code == 400
    assert rows(client) == before
    assert client.get("/api/reports/record-unknown").status_code == 404


def test_a_finished_game_without_a_report_gets_one_after_a_restart(database_url: str) -> None:
    with TestClient(app_on(database_url)) as client:
        game_id, tokens = new(client, game="felli", opponent="hotseat", position=FELLI_ENDGAME)
        for ply, move in enumerate(["a1-b2", "b4-c3", "b2xd4"]):
            act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
        ready(client, f"/api/games/{game_id}/report")
        store = client.app.state.services.store  # type: ignore[attr-defined]
        for table in (ReportPlyRow, ReportRow):  # the report is lost
            client.portal.call(store.write, lambda c, t=table: c.execute(delete(t)))  # type: ignore[union-attr]
        assert rows(client) == (0, 0)
    with TestClient(app_on(database_url)) as again:  # nobody asks: the server makes it
        deadline = time.monotonic() + 60
        while again.get(f"/api/reports/game-{game_id}").status_code == 404:
            assert time.monotonic() < deadline, "the report was not made again"
            time.sleep(0.1)  # polling: the API tells of no change
        assert ready(again, f"/api/reports/game-{game_id}")["sides"]["black"]["blunders"] == 1


def test_one_process_claims_a_report_until_its_claim_lapses(database_url: str) -> None:
    async def scenario() -> list[bool]:
        store = Store(database_url)
        await store.open()
        spawned: list[Any] = []

        def keep(work: Any) -> None:
            spawned.append(work)
            work.close()  # (the computing itself is not under test)

        one, other = (Reports(store, None, keep) for _ in range(2))  # type: ignore[arg-type]
        await one._ensure("record-test", None, "morris", "morris", "code", ["d6"])
        claims = [await one._claim("record-test"), await other._claim("record-test")]
        claims.append(await one._claim("record-test"))  # its own claim, renewed
        old = now() - LEASE - datetime.timedelta(seconds=1)
        await store.write(lambda c: c.execute(update(ReportRow).values(claimed_at=old)))
        claims.append(await other._claim("record-test"))  # lapsed: taken over
        claims.append(await one._claim("record-test"))
        await store.close()
        return claims

    assert asyncio.run(scenario()) == [True, False, True, True, False]


class Reporters:
    """The report process, run in the test's own thread one job at a time: which report each
    job was for (by its moves), in order. Every job waits at ``gate`` until the test opens it;
    ``started`` is set when the first job has begun."""

    def __init__(self) -> None:
        self.jobs: list[str] = []
        self.started = asyncio.Event()
        self.gate = asyncio.Event()

    async def run(self, expected: float, fn: Any, *args: Any) -> Any:
        self.jobs.append(" ".join(args[3]))
        self.started.set()
        await self.gate.wait()
        await asyncio.sleep(0)  # let what waits (an asking client) come in between
        return fn(*args)


def test_asked_reports_go_first_and_the_others_one_at_a_time_from_a_bounded_backlog(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four finished games' reports nobody asked for, with room for two in memory (the others
    read from the database once those are made), and a record's report asked for meanwhile:
    the asked one is made at once, no other report's job starting until it is done; the others
    one at a time, oldest first."""
    monkeypatch.setattr(reports_module, "BACKLOG", 2)
    games = [["d6"], ["d6", "d2"], ["d6", "d2", "b4"], ["d6", "d2", "b4", "f4"]]
    record = ["a7", "g7"]

    async def scenario() -> list[str]:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
        await store.open()
        tasks: list[asyncio.Task[None]] = []
        reporters = Reporters()
        computer = SimpleNamespace(reporters=reporters, report_limit=Limit(depth=1))
        reports = Reports(store, computer, lambda work: tasks.append(asyncio.create_task(work)))  # type: ignore[arg-type]
        start = ludoteca.load("morris").new().position_code()
        for i, moves in enumerate(games):
            await reports._ensure(f"game-{i}", None, "morris", "morris", start, moves, asked=False)
        assert list(reports.backlog) == ["game-0", "game-1"]  # the rest in the database only
        await asyncio.wait_for(reporters.started.wait(), 60)  # game-0's report under way
        await reports._ensure("record-x", None, "morris", "morris", start, record)
        reporters.gate.set()
        deadline = time.monotonic() + 60
        while True:
            async with store.session() as session:
                statuses = list(await session.scalars(select(ReportRow.status)))
            if statuses == ["ready"] * 5:
                break
            assert time.monotonic() < deadline, f"the reports were not made: {statuses}"
            await asyncio.sleep(0.05)  # polling the rows: nothing tells of a change
        for task in tasks:
            task.cancel()
        await store.close()
        return reporters.jobs

    jobs = asyncio.run(scenario())
    asked = " ".join(record)
    # the asked report's jobs one after the other, from when it came (game-0's under way)
    where = [i for i, moves in enumerate(jobs) if moves == asked]
    assert where == list(range(where[0], where[0] + len(where))) and len(where) == 2
    assert set(jobs[: where[0]]) <= {"d6"}  # at most game-0 before it, already under way
    # the others one at a time, oldest first, those read back from the database last
    rest = [moves for moves in jobs if moves != asked]
    runs = [m for i, m in enumerate(rest) if i == 0 or rest[i - 1] != m]
    assert runs == [" ".join(moves) for moves in games]

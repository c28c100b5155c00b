"""Correspondence games as docs/web.md describes them, on SQLite and PostgreSQL, with the
server's clock injected (``create_app(clock=...)``) so that days pass at once: days per move
checked, each move giving the opponent N days from then, the sweep ending exactly the overdue
games, once (two sweepers racing too, and after a restart), the your-turn list, the separate
rating category, and planned moves."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from ludoteca.server import Settings, create_app
from ludoteca.server.deps import Services
from ludoteca.server.play.clock import DAY_MS

from ..support.postgres import sqlite_only
from .test_server_community import Person, acting, post_seek, query, sign_up
from .test_server_timings import metric

START = 1_900_000_000_000  # epoch ms: the injected clock's start


class Days:
    """The server's clock in a test: it stands still until told to move on."""

    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms

    def pass_days(self, days: float) -> None:
        self.ms += int(days * DAY_MS)


def started(url: str, days: Days) -> TestClient:
    app = create_app(Settings(db=url, workers=1, warm=False), clock=days)
    app.state.url = url
    return TestClient(app)


@pytest.fixture
def days() -> Days:
    return Days()


@pytest.fixture
def client(database_url: str, days: Days) -> Iterator[TestClient]:
    """The app on :func:`database_url`, its clock ``days``."""
    with started(database_url, days) as test_client:
        yield test_client


def services(client: TestClient) -> Services:
    found: Services = client.app.state.services  # type: ignore[attr-defined]
    return found


def sweep(client: TestClient) -> list[str]:
    """One sweep of the deadlines, run in the app's event loop."""
    ended: list[str] = client.portal.call(services(client).correspondence.sweep)  # type: ignore[union-attr]
    return ended


def between(
    client: TestClient, white: Person, black: Person, clock: str = "3d", rated: bool = False
) -> str:
    """A game of ``white`` and ``black`` (a seek accepted) with this time control: its id."""
    seek = post_seek(client, white, rules="morris", clock=clock, colour="white", rated=rated)
    with acting(client, black) as csrf:
        answer = client.post(f"/api/seeks/{seek}/accept", headers=csrf)
        assert answer.status_code == 201, answer.text
        game_id: str = answer.json()["game"]
    return game_id


def play(client: TestClient, person: Person, game_id: str, move: str, ply: int) -> Any:
    with acting(client, person) as csrf:
        answer = client.post(
            f"/api/games/{game_id}/actions",
            headers=csrf,
            json={"type": "move", "move": move, "ply": ply},
        )
    assert answer.status_code == 200, answer.text
    return answer.json()


def deadline(client: TestClient, person: Person | None, game_id: str) -> Any:
    with acting(client, person):
        answer = client.get(f"/api/games/{game_id}/correspondence")
    assert answer.status_code == 200, answer.text
    return answer.json()


def view(client: TestClient, game_id: str) -> Any:
    client.cookies.clear()
    return client.get(f"/api/games/{game_id}").json()


def plan(client: TestClient, person: Person | None, game_id: str, lines: list[list[str]]) -> Any:
    with acting(client, person) as csrf:
        return client.put(f"/api/games/{game_id}/planned", headers=csrf, json={"lines": lines})


def wait_for_ply(client: TestClient, game_id: str, ply: int) -> Any:
    """The game's view once it has ``ply`` moves (a planned answer is played in the
    background), failing after 10 s."""
    limit = time.monotonic() + 10
    while (current := view(client, game_id))["ply"] < ply:
        assert time.monotonic() < limit, current
        time.sleep(0.02)
    return current


@sqlite_only
def test_days_per_move_are_checked(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    with acting(client, ann) as csrf:
        for body, words in (
            ({"game": "morris", "clock": "4d"}, "1d, 2d, 3d, 5d, 7d, 14d"),
            ({"game": "morris", "clock": "3d", "opponent": "computer"}, "online"),
            ({"game": "morris", "clock": "3d", "opponent": "hotseat"}, "online"),
        ):
            answer = client.post("/api/games", json=body, headers=csrf)
            assert answer.status_code == 400 and words in answer.json()["error"], answer.text
        answer = client.post("/api/seeks", json={"game": "morris", "clock": "30d"}, headers=csrf)
        assert answer.status_code == 400 and "14d" in answer.json()["error"]
        assert client.get("/api/seeks/mine").json() == []
    assert query(client, "SELECT count(*) FROM games") == [(0,)]


def test_each_move_gives_the_opponent_n_days_from_then(client: TestClient, days: Days) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    game_id = between(client, ann, bob, "3d")
    first = deadline(client, ann, game_id)
    assert first["clock"] == "3d" and first["days"] == 3
    assert (first["to_move"], first["deadline"], first["left"]) == (
        "white",
        START + 3 * DAY_MS,
        3 * DAY_MS,
    )
    assert view(client, game_id)["clock"] is None  # no live clock on the page
    days.pass_days(2)
    play(client, ann, game_id, "d6", 0)
    after = deadline(client, bob, game_id)
    assert (after["to_move"], after["deadline"]) == ("black", days.ms + 3 * DAY_MS)
    days.pass_days(0.5)  # Bob answers quickly: White's time is 3 days again, not 3 + 2.5 left
    play(client, bob, game_id, "d2", 1)
    again = deadline(client, ann, game_id)
    assert (again["to_move"], again["deadline"], again["left"]) == (
        "white",
        days.ms + 3 * DAY_MS,
        3 * DAY_MS,
    )
    days.pass_days(1)
    assert deadline(client, None, game_id)["left"] == 2 * DAY_MS  # a spectator sees it too


def test_the_sweep_ends_exactly_the_overdue_games_once(client: TestClient, days: Days) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    quick = between(client, ann, bob, "1d")
    slow = between(client, ann, bob, "2d")
    moved = between(client, ann, bob, "1d")
    days.pass_days(0.5)
    play(client, ann, moved, "d6", 0)  # Bob's day runs from now
    days.pass_days(0.5)
    days.ms -= 1
    assert sweep(client) == []  # a millisecond before its deadline
    days.ms += 1
    assert sweep(client) == [quick]
    assert sweep(client) == []
    over = view(client, quick)
    assert over["status"] == "over" and over["outcome"]["result"] == "0-1"
    assert over["outcome"]["termination"] == "time forfeit"
    assert view(client, slow)["status"] == "live" and view(client, moved)["status"] == "live"
    days.pass_days(0.5)
    assert sweep(client) == [moved]
    assert view(client, moved)["outcome"]["result"] == "1-0"  # Bob ran out
    days.pass_days(1)
    assert sweep(client) == [slow]


def test_the_sweep_lets_everyone_else_in_between_two_games(client: TestClient, days: Days) -> None:
    """The store runs SQLite's queries at once, so a sweep awaiting only the store would hold
    the event loop from its first game to its last: another task gets its turn between any
    two games the sweep ends."""
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    due = {between(client, ann, bob, "1d") for _ in range(3)}
    days.pass_days(1)
    correspondence = services(client).correspondence
    flag = correspondence._flag
    seen: list[str] = []

    async def flagged(game_id: str, at: int) -> bool:
        seen.append("game")
        return await flag(game_id, at)

    async def sweep_beside_another_task() -> list[str]:
        async def other() -> None:
            while True:
                seen.append("other")
                await asyncio.sleep(0)

        task = asyncio.create_task(other())
        await asyncio.sleep(0)  # (it starts)
        try:
            return await correspondence.sweep()
        finally:
            task.cancel()

    correspondence._flag = flagged  # type: ignore[method-assign]
    try:
        ended = client.portal.call(sweep_beside_another_task)  # type: ignore[union-attr]
    finally:
        correspondence._flag = flag  # type: ignore[method-assign]
    assert set(ended) == due
    games = [i for i, what in enumerate(seen) if what == "game"]
    assert len(games) == 3
    for one, next_one in itertools.pairwise(games):
        assert "other" in seen[one:next_one], seen


def test_each_pass_of_the_sweeps_is_timed_on_the_metrics_page(
    client: TestClient, days: Days
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    between(client, ann, bob, "1d")
    before = client.get("/metrics").text
    days.pass_days(1)
    assert len(sweep(client)) == 1
    assert sweep(client) == []
    client.portal.call(services(client).tournaments.tick)  # type: ignore[union-attr]
    after = client.get("/metrics").text

    def grew(name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    # (the server's own passes, every minute and every 5 s, may come on top)
    assert grew("ludoteca_sweep_seconds_count", sweep="correspondence") >= 2
    assert grew("ludoteca_sweep_seconds_sum", sweep="correspondence") > 0
    assert grew("ludoteca_sweep_ended_count") >= 2 and grew("ludoteca_sweep_ended_sum") == 1
    assert grew("ludoteca_sweep_ended_bucket", le="0") >= 1  # the pass that ended none
    assert grew("ludoteca_sweep_seconds_count", sweep="tournaments") >= 1


def test_two_sweepers_racing_end_a_game_once(database_url: str, days: Days) -> None:
    with started(database_url, days) as one, started(database_url, days) as two:
        ann, bob = sign_up(one, "Ann"), sign_up(one, "Bob")
        game_id = between(one, ann, bob, "1d", rated=True)
        for client in (one, two):  # both hold it in memory, in play
            assert view(client, game_id)["status"] == "live"
        days.pass_days(2)
        ended: list[list[str]] = []
        start = threading.Barrier(2)

        def run(client: TestClient) -> None:
            start.wait()
            ended.append(sweep(client))

        threads = [threading.Thread(target=run, args=(c,)) for c in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(ended) == [[], [game_id]]
        assert query(one, f"SELECT result FROM games WHERE id = '{game_id}'") == [("0-1",)]
        # its ratings were settled once: one history row a player
        assert query(one, "SELECT count(*) FROM rating_history") == [(2,)]


def test_a_game_that_ran_out_while_the_server_was_down_ends_at_start(
    tmp_path: Path, days: Days
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    with started(url, days) as before:
        ann, bob = sign_up(before, "Ann"), sign_up(before, "Bob")
        game_id = between(before, ann, bob, "2d")
    days.pass_days(3)
    with started(url, days) as after:  # its first sweep runs as it starts
        limit = time.monotonic() + 10
        while view(after, game_id)["status"] != "over":
            assert time.monotonic() < limit
            time.sleep(0.02)
        assert view(after, game_id)["outcome"]["result"] == "0-1"


@sqlite_only
def test_correspondence_games_in_play_are_never_abandoned(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    slow = between(client, ann, bob, "14d")
    live = between(client, ann, bob, "5+0")
    hub = services(client).hub
    for game_id in (slow, live):
        hub.games.pop(game_id)  # (a game in memory is never abandoned)
    store = services(client).store
    none = datetime.timedelta(0)
    ended = client.portal.call(store.abandon, none, none)  # type: ignore[union-attr]
    assert ended == [live]


@sqlite_only
def test_the_your_turn_list(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    three = between(client, ann, bob, "3d")
    one = between(client, ann, bob, "1d")
    theirs = between(client, ann, bob, "2d")
    between(client, ann, bob, "5+0")  # a live clock: not listed
    play(client, ann, theirs, "d6", 0)
    with acting(client, ann):
        mine = client.get("/api/yourturn").json()["games"]
    assert [g["id"] for g in mine] == [one, three]  # soonest deadline first
    assert mine[0] == {
        "id": one,
        "url": f"/game/{one}",
        "game": "morris",
        "rules_title": mine[0]["rules_title"],
        "clock": "1d",
        "colour": "white",
        "opponent": "Bob",
        "opponent_bot": False,
        "ply": 0,
        "deadline": START + DAY_MS,
        "left": DAY_MS,
    }
    with acting(client, bob):
        assert [g["id"] for g in client.get("/api/yourturn").json()["games"]] == [theirs]
    assert client.get("/api/yourturn").status_code == 401
    assert client.get("/yourturn").status_code == 200


def test_correspondence_is_rated_apart(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    for clock in ("3d", "5+0"):
        game_id = between(client, ann, bob, clock, rated=True)
        with acting(client, bob) as csrf:
            client.post(f"/api/games/{game_id}/actions", headers=csrf, json={"type": "resign"})
        category = client.get(f"/api/games/{game_id}/ratings").json()["category"]
        assert category == ("correspondence" if clock == "3d" else "blitz")
    ratings = client.get("/api/players/ann").json()["ratings"]
    assert sorted((r["category"], r["games"]) for r in ratings) == [
        ("blitz", 1),
        ("correspondence", 1),
    ]
    board = client.get("/api/leaderboard", params={"game": "morris", "category": "correspondence"})
    assert [row["name"] for row in board.json()] == ["Ann", "Bob"]


def test_a_planned_answer_is_played_when_the_opponent_plays_its_move(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    game_id = between(client, ann, bob, "3d")
    play(client, ann, game_id, "d6", 0)
    lines = [["d2", "d7", "b4", "f4"], ["g1", "a1"], ["d2", "d7", "g7", "a7"]]
    answer = plan(client, ann, game_id, lines)
    assert answer.status_code == 200 and answer.json() == {"lines": lines}
    assert deadline(client, ann, game_id)["lines"] == lines
    assert deadline(client, bob, game_id)["lines"] == []  # (his own: none)
    play(client, bob, game_id, "d2", 1)
    state = wait_for_ply(client, game_id, 3)  # Ann's answer, at once
    assert state["turn"] == "black" and len(state["moves"]) == 3
    assert deadline(client, ann, game_id)["lines"] == [["b4", "f4"], ["g7", "a7"]]
    play(client, bob, game_id, "b2", 3)  # in no line: every line goes
    assert deadline(client, ann, game_id)["lines"] == []
    assert view(client, game_id)["ply"] == 4
    assert query(client, "SELECT count(*) FROM planned_lines") == [(0,)]


def test_a_bad_plan_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    ann, bob, cy = sign_up(client, "Ann"), sign_up(client, "Bob"), sign_up(client, "Cyd")
    game_id = between(client, ann, bob, "3d")
    answer = plan(client, ann, game_id, [["d6"]])
    assert answer.status_code == 409 and "opponent is to move" in answer.json()["error"]
    play(client, ann, game_id, "d6", 0)
    for person, lines, status, words in (
        (ann, [["d2", "d2"]], 400, "line 1"),  # d2 is taken by then: the engine says why
        (ann, [["d6", "d7"]], 400, "line 1"),
        (ann, [["d2", "d7"], ["d2"]], 400, "line 2"),
        (ann, [["d2", "d7"], ["d2", "g7"]], 400, "differently"),
        (ann, [["zz", "d7"]], 400, "line 1"),
        (bob, [["d2", "d7"]], 409, "opponent is to move"),
        (cy, [["d2", "d7"]], 403, "seat"),
        (None, [["d2", "d7"]], 403, "seat"),
    ):
        answer = plan(client, person, game_id, lines)
        assert answer.status_code == status and words in answer.json()["error"], answer.text
    assert query(client, "SELECT count(*) FROM planned_lines") == [(0,)]
    live = between(client, ann, bob, "5+0")
    answer = plan(client, bob, live, [["d2", "d7"]])
    assert answer.status_code == 409 and "days per move" in answer.json()["error"]


def test_the_correspondence_migration_goes_down_and_up(database_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from ludoteca.server.store import MIGRATIONS, Store

    def migrate(target: str) -> Any:
        def work(connection: Any) -> tuple[list[str], list[str]]:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            (command.upgrade if target == "head" else command.downgrade)(config, target)
            found = inspect(connection)
            return found.get_table_names(), [c["name"] for c in found.get_columns("games")]

        return work

    async def run() -> list[tuple[list[str], list[str]]]:
        store = Store(database_url)
        seen = []
        for target in ("head", "0008", "head"):
            async with store.engine.begin() as connection:
                seen.append(await connection.run_sync(migrate(target)))
        await store.close()
        return seen

    up, down, again = asyncio.run(run())
    assert "planned_lines" in up[0] and {"deadline", "to_move"} <= set(up[1])
    assert "planned_lines" not in down[0] and "deadline" not in down[1]
    assert sorted(up[0]) == sorted(again[0]) and sorted(up[1]) == sorted(again[1])

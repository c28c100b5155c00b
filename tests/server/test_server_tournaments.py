"""Tournaments as docs/web.md describes them, on SQLite and PostgreSQL, the server's clock
injected (``create_app(clock=...)``): a Swiss of six played to the end through the API (its
games resigned or drawn by agreement), its pairings and final standings with tie-breaks
worked out by hand, a restart in the middle; a round robin by the Berger table; an arena
timed by the fake clock; bad requests refused with nothing changed."""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from ludoteca.cli import main
from ludoteca.server import Settings, create_app
from ludoteca.server.deps import Services
from ludoteca.server.tournaments.catalogue import RUNNING
from ludoteca.server.tournaments.rows import BoardRow, TournamentRow
from ludoteca.server.tournaments.service import _waiting

from .test_server_community import Person, acting, sign_up

START = 1_900_000_000_000  # epoch ms: the injected clock's start
MINUTE = 60_000
HOUR = 60 * MINUTE  # (the scheduler's own pass: once an hour, the tests' tick() in between)


class Clock:
    """The server's clock in a test: it stands still until told to move on."""

    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> int:
        return self.ms


def started(url: str, clock: Clock) -> TestClient:
    settings = Settings(db=url, workers=1, warm=False, tournament_every=HOUR / 1000)
    app = create_app(settings, clock=clock)
    app.state.url = url
    return TestClient(app)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(database_url: str, clock: Clock) -> Iterator[TestClient]:
    with started(database_url, clock) as test_client:
        yield test_client


def tick(client: TestClient) -> None:
    """The work the hub's listeners started (a round paired as its last game ended, its games
    opened) done, then one pass of the tournaments' scheduler, in the app's event loop."""
    services: Services = client.app.state.services  # type: ignore[attr-defined]

    async def settled() -> None:
        while services.hub.tasks.running:
            await asyncio.gather(*services.hub.tasks.running, return_exceptions=True)
        await services.tournaments.tick()

    client.portal.call(settled)  # type: ignore[union-attr]


def iso(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).isoformat()


def create(client: TestClient, person: Person, **body: Any) -> tuple[int, dict[str, Any]]:
    fields = {
        "name": "Winter cup",
        "game": "morris",
        "clock": "5+0",
        "system": "swiss",
        "rounds": 3,
        "starts": iso(START + MINUTE),
        **body,
    }
    with acting(client, person) as csrf:
        answer = client.post("/api/tournaments", json=fields, headers=csrf)
    return answer.status_code, answer.json()


def post(client: TestClient, person: Person, path: str, **body: Any) -> tuple[int, Any]:
    with acting(client, person) as csrf:
        answer = client.post(path, json=body, headers=csrf)
    return answer.status_code, answer.json()


def pairings(client: TestClient, tid: str, number: int) -> list[tuple[str, str | None]]:
    view = client.get(f"/api/tournaments/{tid}").json()
    return [(b["white"], b["black"]) for b in view["boards"] if b["round"] == number]


def finish(
    client: TestClient, people: dict[str, Person], tid: str, number: int, results: dict[str, str]
) -> None:
    """End some of round ``number``'s games: ``results`` by White's name, "1-0", "0-1" (the loser
    resigns) or "1/2-1/2" (White offers a draw, Black accepts)."""
    view = client.get(f"/api/tournaments/{tid}").json()
    for board in view["boards"]:
        if board["round"] != number or board["white"] not in results:
            continue
        game = board["url"].rsplit("/", 1)[1]
        white, black = people[board["white"]], people[board["black"]]
        result = results[board["white"]]
        actions = {
            "1-0": [(black, "resign")],
            "0-1": [(white, "resign")],
            "1/2-1/2": [(white, "offer_draw"), (black, "accept_draw")],
        }[result]
        for person, kind in actions:
            status, answer = post(client, person, f"/api/games/{game}/actions", type=kind)
            assert status == 200, answer
    tick(client)


def test_a_swiss_of_six_to_the_end_with_a_restart(database_url: str, clock: Clock) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]  # pairing numbers 1-6 (equal ratings)
    with started(database_url, clock) as client:
        people = {name: sign_up(client, name) for name in names}
        status, made = create(client, people["Ann"])
        assert status == 201, made
        tid = made["id"]
        for name in names:
            assert post(client, people[name], f"/api/tournaments/{tid}/join")[0] == 200
        tick(client)
        assert client.get(f"/api/tournaments/{tid}").json()["state"] == "upcoming"
        clock.ms += MINUTE
        tick(client)
        # round 1 (see test_tournament_pairing): 1-4, 5-2, 3-6
        assert pairings(client, tid, 1) == [("Ann", "Dee"), ("Eve", "Bob"), ("Cid", "Fay")]
        finish(client, people, tid, 1, {"Ann": "1-0", "Eve": "0-1", "Cid": "1-0"})
        # round 2 (worked out in test_tournament_pairing): 2-1, 4-3, 6-5
        assert pairings(client, tid, 2) == [("Bob", "Ann"), ("Dee", "Cid"), ("Fay", "Eve")]
        finish(client, people, tid, 2, {"Bob": "1/2-1/2", "Dee": "0-1"})
        assert client.get(f"/api/tournaments/{tid}").json()["round"] == 2
    # a new server on the same database carries on
    with started(database_url, clock) as client:
        finish(client, people, tid, 2, {"Fay": "1-0"})
        # round 3 by hand: scores 3: 2, 1: 1½, 2: 1½, 6: 1, 4: 0, 5: 0.  3, alone, moves down
        # to {1, 2} (who met).  3-1 would leave both 3 and 1 (each due white after W, B) and
        # then 2-6 (both due black) without their colours; 3-2 and 1-6 give everyone theirs,
        # which the Dutch system's colour criterion prefers.  Then {4, 5}: 5 is due white.
        assert pairings(client, tid, 3) == [("Cid", "Bob"), ("Ann", "Fay"), ("Eve", "Dee")]
        finish(client, people, tid, 3, {"Cid": "1/2-1/2", "Ann": "0-1", "Eve": "1-0"})
        view = client.get(f"/api/tournaments/{tid}").json()
        assert view["state"] == "finished"
        # by hand: points 3: 2½, 2: 2, 6: 2, 1: 1½, 5: 1, 4: 0; opponents 1: 4, 2, 6;
        # 2: 5, 1, 3; 3: 6, 4, 2; 4: 1, 3, 5; 5: 2, 6, 4; 6: 3, 5, 1.
        # Buchholz (cut-1; Sonneborn-Berger): 3: 2+0+2 = 4 (4; 2+0+½·2 = 3);
        # 2: 1+1½+2½ = 5 (4; 1+½·1½+½·2½ = 3); 6: 2½+1+1½ = 5 (4; 1+1½ = 2½);
        # 1: 0+2+2 = 4 (4; 0+½·2 = 1); 5: 2+2+0 = 4 (4; 0); 4: 1½+2½+1 = 5 (4; 0).
        # 2 and 6 tie on points, cut-1 and Buchholz: Sonneborn-Berger puts 2 first.
        got = [
            (s["name"], s["points"], s["buchholz"], s["buchholz_cut1"], s["sonneborn_berger"])
            for s in view["standings"]
        ]
        assert got == [
            ("Cid", 2.5, 4.0, 4.0, 3.0),
            ("Bob", 2.0, 5.0, 4.0, 3.0),
            ("Fay", 2.0, 5.0, 4.0, 2.5),
            ("Ann", 1.5, 4.0, 4.0, 1.0),
            ("Eve", 1.0, 4.0, 4.0, 0.0),
            ("Dee", 0.0, 5.0, 4.0, 0.0),
        ]
        mine = client.get("/api/players/cid/tournaments").json()
        assert [(t["name"], t["rank"], t["points"]) for t in mine] == [("Winter cup", 1, 2.5)]
        # the games were rated by their time control
        rated = client.get("/api/players/Cid").json()["ratings"]
        assert rated and rated[0]["games"] == 3


def test_a_round_robin_follows_the_berger_table(client: TestClient, clock: Clock) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"]
    people = {name: sign_up(client, name) for name in names}
    tid = create(client, people["Ann"], system="roundrobin", rounds=None)[1]["id"]
    for name in names:
        post(client, people[name], f"/api/tournaments/{tid}/join")
    clock.ms += MINUTE
    tick(client)
    assert client.get(f"/api/tournaments/{tid}").json()["rounds"] == 3
    table = [  # FIDE's Berger table for 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
        [("Ann", "Dee"), ("Bob", "Cid")],
        [("Dee", "Cid"), ("Ann", "Bob")],
        [("Bob", "Dee"), ("Cid", "Ann")],
    ]
    for number, expected in enumerate(table, 1):
        assert pairings(client, tid, number) == expected
        finish(client, people, tid, number, {white: "1-0" for white, _ in expected})
    view = client.get(f"/api/tournaments/{tid}").json()
    assert view["state"] == "finished"
    # white won every game: Ann beat Dee and Bob, lost to Cid; Bob beat Cid and Dee; Cid beat
    # Ann; Dee beat Cid.  Ann and Bob tie on 2: Sonneborn-Berger (beaten opponents' points)
    # Ann 1 + 2 = 3, Bob 1 + 1 = 2 (Cid, Dee): Ann first; Cid and Dee on 1: Cid 2, Dee 1.
    got = [(s["name"], s["points"], s["sonneborn_berger"]) for s in view["standings"]]
    assert got == [("Ann", 2.0, 3.0), ("Bob", 2.0, 2.0), ("Cid", 1.0, 2.0), ("Dee", 1.0, 1.0)]
    assert post(client, sign_up(client, "Gus"), f"/api/tournaments/{tid}/join")[0] == 409


def test_an_arena_pairs_at_once_and_ends_on_time(client: TestClient, clock: Clock) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"]
    people = {name: sign_up(client, name) for name in names}
    tid = create(client, people["Ann"], system="arena", rounds=None, minutes=30)[1]["id"]
    for name in names[:3]:
        post(client, people[name], f"/api/tournaments/{tid}/join")
    clock.ms += MINUTE
    tick(client)
    first = pairings(client, tid, 1)
    assert len(first) == 1  # two of three paired; the third waits
    # a late entrant is paired at once with the one waiting
    assert post(client, people["Dee"], f"/api/tournaments/{tid}/join")[0] == 200
    assert len(pairings(client, tid, 2)) == 1
    white = first[0][0]
    finish(client, people, tid, 1, {white: "1-0"})
    view = client.get(f"/api/tournaments/{tid}").json()
    assert {s["name"]: s["points"] for s in view["standings"]}[white] == 2.0
    # the two are free again; nobody else is, so they meet again (rather than wait)
    assert len(pairings(client, tid, 3)) == 1
    # a pause: withdraw, then join again
    assert post(client, people["Ann"], f"/api/tournaments/{tid}/withdraw")[0] == 200
    assert post(client, people["Ann"], f"/api/tournaments/{tid}/join")[0] == 200
    clock.ms += 31 * MINUTE
    tick(client)
    assert client.get(f"/api/tournaments/{tid}").json()["state"] == "finished"
    assert post(client, people["Ann"], f"/api/tournaments/{tid}/join")[0] == 409


def test_bad_requests_change_nothing(client: TestClient, clock: Clock) -> None:
    ann, bob, cid = sign_up(client, "Ann"), sign_up(client, "Bob"), sign_up(client, "Cid")
    for bad in (
        {"rounds": 0},
        {"rules": "no-such-rules"},
        {"starts": iso(START - 10 * MINUTE)},
        {"clock": "5 minutes"},
        {"system": "knockout"},
        {"system": "arena", "minutes": None},
    ):
        status, answer = create(client, ann, **bad)
        assert status == 400, (bad, answer)
        assert answer["error"]
    assert client.get("/api/tournaments").json() == []
    status, answer = create(client, ann, max_players=2)
    tid = answer["id"]
    assert post(client, bob, f"/api/tournaments/{tid}/withdraw")[0] == 409  # not in it
    assert post(client, bob, f"/api/tournaments/{tid}/join")[0] == 200
    status, answer = post(client, bob, f"/api/tournaments/{tid}/join")
    assert status == 409 and "already" in answer["error"]
    assert post(client, ann, f"/api/tournaments/{tid}/join")[0] == 200
    status, answer = post(client, cid, f"/api/tournaments/{tid}/join")
    assert status == 409 and "full" in answer["error"]
    assert post(client, cid, "/api/tournaments/nope/join")[0] == 404
    assert client.get(f"/api/tournaments/{tid}").json()["players"] == 2


def test_joins_at_once_never_take_more_places_than_there_are(
    client: TestClient, clock: Clock
) -> None:
    """Eight accounts join a tournament of three places at once (their joins interleaved in
    the server's event loop, each read of the entries before another's write), and one of
    them twice: three are in, the others are told it is full or that they are in already."""
    people = [sign_up(client, f"Racer{i}") for i in range(8)]
    status, answer = create(client, people[0], max_players=3)
    assert status == 201, answer
    tid = answer["id"]
    services: Services = client.app.state.services  # type: ignore[attr-defined]

    async def join_all() -> list[BaseException | None]:
        users = [await services.accounts.user(p.cookie) for p in people]
        joins = [services.tournaments.join(tid, u) for u in users if u is not None]
        joins.append(services.tournaments.join(tid, users[0]))  # type: ignore[arg-type]
        return await asyncio.gather(*joins, return_exceptions=True)

    outcomes = client.portal.call(join_all)  # type: ignore[union-attr]
    refusals = [str(o) for o in outcomes if o is not None]
    assert len(outcomes) - len(refusals) == 3, outcomes
    assert all("full" in r or "already" in r for r in refusals), refusals
    assert client.get(f"/api/tournaments/{tid}").json()["players"] == 3


def test_the_pages_and_the_websocket(client: TestClient, clock: Clock) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    tid = create(client, ann)[1]["id"]
    assert "tournament-list" in client.get("/tournaments").text
    assert "tournament-list" in client.get("/").text
    assert 'id="standings"' in client.get(f"/tournaments/{tid}").text
    assert client.get("/tournaments/nope").status_code == 404
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        first = ws.receive_json()
        assert (first["type"], first["tournament"]["players"]) == ("tournament", 0)
        post(client, bob, f"/api/tournaments/{tid}/join")
        changed = ws.receive_json()  # told at once: the join was made by this process
        assert [s["name"] for s in changed["tournament"]["standings"]] == ["Bob"]


def test_the_operators_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    made = ["tournaments", "create", "--name", "Xmas", "--game", "morris", "--system", "swiss"]
    made += ["--clock", "3+2", "--db", db]
    assert main([*made, "--rounds", "5", "--start", "2099-12-24T18:00Z"]) == 0
    tid = capsys.readouterr().out.split()[0]
    assert main([*made, "--rounds", "0", "--start", "2099-12-24T18:00Z"]) == 2
    assert "at least one round" in capsys.readouterr().err
    assert main([*made, "--rounds", "3", "--start", "2020-12-24T18:00Z"]) == 2
    assert "in the past" in capsys.readouterr().err
    assert main(["tournaments", "list", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{tid}\tupcoming\t2099-12-24T18:00Z\tswiss\t0\tXmas"]


def test_a_bot_is_marked_in_the_standings_and_pairings(client: TestClient, clock: Clock) -> None:
    ann, robo = sign_up(client, "Ann"), sign_up(client, "Robo")
    assert post(client, robo, "/api/bot/account/upgrade")[0] == 200
    tid = create(client, ann, system="roundrobin", rounds=None)[1]["id"]
    for person in (ann, robo):
        assert post(client, person, f"/api/tournaments/{tid}/join")[0] == 200
    clock.ms += MINUTE
    tick(client)
    view = client.get(f"/api/tournaments/{tid}").json()
    assert {s["name"]: s["bot"] for s in view["standings"]} == {"Ann": False, "Robo": True}
    [board] = view["boards"]
    assert {board["white"]: board["white_bot"], board["black"]: board["black_bot"]} == {
        "Ann": False,
        "Robo": True,
    }


def test_the_creator_enters_the_computers_levels(client: TestClient, clock: Clock) -> None:
    """The creator enters level 1 (its bot account, made then): it is in the standings as a
    bot, and its seat in its game is the computer's, which answers a move by itself.  Anyone
    else is refused (403), as is a level the game has not (400), and a level entered twice
    (409): nothing changes."""
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    tid = create(client, ann, system="roundrobin", rounds=None)[1]["id"]
    assert post(client, bob, f"/api/tournaments/{tid}/computer", level=1)[0] == 403
    status, answer = post(client, ann, f"/api/tournaments/{tid}/computer", level=99)
    assert status == 400 and "levels 1 to" in answer["error"]
    assert post(client, ann, f"/api/tournaments/{tid}/computer", level=1)[0] == 200
    assert post(client, ann, f"/api/tournaments/{tid}/computer", level=1)[0] == 409
    assert post(client, ann, f"/api/tournaments/{tid}/join")[0] == 200
    view = client.get(f"/api/tournaments/{tid}").json()
    assert view["creator"] == "Ann"
    assert {s["name"]: s["bot"] for s in view["standings"]} == {
        "morris-level-1": True,
        "Ann": False,
    }
    clock.ms += MINUTE
    tick(client)
    [board] = client.get(f"/api/tournaments/{tid}").json()["boards"]
    game = board["url"].rsplit("/", 1)[1]
    seats = client.get(f"/api/games/{game}").json()["players"]
    level = "white" if board["white"] == "morris-level-1" else "black"
    person = "black" if level == "white" else "white"
    assert (seats[level]["kind"], seats[person]["kind"]) == ("computer", "human")
    if level == "black":  # Ann moves first
        moved = post(client, ann, f"/api/games/{game}/actions", type="move", move="a1", ply=0)
        assert moved[0] == 200, moved
    deadline = time.monotonic() + 60  # (the computer's move: the hub's duties, a worker's)
    while client.get(f"/api/games/{game}").json()["ply"] < (2 if level == "black" else 1):
        assert time.monotonic() < deadline, "the computer did not move"
        tick(client)
        time.sleep(0.05)


def test_the_pass_advances_the_tournaments_that_wait_as_advancing_all_would(
    client: TestClient, clock: Clock
) -> None:
    """Games ended behind the server's back (their boards' results written in the database,
    as by a process stopped before it advanced their tournaments): the scheduler's pass reads
    only the running tournaments that wait (:func:`_waiting`), and they are exactly those that
    advancing every running tournament, as the pass used to, changes: a Swiss whose round is
    over and an arena with players free, not a Swiss with a game in play nor an arena with one
    player free; then both arenas, past their end."""
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    people = [sign_up(client, name) for name in ["Ann", "Bob", "Cid", "Dee"]]
    arena = {"system": "arena", "rounds": None, "minutes": 30}
    made = {
        "swiss over": create(client, people[0])[1]["id"],
        "swiss playing": create(client, people[0])[1]["id"],
        "arena free": create(client, people[0], **arena)[1]["id"],
        "arena one free": create(client, people[0], **arena)[1]["id"],
    }
    named = {tid: name for name, tid in made.items()}
    for name, tid in made.items():
        for person in people[: 3 if name == "arena one free" else 4]:
            assert post(client, person, f"/api/tournaments/{tid}/join")[0] == 200
    clock.ms += MINUTE
    tick(client)

    def end_behind_the_back(tid: str, every: bool) -> None:
        """Its games in play over (or the first only), in the database alone."""
        first = select(func.min(BoardRow.id)).where(BoardRow.tournament_id == tid)
        ended = update(BoardRow).where(BoardRow.tournament_id == tid, BoardRow.result == "*")
        if not every:
            ended = ended.where(BoardRow.id == first.scalar_subquery())
        work = lambda c: c.execute(ended.values(result="1-0"))  # noqa: E731
        client.portal.call(services.store.write, work)  # type: ignore[union-attr]

    end_behind_the_back(made["swiss over"], every=True)
    end_behind_the_back(made["swiss playing"], every=False)
    end_behind_the_back(made["arena free"], every=True)

    async def waiting() -> set[str]:
        async with services.store.session() as session:
            return {named[tid] for tid in await session.scalars(_waiting(services.hub.now()))}

    async def running() -> dict[str, tuple[int, str]]:
        async with services.store.session() as session:
            rows = await session.scalars(
                select(TournamentRow).where(TournamentRow.state == RUNNING)
            )
            return {named[row.id]: (row.round, row.state) for row in rows}

    async def changed_by_advancing_all() -> set[str]:
        before = await running()
        for name in before:
            await services.tournaments._advance(made[name])
        after = await running()
        return {name for name in before if after.get(name) != before[name]}

    call = client.portal.call  # type: ignore[union-attr]
    assert call(waiting) == {"swiss over", "arena free"}
    assert call(changed_by_advancing_all) == {"swiss over", "arena free"}
    assert call(waiting) == set()
    clock.ms += 31 * MINUTE
    assert call(waiting) == {"arena free", "arena one free"}
    tick(client)
    views = {name: client.get(f"/api/tournaments/{tid}").json() for name, tid in made.items()}
    assert {name: (view["state"], view["round"]) for name, view in views.items()} == {
        "swiss over": ("running", 2),
        "swiss playing": ("running", 1),
        "arena free": ("finished", 2),
        "arena one free": ("finished", 1),
    }

"""The puzzle API (docs/web.md) on SQLite and PostgreSQL: answers judged against the stored line
(the engine replaying it here), puzzle ratings for accounts moved as a second Glicko-2
implementation says and counted once, the daily puzzle chosen by the date alone, streak and
rush runs in rising difficulty, own puzzles accepted only with a unique solution, and bad input
refused with a sentence, changing nothing."""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

import ludoteca
from ludoteca.server.store import now
from ludoteca.server.study.puzzles import NEAREST, daily, library
from ludoteca.server.study.training import PuzzleRunRow
from ludoteca.study import puzzles as generator
from ludoteca.study.puzzles import Puzzle

from ..support import glicko2_reference
from ..support.postgres import sqlite_only
from ..support.seen import seen_record
from .test_server_community import Person, acting, query, sign_up

NEW = (1500.0, 350.0, 0.06)


def shipped(rules: str) -> list[Puzzle]:
    """The shipped puzzles of a rule set, read from the package's file here."""
    path = next(p for p in generator.shipped() if p.name == f"{rules}{generator.SUFFIX}")
    return [puzzle for _, puzzle in generator.read(path)]


def by_id() -> dict[str, Puzzle]:
    return {p.id: p for path in generator.shipped() for _, p in generator.read(path)}


def after(puzzle: Puzzle, plies: int) -> ludoteca.core.State:
    """The engine's position after the first ``plies`` moves of a puzzle's line."""
    state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    for move in puzzle.line[:plies]:
        state.push(move)
    return state


def answer(
    client: TestClient,
    puzzle: Puzzle,
    moves: list[str],
    person: Person | None = None,
    run: str | None = None,
) -> Any:
    with acting(client, person) as csrf:
        return client.post(
            f"/api/puzzles/{puzzle.id}/answer", json={"moves": moves, "run": run}, headers=csrf
        )


def solve(
    client: TestClient, puzzle: Puzzle, person: Person | None = None, run: str | None = None
) -> dict[str, Any]:
    """Play a puzzle's whole solution, checking each reply; the last answer."""
    mine = list(puzzle.line[::2])
    for i in range(1, len(mine) + 1):
        got = answer(client, puzzle, mine[:i], person, run)
        assert got.status_code == 200, got.text
        data: dict[str, Any] = got.json()
        if i < len(mine):
            assert data["verdict"] == "right" and data["reply"] == puzzle.line[2 * i - 1]
            assert data["position"]["code"] == after(puzzle, 2 * i).position_code()
    assert data["verdict"] == "solved"
    return data


def wrong_move(puzzle: Puzzle) -> str:
    """A legal first move that is not the solution's."""
    state = after(puzzle, 0)
    solution = state.parse_move(puzzle.line[0]).code
    return next(str(state.move_of(c)) for c in state.legal_codes() if c != solution)


def execute(client: TestClient, statement: Any) -> None:
    """Change the app's database in a transaction of its own store."""
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def write() -> None:
        await store.write(lambda connection: connection.execute(statement))

    client.portal.call(write)  # type: ignore[union-attr]


def counts(client: TestClient) -> tuple[int, ...]:
    tables = ("puzzle_attempts", "puzzle_ratings", "puzzle_players", "puzzle_runs", "own_puzzles")
    return tuple(query(client, f"SELECT COUNT(*) FROM {t}")[0][0] for t in tables)


def test_a_puzzle_is_played_and_rated_once_by_glicko2(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    long, short, third = [p for p in shipped("felli") if len(p.line) >= 3][:3]
    view = client.get(f"/api/puzzles/{long.id}").json()
    assert view["rating"] == long.difficulty and view["moves"] == (len(long.line) + 1) // 2
    assert view["position"]["code"] == after(long, 0).position_code()
    assert "line" not in view and long.line[2] not in str(view)  # the solution stays hidden
    # a guest plays unrated: nothing is stored
    assert solve(client, long)["rating"] is None
    assert counts(client)[:3] == (0, 0, 0)
    # Ann solves it: both ratings move as the reference says
    done = solve(client, long, ann)
    assert [f["pieces"] for f in done["frames"]][-1] == after(long, len(long.line)).pieces()
    mine = glicko2_reference.rate(*NEW, [(long.difficulty, 350.0, 1.0)])
    its = glicko2_reference.rate(long.difficulty, 350.0, 0.06, [(1500.0, 350.0, 0.0)])
    assert done["rating"]["before"] == 1500.0
    assert abs(done["rating"]["after"] - mine[0]) < 0.01
    assert client.get(f"/api/puzzles/{long.id}").json()["rating"] == round(its[0])
    # counted once: a wrong move, or solving it again, changes nothing
    before = query(client, "SELECT rating, deviation FROM puzzle_players")
    assert answer(client, long, [wrong_move(long)], ann).json() == {
        "verdict": "wrong",
        "reply": None,
        "position": None,
        "rating": None,
    }
    assert solve(client, long, ann)["rating"] is None
    assert query(client, "SELECT rating, deviation FROM puzzle_players") == before
    # a wrong first move on another puzzle counts as failed, from the rating Ann has now
    failed = answer(client, short, [wrong_move(short)], ann).json()
    assert failed["verdict"] == "wrong" and failed["rating"]["change"] < 0
    expected = glicko2_reference.rate(mine[0], mine[1], mine[2], [(short.difficulty, 350.0, 0.0)])
    assert abs(failed["rating"]["after"] - expected[0]) < 0.05  # (widened for a few seconds)
    # asking for the solution first counts as failed too, and shows it
    with acting(client, ann) as csrf:
        shown = client.post(f"/api/puzzles/{third.id}/solution", headers=csrf).json()
    assert shown["line"] == list(third.line) and shown["rating"]["change"] < 0
    with acting(client, ann):
        me = client.get("/api/puzzles/me").json()
    assert me["attempts"] == 3 and [h["solved"] for h in me["history"]] == [False, False, True]
    assert [h["puzzle"] for h in me["history"]] == [third.id, short.id, long.id]
    assert me["history"][0]["rating"] == me["rating"]
    assert client.get("/api/puzzles/me").status_code == 401  # guests have no history


@sqlite_only
def test_every_rule_set_with_puzzles_is_offered_by_its_title(client: TestClient) -> None:
    sets = client.get("/api/puzzles/sets").json()
    files = {p.name.removesuffix(generator.SUFFIX): p for p in generator.shipped()}
    assert {s["rules"] for s in sets} == set(files)
    for offered in sets:
        found = shipped(offered["rules"])
        assert offered["count"] == len(found)
        assert list(offered["themes"]) == sorted({p.theme for p in found})
        assert offered["title"] == ludoteca.load(offered["rules"]).rules_title
    assert len({s["title"] for s in sets}) == len(sets)  # told apart by their titles


def test_bad_input_gets_a_sentence_and_changes_nothing(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    first, other = [p for p in shipped("morris") if len(p.line) >= 3][:2]
    before = counts(client)
    illegal = answer(client, first, ["a1-b9"], ann)
    assert illegal.status_code == 400 and "not a move of this position" in illegal.json()["error"]
    # the answer of another puzzle: its moves do not follow this one's line
    foreign = answer(client, other, [first.line[0], first.line[2]], ann)
    assert foreign.status_code in (400, 409), foreign.text
    assert "error" in foreign.json()
    skipped = answer(client, first, [wrong_move(first), first.line[2]], ann)
    assert skipped.status_code == 409 and "start it again" in skipped.json()["error"]
    longer = answer(client, first, [*first.line[::2], first.line[0]], ann)
    assert longer.status_code == 409
    with acting(client, ann) as csrf:
        missing = client.post(
            "/api/puzzles/0123456789abcdef/answer", json={"moves": ["d6"]}, headers=csrf
        )
        assert missing.status_code == 404 and "no puzzle" in missing.json()["error"]
        assert client.get("/api/puzzles/not-a-puzzle-id").status_code in (400, 404)
        assert client.get("/puzzles/0123456789abcdef").status_code == 404  # the page
        empty = client.post(f"/api/puzzles/{first.id}/answer", json={"moves": []}, headers=csrf)
        assert empty.status_code == 400
        unknown = client.get("/api/puzzles/next", params={"rules": "no-such-rules"})
        assert unknown.status_code == 400 and "no puzzles" in unknown.json()["error"]
        # a run id the server cannot have made (PostgreSQL refuses a NUL in a text value)
        for run in ("\x00", "a b", "a/b"):
            forged = client.post(
                f"/api/puzzles/{first.id}/answer", json={"moves": ["d6"], "run": run}, headers=csrf
            )
            assert forged.status_code == 400 and "run" in forged.json()["error"], forged.text
        assert client.get("/api/puzzles/runs/%00").status_code == 400
    assert counts(client) == before
    # a flood of answers is refused past the limit, uncounted
    codes = [answer(client, first, [wrong_move(first)]).status_code for _ in range(95)]
    assert codes.count(429) >= 5 and set(codes) == {200, 429}
    refused = answer(client, first, [wrong_move(first)], ann)
    assert refused.status_code == 429 and "too many answers" in refused.json()["error"]
    assert counts(client) == before


def test_the_daily_puzzle_is_chosen_by_the_utc_date(client: TestClient) -> None:
    today = datetime.datetime.now(datetime.UTC).date()
    every = sorted(by_id())
    digest = int(hashlib.sha256(today.isoformat().encode()).hexdigest(), 16)
    first = client.get("/api/puzzles/daily").json()
    if first["date"] != today.isoformat():  # midnight passed between the two readings
        today = datetime.date.fromisoformat(first["date"])
        digest = int(hashlib.sha256(today.isoformat().encode()).hexdigest(), 16)
    assert first["id"] == every[digest % len(every)]
    expected = by_id()[first["id"]]
    assert first["rules_title"] == ludoteca.load(expected.rules).rules_title
    assert client.get("/api/puzzles/daily").json()["id"] == first["id"]
    days = [today + datetime.timedelta(days=i) for i in range(30)]
    chosen = [daily(day).id for day in days]
    assert chosen == [daily(day).id for day in days]  # the same for everyone, every time
    assert len(set(chosen)) > 20  # and not the same every day


def run_answer(client: TestClient, run: dict[str, Any], moves: list[str], person: Person) -> Any:
    puzzle = by_id()[run["puzzle"]["id"]]
    return answer(client, puzzle, moves, person, run["id"])


def test_a_streak_rises_in_difficulty_and_ends_at_the_first_mistake(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    with acting(client, ann) as csrf:
        run = client.post(
            "/api/puzzles/runs", json={"mode": "streak", "rules": "felli"}, headers=csrf
        ).json()
    assert run["mode"] == "streak" and run["score"] == 0 and not run["over"]
    seen = []
    for solved in range(1, 4):
        puzzle = by_id()[run["puzzle"]["id"]]
        seen.append(puzzle)
        with acting(client, ann) as csrf:  # no peeking at the run's puzzle
            peek = client.post(f"/api/puzzles/{puzzle.id}/solution", headers=csrf)
            assert peek.status_code == 409 and "finish the run" in peek.json()["error"]
        # an answer for another puzzle than the run's is refused and changes nothing
        other = next(p for p in shipped("felli") if p.id != puzzle.id)
        refused = answer(client, other, [other.line[0]], ann, run["id"])
        assert refused.status_code == 409 and "the run is on puzzle" in refused.json()["error"]
        run = solve(client, puzzle, ann, run["id"])["run"]
        assert run["score"] == solved and not run["over"]
        # the same last answer again: that puzzle of the run is no longer the current one
        assert answer(client, puzzle, list(puzzle.line[::2]), ann, run["id"]).status_code == 409
    assert [p.difficulty for p in seen] == sorted(p.difficulty for p in seen)
    assert by_id()[run["puzzle"]["id"]].difficulty >= seen[-1].difficulty
    last = by_id()[run["puzzle"]["id"]]
    ended = run_answer(client, run, [wrong_move(last)], ann).json()
    assert ended["verdict"] == "wrong" and ended["run"]["over"] and ended["run"]["score"] == 3
    assert ended["run"]["puzzle"] is None and ended["rating"] is None  # runs are unrated
    assert run_answer(client, run, [last.line[0]], ann).status_code == 409
    with acting(client, ann):
        me = client.get("/api/puzzles/me").json()
    assert me["best_streak"] == 3 and me["attempts"] == 0
    # another player cannot answer in Ann's run
    bob = sign_up(client, "Bob")
    assert run_answer(client, run, [last.line[0]], bob).status_code == 404


def test_a_rush_ends_at_three_mistakes_or_when_its_time_is_up(client: TestClient) -> None:
    ann = sign_up(client, "Ann")

    def start() -> dict[str, Any]:
        with acting(client, ann) as csrf:
            found: dict[str, Any] = client.post(
                "/api/puzzles/runs", json={"mode": "rush", "rules": "morris-6"}, headers=csrf
            ).json()
            return found

    run = start()
    assert 170 < run["seconds_left"] <= 180
    run = solve(client, by_id()[run["puzzle"]["id"]], ann, run["id"])["run"]
    for mistakes in range(1, 4):
        puzzle = by_id()[run["puzzle"]["id"]] if run["puzzle"] else None
        assert puzzle is not None
        run = run_answer(client, run, [wrong_move(puzzle)], ann).json()["run"]
        assert run["mistakes"] == mistakes and run["over"] == (mistakes == 3)
    assert run["score"] == 1
    # a rush whose time is up takes no answer; reading it ends it
    late = start()
    execute(client, update(PuzzleRunRow).where(PuzzleRunRow.id == late["id"]).values(ends=now()))
    refused = run_answer(client, late, [late["puzzle"]["position"]["legal"][0].split()[0]], ann)
    assert refused.status_code == 409 and "time is up" in refused.json()["error"]
    with acting(client, ann):
        assert client.get(f"/api/puzzles/runs/{late['id']}").json()["over"]
        assert client.get("/api/puzzles/me").json()["best_rush"] == 1
    with acting(client, ann) as csrf:
        wrong = client.post(
            "/api/puzzles/runs", json={"mode": "marathon", "rules": "felli"}, headers=csrf
        )
        assert wrong.status_code == 400
    # runs of more than a week ago are forgotten when another starts; the bests stay
    week = datetime.timedelta(days=8)
    execute(
        client,
        update(PuzzleRunRow).where(PuzzleRunRow.id == late["id"]).values(started=now() - week),
    )
    start()
    ids = {row[0] for row in query(client, "SELECT id FROM puzzle_runs")}
    assert late["id"] not in ids and run["id"] in ids and len(ids) == 2
    with acting(client, ann):
        assert client.get("/api/puzzles/me").json()["best_rush"] == 1


def test_an_own_puzzle_is_accepted_only_with_a_unique_solution(client: TestClient) -> None:
    known = by_id()
    found = next(
        p
        for seed in range(50, 80)
        for p in generator.generate("felli", 1, seed=seed)
        if p.id not in known and len(p.line) >= 3
    )
    ann = sign_up(client, "Ann")
    with acting(client, ann) as csrf:
        made = client.post(
            "/api/puzzles/own",
            json={"game": "felli", "rules": "felli", "position": found.position},
            headers=csrf,
        )
        assert made.status_code == 201, made.text
        assert made.json()["id"] == found.id and made.json()["own"]
        # the same position again: the same puzzle, stored once
        again = client.post(
            "/api/puzzles/own", json={"game": "felli", "position": found.position}, headers=csrf
        )
        assert again.json()["id"] == found.id
    assert counts(client)[4] == 1
    assert client.get(f"/puzzles/{found.id}").status_code == 200  # playable by its link
    assert solve(client, found, ann)["rating"] is None  # own puzzles are unrated
    # an endgame table the rule set's shipped puzzles use judges where the whole is not built
    mullah = next(
        p
        for seed in range(90, 120)
        for p in generator.generate("felli-mullah", 1, seed=seed, men=3)
        if p.id not in known
    )
    made = client.post(
        "/api/puzzles/own",
        json={"game": "felli", "rules": "felli-mullah", "position": mullah.position},
    )
    assert made.status_code == 201 and made.json()["id"] == mullah.id
    assert counts(client)[4] == 2
    # refused: the solved table finds no single winning move at the start
    start = ludoteca.load("felli").new().position_code()
    refused = client.post("/api/puzzles/own", json={"game": "felli", "position": start})
    assert refused.status_code == 422 and "solved table" in refused.json()["error"]
    impossible = client.post("/api/puzzles/own", json={"game": "felli", "position": "www/www"})
    assert impossible.status_code == 400 and impossible.json()["error"]
    assert counts(client)[4] == 2


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.integers(0, 3),
    moves=st.lists(
        st.one_of(st.text(max_size=20), st.sampled_from(["a1-b2", "d6", "b4-c4", "a1xc3xe5"])),
        max_size=5,
    ),
    run=st.none() | st.text(max_size=40),
    solution=st.booleans(),
)
def test_random_answers_get_no_500_and_count_once(
    client: TestClient, which: int, moves: list[str], run: str | None, solution: bool
) -> None:
    puzzle = shipped("felli")[which]
    state = client.app.state  # type: ignore[attr-defined]
    if not hasattr(state, "fuzzer"):  # one account for all the examples
        state.fuzzer = sign_up(client, "Fuzz")
    path = f"/api/puzzles/{puzzle.id}/{'solution' if solution else 'answer'}"
    with acting(client, state.fuzzer) as csrf:
        got = client.post(path, json={"moves": moves, "run": run}, headers=csrf)
    assert got.status_code < 500, got.text
    assert "error" in got.json() or got.status_code == 200
    counted = query(client, "SELECT puzzle_id FROM puzzle_attempts")
    assert len(counted) == len({row[0] for row in counted})  # one per player and puzzle


def next_for_guest(client: TestClient, rules: str, edition: str, marked: int) -> Any:
    client.cookies.clear()
    params = {"rules": rules, "edition": edition, "seen": seen_record(marked)}
    return client.get("/api/puzzles/next", params=params)


@sqlite_only
def test_a_guest_is_shown_no_puzzle_twice_until_the_whole_set_is_spent(
    client: TestClient,
) -> None:
    """A guest's browser marks the puzzles it has shown, a bit each by their number in the
    set's edition: with every puzzle of the largest set but its two hardest marked (far past
    any list of ids a URL could hold), the next draws are those two, then, the set spent,
    the puzzles near the guest's level again.  A record of another edition marks nothing; a
    record that is not one, or marks a number past the set's end, is refused."""
    rules = max(library().by_rules, key=lambda r: len(library().by_rules[r]))
    puzzles = shipped(rules)
    assert len(puzzles) > 2000
    numbers = {p.id: n for n, p in enumerate(sorted(puzzles, key=lambda p: p.id))}
    edition = hashlib.sha256(",".join(sorted(numbers)).encode()).hexdigest()[:12]
    hardest = sorted(puzzles, key=lambda p: (p.difficulty, p.id))[-2:]
    every = (1 << len(puzzles)) - 1
    marked = every & ~sum(1 << numbers[p.id] for p in hardest)
    drawn = []
    for _ in range(2):
        view = next_for_guest(client, rules, edition, marked).json()
        assert (view["edition"], view["number"]) == (edition, numbers[view["id"]])
        drawn.append(view["id"])
        marked |= 1 << view["number"]
    assert sorted(drawn) == sorted(p.id for p in hardest)
    # spent: the draw is among those nearest 1500 again, as it is for another edition's record
    near = sorted(puzzles, key=lambda p: (abs(p.difficulty - 1500), p.id))[:NEAREST]
    for record_of in (edition, "0" * 12):
        again = next_for_guest(client, rules, record_of, every & ~(1 << numbers[hardest[0].id]))
        assert again.status_code == 200
        if record_of == edition:
            assert again.json()["id"] == hardest[0].id
    assert next_for_guest(client, rules, edition, every).json()["id"] in {p.id for p in near}
    assert next_for_guest(client, rules, "0" * 12, marked).json()["id"] in {p.id for p in near}
    # numbers 0, 7 and 8 are the bytes 0x81 0x01: "gQE" (worked out by hand)
    assert seen_record(0b1_1000_0001) == "gQE"
    for bad in ("a+b", "a=", "x" * 5000, seen_record(every << 1)):
        refused = client.get(
            "/api/puzzles/next", params={"rules": rules, "edition": edition, "seen": bad}
        )
        assert refused.status_code == 400, bad
        assert "puzzles shown" in refused.json()["error"] or "seen" in refused.json()["error"]

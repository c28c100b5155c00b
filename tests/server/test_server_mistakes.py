"""A player's own blunders as exercises and the puzzle dashboard (docs/web.md): a blunder of a
finished game of the player's, found by its report, is offered, refused with the move played
or a worse one, solved by any move the solved table values as the best and then marked done
for the account alone; the dashboard's figures equal those counted by hand from the test's
own attempts; bad input is refused and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.core import State
from ludoteca.server.study.mistakes import mistake_id
from ludoteca.tables import Table

from .test_server_api import url
from .test_server_board_api import table_value
from .test_server_community import Person, acting, sign_up
from .test_server_puzzles import by_id
from .test_server_report import FELLI_ENDGAME, app_on, ready

#: the game played from :data:`FELLI_ENDGAME` (White a1, Black b4): Black's b4-c3 walks into
#: White's b2xd4
PLAYED = ["a1-b2", "b4-c3", "b2xd4"]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only: the store's queries are the puzzles' and the reports' (tested on both)."""
    return url(tmp_path)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(database_url)) as test_client:
        yield test_client


def felli_table() -> Table:
    solver = ludoteca.load("felli").solver()
    assert solver is not None
    return solver.load()[0]


RANK = {"win": 2, "draw": 1, "loss": 0}


def blunders(table: Table, start: State, moves: list[str]) -> list[int]:
    """The plies whose move gave away the mover's verdict by the table (each position's value
    is its best move's)."""
    found, state = [], start.copy()
    for ply, move in enumerate(moves):
        values = {c: RANK[table_value(table, state, c)[0]] for c in state.legal_codes()}
        if values[state.parse_move(move).code] < max(values.values()):
            found.append(ply)
        state.push(move)
    return found


def get(client: TestClient, person: Person | None, path: str) -> Any:
    with acting(client, person):
        return client.get(path)


def post(client: TestClient, person: Person | None, path: str, body: Any) -> Any:
    with acting(client, person) as csrf:
        return client.post(path, json=body, headers=csrf)


def test_a_blunder_of_a_finished_game_is_offered_and_solved(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    bob = sign_up(client, "Bob")
    with acting(client, ann) as csrf:  # a hot-seat game of Ann's: both seats are hers
        body = {"game": "felli", "opponent": "hotseat", "position": FELLI_ENDGAME}
        made = client.post("/api/games", json=body, headers=csrf)
        assert made.status_code == 201, made.text
        game_id, token = made.json()["id"], made.json()["tokens"]["white"]
        for ply, move in enumerate(PLAYED):
            intent = {"token": token, "type": "move", "move": move, "ply": ply}
            played = client.post(f"/api/games/{game_id}/actions", json=intent, headers=csrf)
            assert played.status_code == 200, played.text
    assert get(client, ann, "/api/puzzles/mistakes").json()["exercises"] == []  # no report yet
    with acting(client, ann):
        ready(client, f"/api/games/{game_id}/report")
    table = felli_table()
    start = ludoteca.load("felli").from_position_code(FELLI_ENDGAME)
    assert blunders(table, start, PLAYED) == [1]  # by the table: b4-c3 alone
    listed = get(client, ann, "/api/puzzles/mistakes").json()
    assert listed["done"] == 0
    assert [
        (e["game_id"], e["ply"], e["player"], e["played"], e["done"]) for e in listed["exercises"]
    ] == [(game_id, 1, "black", "b4-c3", False)]
    assert listed["exercises"][0]["id"] == mistake_id(game_id, 1)
    # the exercise: the position after a1-b2, Black to move, its legal moves
    position = start.child(PLAYED[0])
    shown = get(client, ann, f"/api/puzzles/mistakes/{game_id}/1").json()
    assert shown["position"]["code"] == position.position_code()
    assert shown["player"] == "black" and len(shown["position"]["legal"]) == len(
        position.legal_codes()
    )
    # by the table: the moves that keep the draw, and those that lose
    values = {
        str(position.move_of(c)): table_value(table, position, c) for c in position.legal_codes()
    }
    keeping = sorted(m for m, (verdict, _plies) in values.items() if verdict == "draw")
    losing = sorted(m for m, (verdict, _plies) in values.items() if verdict == "loss")
    assert keeping and "b4-c3" in losing
    path = f"/api/puzzles/mistakes/{game_id}/1/answer"
    for move in losing:
        wrong = post(client, ann, path, {"move": move}).json()
        assert (wrong["verdict"], wrong["done"], wrong["better"]) == ("wrong", False, [])
    # refused: an illegal move, another player, a ply that is not a blunder; nothing changes
    assert post(client, ann, path, {"move": "a5-a1"}).status_code == 400
    assert post(client, bob, path, {"move": keeping[0]}).status_code == 404
    assert (
        post(
            client, ann, f"/api/puzzles/mistakes/{game_id}/0/answer", {"move": "a1-b2"}
        ).status_code
        == 404
    )
    assert post(client, None, path, {"move": keeping[0]}).status_code == 401
    assert get(client, bob, "/api/puzzles/mistakes").json() == {"exercises": [], "done": 0}
    assert get(client, ann, "/api/puzzles/mistakes").json() == listed
    solved = post(client, ann, path, {"move": keeping[-1]}).json()
    assert (solved["verdict"], solved["done"], solved["exact"]) == ("solved", True, True)
    assert sorted(solved["better"]) == keeping
    again = get(client, ann, "/api/puzzles/mistakes").json()
    assert again["done"] == 1 and again["exercises"][0]["done"]
    assert get(client, ann, f"/api/puzzles/mistakes/{game_id}/1").json()["done"]
    # solving it again keeps one mark; it is no puzzle of the history or the dashboard
    assert post(client, ann, path, {"move": keeping[0]}).json()["verdict"] == "solved"
    assert get(client, ann, "/api/puzzles/mistakes").json() == again
    assert get(client, ann, "/api/puzzles/me").json()["history"] == []
    assert get(client, ann, "/api/puzzles/dashboard").json()["attempts"] == 0


#: the test's attempts at shipped Felli puzzles (each solved in one move): id, theme and
#: difficulty as the package's file has them, and whether it is solved
ATTEMPTS = [
    ("c30eacddb13454c5", "quiet move", 1230, True),
    ("89141e9fb685402c", "quiet move", 1230, False),  # the solution asked for
    ("534e581d3f68f5f3", "quiet move", 1240, False),  # a wrong move
    ("fc380fb94c9fe3e8", "quiet move", 1340, False),  # the solution asked for
    ("fcc62f95f53d5c1c", "capture", 1120, True),
    ("e3faf030df9cf233", "capture", 1110, False),  # the solution asked for
]


def test_the_dashboard_counts_the_attempts_by_theme_and_difficulty(client: TestClient) -> None:
    cy = sign_up(client, "Cyd")
    assert get(client, None, "/api/puzzles/dashboard").status_code == 401
    empty = get(client, cy, "/api/puzzles/dashboard").json()
    assert empty == {
        "attempts": 0,
        "solved": 0,
        "rate": None,
        "themes": [],
        "bands": [],
        "missed": [],
    }
    puzzles = by_id()
    for number, (puzzle_id, theme, difficulty, solve) in enumerate(ATTEMPTS):
        puzzle = puzzles[puzzle_id]
        assert (puzzle.theme, puzzle.difficulty, len(puzzle.line)) == (theme, difficulty, 1)
        path = f"/api/puzzles/{puzzle_id}"
        if solve:
            answer = post(client, cy, f"{path}/answer", {"moves": [puzzle.line[0]]}).json()
            assert answer["verdict"] == "solved"
        elif number == 2:
            state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
            other = next(
                str(state.move_of(c))
                for c in state.legal_codes()
                if str(state.move_of(c)) != puzzle.line[0]
            )
            assert (
                post(client, cy, f"{path}/answer", {"moves": [other]}).json()["verdict"] == "wrong"
            )
        else:
            assert post(client, cy, f"{path}/solution", {}).status_code == 200
    found = get(client, cy, "/api/puzzles/dashboard").json()
    # counted by hand from ATTEMPTS: 2 of 6 solved; quiet moves 1 of 4, captures 1 of 2;
    # difficulties 1000-1199: 1 of 2 (1120 solved, 1110 missed), 1200-1399: 1 of 4
    assert (found["attempts"], found["solved"], found["rate"]) == (6, 2, 0.333)
    assert [(t["theme"], t["attempts"], t["solved"], t["rate"]) for t in found["themes"]] == [
        ("quiet move", 4, 1, 0.25),
        ("capture", 2, 1, 0.5),
    ]
    assert [
        (b["low"], b["high"], b["attempts"], b["solved"], b["rate"]) for b in found["bands"]
    ] == [
        (1000, 1199, 2, 1, 0.5),
        (1200, 1399, 4, 1, 0.25),
    ]
    assert [(m["theme"], m["missed"], m["rules"], m["url"]) for m in found["missed"]] == [
        ("quiet move", 3, "felli", "/puzzles?rules=felli&theme=quiet+move"),
        ("capture", 1, "felli", "/puzzles?rules=felli&theme=capture"),
    ]
    # in French: the themes' words are translated, the figures are the same
    with acting(client, cy):
        french = client.get("/api/puzzles/dashboard", headers={"Accept-Language": "fr"}).json()
    assert french["themes"][0]["theme"] == "quiet move"
    assert french["themes"][0]["theme_text"] != "quiet move"
    assert french["bands"] == found["bands"]

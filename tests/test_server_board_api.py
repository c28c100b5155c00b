"""The analysis board's JSON routes: its tree written as a record with variations and read
back, and every legal move's value (exact from a solved table, in lichess's order)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca import record
from ludoteca.core import State
from ludoteca.gametree import GameTree
from ludoteca.tables import Table

from .test_server_api import url

SAMPLE = (
    '[Game "morris"]\n[Rules "morris"]\n[Result "*"]\n\n'
    "{[%csl Ga1] start} 1. a1 {[%cal Ra1-d1,Ba1-g7]} b6! (1... b4 {[%csl Yb4] other} 2. d1\n"
    "(2. g1!?) 2... d2) (1... b2) 2. d1 *\n"
)
#: a Felli ending the whole-game table covers: White a1, d2; Black b4, c3 (wins and losses)
FELLI = ".../b.././.w./w.. w 0 0"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The routes read no stored game: SQLite only."""
    return url(tmp_path)


def test_a_record_with_variations_opens_as_a_tree_and_is_written_back(client: TestClient) -> None:
    opened = client.post("/api/analysis/tree", json={"record": SAMPLE})
    assert opened.status_code == 200, opened.text
    board = opened.json()
    assert (board["game"], board["rules"]) == ("morris", "morris")
    assert GameTree.from_json(board["tree"]) == record.loads(SAMPLE).tree
    assert board["tree"]["shapes"] == [{"brush": "green", "orig": "a1"}]
    written = client.post("/api/analysis/record", json=board)
    assert written.status_code == 200, written.text
    again = record.loads(written.json()["record"])
    assert again.tree == record.loads(SAMPLE).tree


def test_a_bad_move_in_a_variation_is_refused_with_its_path(client: TestClient) -> None:
    tree = {"moves": [{"move": "a1"}, {"move": "b6", "variations": [{"moves": [{"move": "a1"}]}]}]}
    answer = client.post("/api/analysis/record", json={"game": "morris", "tree": tree})
    assert answer.status_code == 400
    assert "in the variation replacing 1... b6: ply 2 (a1)" in answer.json()["error"]
    answer = client.post("/api/analysis/tree", json={"record": SAMPLE.replace("(2. g1", "((")})
    assert answer.status_code == 400 and "a variation before any move" in answer.json()["error"]
    shapes = [{"brush": "red", "orig": "a1", "dest": "z9"}]
    tree = {"moves": [{"move": "a1", "shapes": shapes}]}
    answer = client.post("/api/analysis/record", json={"game": "morris", "tree": tree})
    assert answer.status_code == 400
    assert "a shape on z9, which is not a point of this board" in answer.json()["error"]


def table_value(table: Table, state: State, code: int) -> tuple[str, int | None]:
    """The mover's value of ``code`` read from the table (the game's own end where it ends)
    and the plies to the end counting the move."""
    child = state.copy()
    child.push_code(code)
    outcome = child.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return "draw", None
        return ("win" if outcome.winner is state.turn else "loss"), 1
    value, plies = table.lookup(child)
    return {1: "loss", 0: "draw", -1: "win"}[value], None if value == 0 else plies + 1


def lichess_order(row: tuple[str, int | None]) -> tuple[int, int]:
    verdict, plies = row
    if verdict == "win":
        return (0, plies or 0)
    return (1, 0) if verdict == "draw" else (2, -(plies or 0))


def test_every_move_of_a_tabled_position_has_the_tables_value(client: TestClient) -> None:
    solver = ludoteca.load("felli").solver()
    assert solver is not None
    table = solver.load()[0]
    state = ludoteca.load("felli").from_position_code(FELLI)
    answer = client.get("/api/analysis/moves", params={"rules": "felli", "position": FELLI})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["exact"] and found["depth"] is None
    expected = {str(state.move_of(c)): table_value(table, state, c) for c in state.legal_codes()}
    rows = [(m["move"], (m["verdict"], m["plies"])) for m in found["moves"]]
    assert dict(rows) == expected
    assert len({verdict for _move, (verdict, _plies) in rows}) > 1  # not all alike
    assert [value for _move, value in rows] == sorted(expected.values(), key=lichess_order)
    assert all(m["exact"] for m in found["moves"])


def test_a_position_no_table_covers_gets_the_searchs_scores(client: TestClient) -> None:
    answer = client.get("/api/analysis/moves", params={"rules": "morris"})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert not found["exact"] and found["depth"] == 2 and len(found["moves"]) == 24
    scores = [m["score"] for m in found["moves"]]
    assert scores == sorted(scores, reverse=True)
    bad = client.get("/api/analysis/moves", params={"rules": "morris", "position": "junk"})
    assert bad.status_code == 400

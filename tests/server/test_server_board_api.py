"""The analysis board's JSON routes: its tree written as a record with variations and read
back, and every legal move's value (exact from a solved table, in lichess's order)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


#: a Nine Men's Morris ending of three men a side (flying), White to move: wins, draws and
#: losses among its 54 moves, by the three-men table (hand-checked: built below)
MORRIS_ENDING = ".../.../.../BW.B../..W/.../.BW w 0 0 0 30"


@functools.cache
def three_men_table() -> Table:
    """The Nine Men's Morris table of three men a side (built once a run, about 15 s), which
    a server reads too (the largest built covers the endings)."""
    from ludoteca.games.morris.table import MorrisSolver

    return MorrisSolver(ludoteca.load("morris").rules, 3).load()[0]


def test_every_move_of_a_tabled_morris_ending_has_the_tables_value(client: TestClient) -> None:
    morris_table = three_men_table()
    state = ludoteca.load("morris").from_position_code(MORRIS_ENDING)
    answer = client.get(
        "/api/analysis/moves", params={"rules": "morris", "position": MORRIS_ENDING}
    )
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["exact"] and found["depth"] is None and len(found["moves"]) == 54
    expected = {
        str(state.move_of(c)): table_value(morris_table, state, c) for c in state.legal_codes()
    }
    rows = [(m["move"], (m["verdict"], m["plies"])) for m in found["moves"]]
    assert dict(rows) == expected
    assert {verdict for _move, (verdict, _plies) in rows} == {"win", "draw", "loss"}
    assert [value for _move, value in rows] == sorted(expected.values(), key=lichess_order)


#: a Felli ending, White c3 against Black c5, White to move: a draw (hand-checked: each man
#: keeps away from the other), lost at once by c3-c4, which Black takes (c5xc3)
FELLI_DRAW = ".b./.../w/.../... w 0 0"


def practise(client: TestClient, moves: list[str], start: str = FELLI) -> Any:
    answer = client.post(
        "/api/analysis/practice", json={"game": "felli", "start": start, "moves": moves}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_practice_against_perfect_play_names_the_move_that_lost_the_value(
    client: TestClient,
) -> None:
    solver = ludoteca.load("felli").solver()
    assert solver is not None
    table = solver.load()[0]
    state = ludoteca.load("felli").from_position_code(FELLI)
    value, plies = table.lookup(state)
    assert (value, plies) == (1, 17)  # White wins in 17 plies
    start = practise(client, [])
    assert (start["player"], start["value"]["verdict"], start["value"]["plies"]) == (
        "white",
        "win",
        17,
    )
    assert start["reply"] is None and start["kept"] and start["moves"] == []
    # a move that keeps the win, and one that lets it slip, by the table
    values = {str(state.move_of(c)): table_value(table, state, c) for c in state.legal_codes()}
    keeps = next(m for m, (verdict, _plies) in values.items() if verdict == "win")
    slips = next(m for m, (verdict, _plies) in values.items() if verdict != "win")
    step = practise(client, [keeps])
    assert step["kept"] and step["lost"] is None and not step["over"]
    after = state.child(keeps)
    # the perfect player's reply keeps its value: its slowest loss, by the table
    replies = {str(after.move_of(c)): table_value(table, after, c) for c in after.legal_codes()}
    assert replies[step["reply"]] == min(replies.values(), key=lichess_order)
    # a later slip is named, not the move that kept the value before it
    keeps, reply, slip = next(later_slips(table, state))
    lost = practise(client, [keeps, reply, slip])
    assert not lost["kept"] and [m["move"] for m in lost["moves"]] == [keeps, slip]
    assert (lost["lost"]["ply"], lost["lost"]["move"]) == (3, slip)
    assert lost["lost"]["before"]["verdict"] == "win"
    position = state.child(keeps).child(reply)
    slipped = table_value(table, position, position.parse_move(slip).code)
    assert lost["lost"]["after"]["verdict"] == slipped[0]
    direct = practise(client, [slips])
    assert direct["lost"]["ply"] == 1 and direct["lost"]["move"] == slips
    assert (direct["lost"]["before"]["text"], direct["lost"]["after"]["verdict"]) == (
        "Win in 17 plies",
        values[slips][0],
    )
    assert f"ply 1, {slips}: Win in 17 plies" in direct["verdict"]


RANK = {"win": 2, "draw": 1, "loss": 0}


def later_slips(table: Table, state: State) -> Iterator[tuple[str, str, str]]:
    """Lines of a won ``state`` by the table: a move that keeps the win, a best reply, then a
    move that lets the win slip."""
    for first in state.legal_codes():
        if table_value(table, state, first)[0] != "win":
            continue
        after = state.child(state.move_of(first))
        replies = {c: table_value(table, after, c) for c in after.legal_codes()}
        best = min(replies.values(), key=lichess_order)
        for reply in (c for c, value in replies.items() if value == best):
            position = after.child(after.move_of(reply))
            for slip in position.legal_codes():
                if table_value(table, position, slip)[0] != "win":
                    moves = (state.move_of(first), after.move_of(reply), position.move_of(slip))
                    yield str(moves[0]), str(moves[1]), str(moves[2])


def test_a_practice_game_ends_when_the_perfect_player_wins(client: TestClient) -> None:
    start = practise(client, [], FELLI_DRAW)
    assert start["value"]["verdict"] == "draw"
    lost = practise(client, ["c3-c4"], FELLI_DRAW)
    assert (lost["reply"], lost["over"], lost["kept"]) == ("c5xc3", True, False)
    assert (lost["lost"]["ply"], lost["lost"]["move"]) == (1, "c3-c4")
    assert lost["lost"]["after"]["text"] == "Loss in 2 plies"
    held = practise(client, ["c3-d4"], FELLI_DRAW)
    assert held["kept"] and not held["over"] and held["reply"] is not None


def test_practice_refuses_what_it_cannot_judge(client: TestClient) -> None:
    def refused(body: dict[str, Any]) -> str:
        answer = client.post("/api/analysis/practice", json=body)
        assert answer.status_code == 400, answer.text
        return str(answer.json()["error"])

    start = ludoteca.load("morris").new(seed=0).position_code()
    assert "no solved table covers" in refused({"game": "morris", "start": start})
    assert "c3-e5" in refused({"game": "felli", "start": FELLI_DRAW, "moves": ["c3-e5"]})
    over = ".../.../w/.../... b 0 0"  # Black has no man left
    assert "game is over" in refused({"game": "felli", "start": over})
    assert refused({"game": "felli", "start": "junk"})

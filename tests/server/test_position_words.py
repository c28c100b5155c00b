"""Positions and moves in words, as the pages' blind mode reads them out (``State.describe``,
``State.move_note``, :func:`ludoteca.games.words.last_move_words`): each game's, against
positions read by hand from their codes; and a typed move checked by the server
(``POST /api/analysis/move``) in the engine's words."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.core import State
from ludoteca.games.words import last_move_words
from ludoteca.i18n import use

from .test_server_api import url

#: Morelli 9x9 (seed 0): from the top row (rank 9) down, files A to I
MORELLI = (
    "wbbwbbwbb/w.......b/w.......w/w.......b/w.......b/w.......b/b.......b/w.......b/wwbwwbwwb"
)


def played(rules: str, *moves: str) -> State:
    state = ludoteca.load(rules).new()
    for move in moves:
        state.push(move)
    return state


def test_a_morris_position_says_each_sides_men_by_point_and_in_hand() -> None:
    state = played("morris", "d6", "a1", "d2")
    assert state.describe() == (
        "White: 2 men, on d2, d6; 7 in hand. Black: 1 man, on a1; 8 in hand. Black to move."
    )
    # the same in French: the words and the plurals of the catalogue
    with use("fr"):
        assert state.describe() == (
            "Blancs : 2 pions, en d2, d6 ; 7 en main. Noirs : 1 pion, en a1 ; 8 en main. "
            "Trait aux Noirs."
        )
    # right to left, each point isolated: the list reads in its order
    with use("ar"):
        assert "\u2068d2\u2069، \u2068d6\u2069؛ 7 في اليد" in state.describe()


def test_a_morris_position_in_the_moving_phase_says_who_may_fly() -> None:
    # rows from a7 d7 g7 down to a1 d1 g1: White a1, d2, g7; Black b2, b4, d5, f6
    code = "..W/..B/.B./.B..../.../BW./W.. w 0 0 0 40"
    assert ludoteca.load("morris").from_position_code(code).describe() == (
        "White: 3 men, on a1, d2, g7. Black: 4 men, on b2, b4, d5, f6. White to move. "
        "White has three men left and may fly to any empty point."
    )


def test_morabaraba_says_cows_and_a_side_with_none_on_the_board() -> None:
    assert played("morabaraba", "a1").describe() == (
        "White: no pieces on the board; 12 in hand. Black: 1 cow, on a1; 11 in hand. White to move."
    )


def test_a_marked_point_is_said_while_men_are_placed() -> None:
    state = played("cheng-san-qi", "a1", "b2", "a4", "b4", "a7xb2")
    assert state.describe() == (
        "White: 3 men, on a1, a4, a7; 6 in hand. Black: 1 man, on b4; 7 in hand. "
        "Marked points, blocked until the last man is placed: b2. Black to move."
    )


def test_one_time_mill_says_each_sides_points_of_closed_mills() -> None:
    state = played("one-time-mill", "a1", "b2", "a4", "b4", "a7xb2", "g7")
    assert state.describe() == (
        "White: 3 men, on a1, a4, a7; 6 in hand. Black: 2 men, on b4, g7; 6 in hand. "
        "White has closed mills on a1, a4, a7; a mill on three of these points takes nothing. "
        "White to move."
    )
    with use("fr"):
        assert "Les Blancs ont fermé des moulins sur a1, a4, a7" in state.describe()


def test_a_mill_says_the_man_it_takes() -> None:
    state = played("morris", "d6", "a1", "d2", "g7", "d5", "g1", "d7xg1")
    assert last_move_words(state) == "White played d7xg1 (mill, takes g1)."
    assert last_move_words(played("morris", "d6")) == "White played d6."
    assert last_move_words(played("morris")) is None


def test_felli_says_men_and_mullahs_and_what_a_capture_does() -> None:
    assert played("felli").describe() == (
        "White: 6 men, on a1, b2, c1, c2, d2, e1. Black: 6 men, on a5, b4, c4, c5, d4, e5. "
        "White to move."
    )
    # rows a5 c5 e5 / b4 c4 d4 / c3 / b2 c2 d2 / a1 c1 e1
    game = ludoteca.load("felli-mullah")
    assert game.from_position_code("W.b/..././.../... b 0 1").describe() == (
        "White: 1 Mullah, on a5. Black: 1 man, on e5. Black to move."
    )
    state = game.from_position_code("..b/b../w/.../... w 0 0")
    state.push("c3xa5")
    assert last_move_words(state) == "White played c3xa5 (takes b4 and becomes a Mullah)."
    assert state.describe() == ("White: 1 Mullah, on a5. Black: 1 man, on e5. Black to move.")


def test_morelli_says_the_stones_and_the_throne() -> None:
    state = ludoteca.load("morelli-9").from_position_code(f"{MORELLI} b - 0")
    white = "A1, A2, A4, A5, A6, A7, A8, A9, B1, D1, D9, E1, G1, G9, H1, I7"
    black = "A3, B9, C1, C9, E9, F1, F9, H9, I1, I2, I3, I4, I5, I6, I8, I9"
    assert state.describe() == (
        f"White: 16 stones, on {white}. Black: 16 stones, on {black}. "
        "The Throne, E5, is empty. Black to move."
    )
    crowned = ludoteca.load("morelli-9").from_position_code(f"{MORELLI} w w 1")
    assert "The White King is on the Throne, E5. White to move." in crowned.describe()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A typed move is checked with no stored game: SQLite only."""
    return url(tmp_path)


def test_a_typed_move_is_checked_in_the_engines_words(client: TestClient) -> None:
    line = {"game": "morris", "moves": ["d6", "a1"]}
    answer = client.post("/api/analysis/move", json={**line, "move": "D2"})
    assert answer.status_code == 200 and answer.json() == {"move": "d2"}
    taken = client.post("/api/analysis/move", json={**line, "move": "d6"})
    assert taken.status_code == 400 and taken.json()["error"] == "d6: d6 is occupied"
    unreadable = client.post("/api/analysis/move", json={**line, "move": "z9"})
    assert unreadable.status_code == 400
    assert (
        unreadable.json()["error"] == "'z9' is not a Morris move: z9 is not a point of this board"
    )
    french = client.post(
        "/api/analysis/move", json={**line, "move": "a1-a4"}, headers={"Accept-Language": "fr"}
    )
    assert french.status_code == 400 and "main" in french.json()["error"]

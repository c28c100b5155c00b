"""The analysis board's record and move-value panels in a real browser: a pasted record with
variations opens as the board's tree and is written back equal; every legal move of a tabled
Felli and Nine Men's Morris position shows the table's value, in lichess's order; a practice
game lost against perfect play names the move that lost the value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest

import ludoteca
from ludoteca import record
from ludoteca.tables import Table

from ..server.test_server_board_api import (
    FELLI,
    FELLI_DRAW,
    MORRIS_ENDING,
    SAMPLE,
    lichess_order,
    table_value,
    three_men_table,
)
from ..support.browser import piece, point


def ready(page: Any) -> None:
    """Wait for the board to show its first position (the socket open)."""
    page.wait_for_function("document.getElementById('status').textContent.includes('to move')")


def test_a_pasted_record_opens_with_its_variations_and_is_written_back(
    page: Any, server: str
) -> None:
    page.goto(server + "/analysis?game=morris")
    ready(page)
    page.fill("#record-text", SAMPLE)
    page.click("#record-open")
    page.wait_for_selector('#tree .variation button:has-text("b4")', timeout=60_000)
    page.fill("#record-text", "")
    page.click("#record-write")
    page.wait_for_function("document.getElementById('record-text').value.includes('[Game')")
    assert record.loads(page.input_value("#record-text")).tree == record.loads(SAMPLE).tree
    page.fill("#record-text", SAMPLE.replace("(2. g1", "(("))
    page.click("#record-open")
    page.wait_for_selector("#record-text ~ .notice:not([hidden])")
    assert "a variation before any move" in page.inner_text("#record-text ~ .notice")


def felli_table() -> Table:
    solver = ludoteca.load("felli").solver()
    assert solver is not None
    return solver.load()[0]


@pytest.mark.parametrize(
    ("game", "position", "table"),
    [("felli", FELLI, felli_table), ("morris", MORRIS_ENDING, three_men_table)],
)
def test_the_every_move_panel_shows_the_tables_values(
    page: Any, server: str, game: str, position: str, table: Callable[[], Table]
) -> None:
    """Felli's whole-game table; a Nine Men's Morris ending's (three men a side)."""
    solved = table()
    state = ludoteca.load(game).from_position_code(position)
    page.goto(f"{server}/analysis?{urlencode({'game': game, 'position': position})}")
    ready(page)
    page.click("#every-move summary")
    page.wait_for_selector("#move-values li", timeout=120_000)
    shown: list[list[str]] = page.locator("#move-values li").evaluate_all(
        "items => items.map(i => [i.dataset.move, i.querySelector('.score').textContent])"
    )
    expected = {str(state.move_of(c)): table_value(solved, state, c) for c in state.legal_codes()}

    def words(value: tuple[str, int | None]) -> str:
        verdict, plies = value
        if verdict == "draw":
            return "Draw"
        return f"{verdict.title()} in {plies} {'ply' if plies == 1 else 'plies'}"

    ranked = sorted(expected, key=lambda move: lichess_order(expected[move]))
    assert [text for _move, text in shown] == [words(expected[move]) for move in ranked]
    assert {move: text for move, text in shown} == {m: words(v) for m, v in expected.items()}
    assert len({text.split()[0] for _move, text in shown}) > 1  # not all alike
    assert "solved table" in page.inner_text("#every-move")


def test_a_practice_game_lost_against_perfect_play_names_the_losing_move(
    page: Any, server: str
) -> None:
    """From a drawn Felli ending the player steps next to the enemy man, which takes it: the
    perfect player's win ends the game, and the panel names the move that lost the draw."""
    page.goto(f"{server}/analysis?{urlencode({'game': 'felli', 'position': FELLI_DRAW})}")
    ready(page)
    page.click("#practice")
    page.wait_for_function(
        "document.getElementById('practice-status').textContent.includes('You play White')"
    )
    assert "Draw" in page.inner_text("#practice-status")  # the start's value, by the table
    assert page.inner_text("#lines") == ""  # no engine lines while practising
    point(page, "c3").click()
    point(page, "c4").click()
    page.wait_for_selector('#practice-status[data-result="lost"]', timeout=60_000)
    assert page.inner_text("#practice-status") == (
        "You lost the value at ply 1, c3-c4: Draw → Loss in 2 plies."
    )
    # the perfect player's winning reply was played on the board, into the tree
    assert [b.strip() for b in page.locator("#tree button.move").all_inner_texts()] == [
        "1. c3-c4",
        "c5xc3",
    ]
    assert piece(page, "c3") and not piece(page, "c5")
    assert page.inner_text("#practice") == "Practise against perfect play"

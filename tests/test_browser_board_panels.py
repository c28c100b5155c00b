"""The analysis board's record and move-value panels in a real browser: a pasted record with
variations opens as the board's tree and is written back equal; every legal move of a tabled
Felli position shows the table's value, in lichess's order."""

from __future__ import annotations

from typing import Any

import ludoteca
from ludoteca import record

from .test_server_board_api import FELLI, SAMPLE, lichess_order, table_value


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


def test_the_every_move_panel_shows_the_tables_values(page: Any, server: str) -> None:
    felli = ludoteca.load("felli")
    solver = felli.solver()
    assert solver is not None
    table = solver.load()[0]
    state = felli.from_position_code(FELLI)
    page.goto(f"{server}/analysis?game=felli&position={FELLI}")
    ready(page)
    page.click("#every-move summary")
    page.wait_for_selector("#move-values li", timeout=120_000)
    shown: list[list[str]] = page.locator("#move-values li").evaluate_all(
        "items => items.map(i => [i.dataset.move, i.querySelector('.score').textContent])"
    )
    expected = {str(state.move_of(c)): table_value(table, state, c) for c in state.legal_codes()}

    def words(value: tuple[str, int | None]) -> str:
        verdict, plies = value
        if verdict == "draw":
            return "Draw"
        return f"{verdict.title()} in {plies} {'ply' if plies == 1 else 'plies'}"

    ranked = sorted(expected, key=lambda move: lichess_order(expected[move]))
    assert [text for _move, text in shown] == [words(expected[move]) for move in ranked]
    assert {move: text for move, text in shown} == {m: words(v) for m, v in expected.items()}
    assert "solved table" in page.inner_text("#every-move")

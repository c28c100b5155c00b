"""The study pages in a real browser: the opening explorer's counts on the analysis board after
two finished games (a move clicked in the explorer is played on the board), and a rules lesson
completed by clicking the board (a wrong move first, told why; progress kept).  On SQLite: the
explorer on PostgreSQL is tests/server/test_explorer.py's (on both databases); a lesson's progress
is the browser's."""

from __future__ import annotations

from typing import Any

from ..support.browser import piece, point

#: two finished games of Nine Men's Morris: White wins the first, Black the second
GAMES = (["a7", "g1", "d7"], ["d7", "g1", "a7", "a1"])


def finish(page: Any, server: str, moves: list[str]) -> None:
    """A hotseat game through the API: ``moves``, then the side to move resigns."""
    made = page.request.post(f"{server}/api/games", data={"game": "morris", "opponent": "hotseat"})
    assert made.ok, made.text()
    game_id, token = made.json()["id"], made.json()["tokens"]["white"]
    actions = f"{server}/api/games/{game_id}/actions"
    for ply, move in enumerate(moves):
        answer = page.request.post(
            actions, data={"token": token, "type": "move", "move": move, "ply": ply}
        )
        assert answer.ok, answer.text()
    assert page.request.post(actions, data={"token": token, "type": "resign"}).ok


def explorer_rows(page: Any) -> dict[str, tuple[str, str]]:
    """The explorer's rows: each move's games and results, as the panel shows them (read in
    one step, so that a redrawn panel is never read half old, half new)."""
    found: list[list[str]] = page.locator("#explorer-moves tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.move, ...[...r.cells].map(c => c.innerText)])"
    )
    return {move: (cells[1], cells[2]) for move, *cells in found}


def test_the_explorer_counts_two_finished_games_and_plays_a_move(page: Any, server: str) -> None:
    for moves in GAMES:
        finish(page, server, moves)
    page.goto(server + "/analysis?game=morris")
    page.wait_for_selector("#explorer-moves tr", timeout=120_000)
    assert "2 finished games" in page.inner_text("#explorer-summary")
    assert explorer_rows(page) == {"a7": ("1", "100% / 0% / 0%"), "d7": ("1", "0% / 0% / 100%")}
    # each move gets the engine's value (a "…" while it is worked out)
    page.wait_for_function(
        "[...document.querySelectorAll('#explorer-moves td:nth-child(4)')]"
        ".every((cell) => cell.textContent && cell.textContent !== '…')",
        timeout=300_000,
    )
    page.click('#explorer-moves tr[data-move="a7"] button')
    page.wait_for_selector('#tree button.current:has-text("a7")')
    page.wait_for_selector('#explorer-moves tr[data-move="g1"]', timeout=120_000)
    assert explorer_rows(page) == {"g1": ("1", "100% / 0% / 0%")}
    assert piece(page, "a7") == "w"


def test_a_lesson_is_completed_by_clicking(page: Any, server: str) -> None:
    page.goto(server + "/lessons?game=felli&lesson=chains")
    page.wait_for_selector("#board .pt")
    assert "Capture two black men" in page.inner_text("#ask")
    point(page, "d4").click()  # a single leap: legal, but not what is asked
    point(page, "b4").click()
    page.wait_for_selector('#status:has-text("takes only one man")')
    assert piece(page, "c4") == "b"  # nothing was played
    for name in ("a1", "c3", "c5"):
        point(page, name).click()
    page.wait_for_selector('#notice:has-text("Lesson complete")')
    assert piece(page, "c5") == "w"
    assert piece(page, "b2") == ""
    item = page.locator('#lessons li:has(button[data-lesson="felli/chains"])')
    assert "done" in item.inner_text()
    page.reload()  # progress is kept in the browser
    page.wait_for_selector('#lessons li.done button[data-lesson="felli/chains"]')


def test_a_removal_alone_of_da_san_qi_is_made_by_clicking(page: Any, server: str) -> None:
    page.goto(server + "/lessons?game=morris&lesson=each-mill")
    page.wait_for_selector("#board .pt")
    assert page.inner_text("#lesson-rules") == "Rule set: Da San Qi"
    # the list names the rule set of each run of the family's lessons
    headings = page.locator("#lessons h4").all_inner_texts()
    assert headings[:2] == ["Nine Men's Morris", "Twelve Men's Morris"] and "Da San Qi" in headings
    point(page, "a1").click()  # two mills at once: the first man is taken with the move
    point(page, "d2").click()
    page.wait_for_selector('#notice:has-text("Right")')
    page.click("#next-step")
    page.wait_for_selector('#ask:has-text("Step 2 of 2")')
    point(page, "g1").click()  # a removal alone, legal, but not of Black's line of two
    page.wait_for_selector('#status:has-text("not in Black\'s threatening line")')
    assert piece(page, "g1") == "b"
    point(page, "d6").click()
    page.wait_for_selector('#notice:has-text("Lesson complete")')
    assert piece(page, "d6") == ""

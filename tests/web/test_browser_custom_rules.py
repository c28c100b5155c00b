"""A custom mill game set up in the lobby's form, in Chromium (docs/rules.md "Custom rule set"):
choosing "Custom mill game" shows every option in words (the board and what a full board does
as choices), the form
shows the spec the server reads back (or its refusal, and then starts nothing), and the game
page names the rules played."""

from __future__ import annotations

from typing import Any

SPEC = "morris-custom:board=12,lasker,men=10"
TITLE = "Custom mill game (board of 24 points with diagonals, moving while placing, 10 men a side)"


def test_a_custom_game_set_up_in_the_lobby_names_its_rules_on_its_page(
    page: Any, server: str
) -> None:
    page.goto(server + "/")
    page.check('input[name="game"][value="morris"]')
    page.select_option("#rules", "morris-custom")
    board = page.locator('#settings select[name="board"]')
    assert board.locator("option").all_inner_texts() == [
        "board of 16 points",
        "board of 24 points",
        "board of 24 points with diagonals",
    ]
    full = page.locator('#settings select[name="full_board"]')
    assert full.locator("option").all_inner_texts() == [
        "nothing (the player who cannot move loses)",
        "a draw",
        "the first player loses",
        "the first player removes a man",
        "each player removes a man",
    ]
    # Dooz's rules chosen one by one: the form names the rule set they make
    board.select_option("12")
    page.fill('#settings input[name="men"]', "12")
    full.select_option("first-removes")
    page.check('#settings input[name="remove_from_mills"]')
    page.check('#settings input[name="hand_removal"]')
    page.wait_for_function("document.querySelector('#rules-spec code').textContent === 'dooz'")
    # a full board's action with men that cannot fill the board: the server's sentence
    page.fill('#settings input[name="men"]', "11")
    page.dispatch_event('#settings input[name="men"]', "change")  # (as leaving the field)
    page.wait_for_function(
        "document.querySelector('#rules-spec').textContent.startsWith(\"a full board's action\")"
    )
    page.select_option("#rules", "morris")
    page.select_option("#rules", "morris-custom")
    labels = page.locator("#settings label").all_inner_texts()
    assert any(text.startswith("Men each side places") for text in labels)
    assert any("instead of placing one" in text for text in labels)  # Lasker's rule
    # too many men for the board: the server's sentence, and no game is started
    board.select_option("6")
    page.wait_for_function(
        "document.querySelector('#rules-spec').textContent.startsWith('9 men a side cannot play')"
    )
    page.click('input[name="opponent"][value="hotseat"]')
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert "cannot play on a board of 16 points" in page.inner_text("#error")
    assert "/game/" not in page.url
    # the twelve board, ten men, moving while placing: the canonical spec shown, left to right
    board.select_option("12")
    page.fill('#settings input[name="men"]', "10")
    page.check('#settings input[name="lasker"]')  # (a change: the spec is asked for again)
    spec = page.locator("#rules-spec code")
    spec.wait_for()
    page.wait_for_function(f"document.querySelector('#rules-spec code').textContent === '{SPEC}'")
    assert spec.get_attribute("dir") == "ltr"
    assert TITLE in page.inner_text("#rules-spec")
    assert page.locator("#preview .pt").count() == 24
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board .pt")
    page.wait_for_function(f"document.querySelector('#title').textContent === {TITLE!r}")
    record = page.request.get(page.url.replace("/game/", "/api/games/") + "/record").text()
    assert f'[Rules "{SPEC}"]' in record

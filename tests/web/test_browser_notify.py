"""The account page's notification section in Chromium: a signed-in player sees one row a kind
of notification, chooses push and e-mail for each and an address, and finds the choice kept on
the next visit; the page passes the accessibility audit with the section shown."""

from __future__ import annotations

from typing import Any

from ..support.browser import serious_violations
from .test_web_browser import sign_up_in_browser


def test_a_player_chooses_what_they_are_told(page: Any, server: str) -> None:
    sign_up_in_browser(page, server, "Nora")
    page.goto(server + "/account")
    page.wait_for_selector("#notifications:not([hidden]) #notify-kinds tr")
    rows = page.locator("#notify-kinds tr th")
    assert rows.all_inner_texts() == [
        "It is my move",
        "A game of mine ends",
        "Someone challenges me",
    ]
    assert page.is_checked('input[name="turn.push"]') and not page.is_checked(
        'input[name="turn.email"]'
    )
    assert serious_violations(page) == []
    page.uncheck('input[name="over.push"]')
    page.check('input[name="turn.email"]')
    page.fill("#notify-email", "nora@example.org")
    page.click("#notify-form button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")
    assert "saved" in page.inner_text("#notice")
    page.reload()
    page.wait_for_selector("#notifications:not([hidden]) #notify-kinds tr")
    assert page.input_value("#notify-email") == "nora@example.org"
    assert page.is_checked('input[name="turn.email"]') and not page.is_checked(
        'input[name="over.push"]'
    )
    # a wrong address is refused in words, and the stored one stays
    page.fill("#notify-email", "nora@example")
    page.click("#notify-form button[type=submit]")
    page.locator("#notice", has_text="is not an e-mail address").wait_for()
    page.reload()
    page.wait_for_selector("#notifications:not([hidden]) #notify-kinds tr")
    assert page.input_value("#notify-email") == "nora@example.org"

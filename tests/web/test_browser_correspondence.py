"""A correspondence game in the browser between two accounts over three simulated days: the
server's clock is injected (``create_app(clock=...)``, a test-only argument), so days pass at
once; the lobby's and /yourturn's lists show the game to the player to move, the game page says
the time left in words, a planned answer is played for its player, and a move after the
deadline loses on time."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from ludoteca.server import Settings, create_app

from ..server.test_server_correspondence import Days
from ..support.browser import join, point, start, wait_moves
from ..support.live_server import serving


@pytest.fixture(scope="module")
def days() -> Days:
    return Days()


@pytest.fixture(scope="module")
def days_server(browser_database: str, days: Days) -> Iterator[str]:
    """The app on a fresh database, its clock ``days``."""
    with serving(create_app(Settings(db=browser_database, workers=1), clock=days)) as port:
        address = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(address + "/healthz", timeout=120) as answer:
            assert answer.status == 200
        yield address


def sign_up(page: Any, server: str, name: str) -> None:
    answer = page.request.post(
        server + "/api/signup", data={"name": name, "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()


def your_turn(page: Any, server: str, path: str) -> str:
    """The your-turn list's text on ``path`` ("/" the lobby's panel, or "/yourturn"), once the
    page has drawn it (its ready marker: the list's first words are the template's own)."""
    page.goto(server + path)
    page.wait_for_selector("html[data-ready]", state="attached")
    page.wait_for_selector("#yourturn:not([hidden]) #yourturn-list li")
    text: str = page.inner_text("#yourturn-list")
    return text


def test_a_correspondence_game_over_three_days(browser: Any, days_server: str, days: Days) -> None:
    server = days_server
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 860}, bypass_csp=True)
        for _ in range(2)
    ]
    ann, bob = (c.new_page() for c in contexts)
    try:
        sign_up(ann, server, "Ann")
        sign_up(bob, server, "Bob")
        start(ann, server, "morris", "online", colour="white", clock="2d")
        link = ann.input_value("#invite-link")
        bob.goto(link)
        join(bob)
        ann.wait_for_selector("#correspondence:not([hidden])")
        ann.wait_for_function(
            "document.querySelector('#deadline').innerText.includes('2 days left')"
        )
        assert "White to move" in ann.inner_text("#deadline")
        assert ann.locator(".player .time").count() == 0  # no clock ticking
        # day 1: the game waits on Ann's list; she moves, and it is on Bob's with two days left
        days.pass_days(1)
        assert "2 days per move: 1 day left" in your_turn(ann, server, "/")
        ann.goto(link)
        point(ann, "d6").click()
        wait_moves(ann, 1)
        text = your_turn(bob, server, "/yourturn")
        assert "against Ann" in text and "2 days left" in text
        assert "No game waits" in your_turn(ann, server, "/yourturn")
        # Bob moves; Ann plans her answers to his next moves while he is to move
        bob.click(f'#yourturn-list a[href$="{link.rsplit("/", 1)[1]}"]')
        bob.wait_for_selector("#board .pt")
        point(bob, "d2").click()
        wait_moves(bob, 2)
        ann.goto(link)
        ann.wait_for_selector("#correspondence:not([hidden])")
        assert ann.locator("#plan-form").is_hidden()  # her turn: nothing to plan
        point(ann, "b4").click()
        wait_moves(ann, 3)
        ann.wait_for_selector("#plan-form:not([hidden])")
        ann.fill("#plan-lines", "f4 d7\nzz a1")
        ann.click("#plan-form button")
        ann.wait_for_selector("#plan-error:not([hidden])")
        assert "line 2" in ann.inner_text("#plan-error")
        ann.fill("#plan-lines", "f4 d7")
        ann.click("#plan-form button")
        ann.wait_for_function("document.querySelector('#plan-status').innerText.length > 0")
        # day 2: Bob plays the move Ann expected; her answer is played at once
        days.pass_days(1)
        bob.goto(link)
        point(bob, "f4").click()
        assert wait_moves(bob, 5)[-1] == "d7"
        # day 3 and beyond: Bob lets his two days run out; his late move loses on time
        days.pass_days(2)
        bob.goto(link)
        bob.wait_for_selector("#correspondence:not([hidden])")
        assert "time is up" in bob.inner_text("#deadline")
        point(bob, "g7").click()
        bob.wait_for_selector("#banner:not([hidden])")
        assert "time forfeit" in bob.inner_text("#banner")
    finally:
        for context in contexts:
            context.close()

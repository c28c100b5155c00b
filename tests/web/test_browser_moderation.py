"""Moderation in the browser, on the pages people use (docs/operating.md, "Moderation"): a
player reports another on *Reports and blocks* (a report without what it is about refused with
the server's sentence first) and a moderator, granted on the command line against the live
server's database, reads it there; a player blocks another, whose chat lines then reach
neither the blocker's open game page nor its history, and who then cannot take the blocker's
seek, nor be challenged by the blocker (refused with the server's sentence on the lobby and on
the profile's challenge dialog); the
moderator mutes a player from the page's form, whose next chat line is refused with the
server's sentence on the game page while the game plays on and its earlier chat stays; the
moderator closes an account, whose live game ends at once as its loss on time on both
players' pages, and whose sign-in is refused with the server's sentence on the sign-in form.
Each sentence is the server's English catalogue text, read from the page; the dates in the
mute's and the closure's sentences are the ones the moderation log on the page shows."""

from __future__ import annotations

import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.cli import main

from ..support.browser import point, wait_moves

PASSWORD = "correct horse"
#: the module's one moderator (a server takes ten sign-ups an hour from one address: one
#: moderator for every test, and two players a test)
MODERATOR = "Mona"
#: how long the page's answers are waited for (ms)
WAIT = 15_000


@pytest.fixture(scope="module")
def moderator(server: str, browser_database: str) -> str:
    """The account of the module's moderator: signed up, then granted the role on the command
    line against the server's database (as an operator does)."""
    body = json.dumps({"name": MODERATOR, "password": PASSWORD}).encode()
    request = urllib.request.Request(
        server + "/api/signup", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
    # (in a thread of its own: the command runs its own event loop, and Playwright's runs in
    # this one once a test's pages are open)
    with ThreadPoolExecutor(1) as thread:
        granted = thread.submit(
            main, ["users", "grant", MODERATOR, "moderator", "--db", browser_database]
        )
        assert granted.result(timeout=60) == 0
    return MODERATOR


def sign_up(page: Any, server: str, name: str) -> dict[str, str]:
    """Sign ``name`` up in the page's context; the CSRF header of its session."""
    answer = page.request.post(server + "/api/signup", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return {"X-CSRF-Token": answer.json()["csrf"]}


def sign_in(page: Any, server: str, name: str) -> None:
    answer = page.request.post(server + "/api/login", data={"name": name, "password": PASSWORD})
    assert answer.status == 200, answer.text()


def visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready]")


def said(page: Any, selector: str, sentence: str) -> None:
    """The element ``selector`` of ``page`` comes to say ``sentence``, exactly."""
    expect(page.locator(selector)).to_have_text(sentence, timeout=WAIT)


def game_between(
    server: str, white: Any, white_csrf: dict[str, str], black: Any, black_csrf: dict[str, str]
) -> str:
    """A five-minute Morris game between two accounts (a seek of White's that Black takes),
    opened on both their pages; its id."""
    seek = white.request.post(
        server + "/api/seeks",
        headers=white_csrf,
        data={"game": "morris", "clock": "5+0", "colour": "white"},
    )
    assert seek.status == 201, seek.text()
    taken = black.request.post(f"{server}/api/seeks/{seek.json()['id']}/accept", headers=black_csrf)
    assert taken.status == 201, taken.text()
    game: str = taken.json()["game"]
    for page in (white, black):
        open_game(page, f"{server}/game/{game}")
    return game


def post_seek(page: Any, server: str) -> None:
    """Post a seek for a five-minute Morris game from the lobby's form, playing White."""
    visit(page, server + "/")
    page.check('input[name="game"][value="morris"]')
    page.check('input[name="opponent"][value="seek"]')
    page.select_option("#clock", "5+0")
    page.select_option("#colour", "white")
    page.click("#post-seek")
    page.locator("#seek-status", has_text="on offer").wait_for()


def open_game(page: Any, url: str) -> None:
    """Open a game page and wait until it knows it is a player's (its chat the players' room:
    the mute box shows)."""
    visit(page, url)
    page.wait_for_selector("#mute-label:not([hidden])")


def say(page: Any, text: str) -> None:
    """Type a chat line on the game page and send it (the box empties)."""
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-input")).to_have_value("")


def heard(page: Any, line: str) -> None:
    """The chat line ``line`` ("Name:text") comes to show on the game page."""
    page.locator("#chat-lines li", has_text=line.partition(":")[2]).first.wait_for(timeout=WAIT)


def chat(page: Any) -> list[str]:
    lines: list[str] = page.locator("#chat-lines li").all_inner_texts()
    return lines


#: the moderation log's words for the actions these tests take (the form's option texts)
ACTION_WORDS = {"mute": "mute", "close": "close the account"}


def act(page: Any, action: str, player: str, minutes: int, why: str) -> str:
    """On the moderator's /moderation page, open: carry out ``action`` on ``player`` with the
    page's form; the detail the log on the page shows for it ("until …")."""
    page.select_option("#action", action)
    page.fill("#action-player", player)
    page.fill("#action-minutes", str(minutes))
    page.fill("#action-reason", why)
    page.click("#action-form button[type=submit]")
    said(page, "#action-said", "Done.")
    row = page.locator("#log tbody tr", has_text=why).first
    row.wait_for(timeout=WAIT)
    cells: list[str] = row.locator("td").all_inner_texts()
    assert cells[1:4] == [MODERATOR, ACTION_WORDS[action], player] and cells[5] == why, cells
    assert cells[4].startswith("until "), cells
    return cells[4].removeprefix("until ")


def test_a_report_reaches_the_moderators_page(
    server: str, people: list[Any], moderator: str
) -> None:
    ann, bob, mona = people
    sign_up(ann, server, "Ann")
    sign_up(bob, server, "Bob")
    visit(ann, server + "/moderation")
    assert ann.locator("#moderators").is_hidden()  # a player sees no moderators' part
    ann.fill("#report-player", "Bob")
    ann.select_option("#report-reason", "other")  # "something else" without saying what
    ann.click("#report-form button[type=submit]")
    said(ann, "#report-said", "say what the report is about")
    ann.select_option("#report-reason", "cheating")
    ann.fill("#report-text", "every move an engine's, in no time")
    ann.click("#report-form button[type=submit]")
    said(ann, "#report-said", "Done.")
    sign_in(mona, server, moderator)
    visit(mona, server + "/moderation")
    assert mona.locator("#moderators").is_visible()
    rows = mona.locator("#reports tbody tr")
    assert rows.count() == 1  # the refused report left nothing
    assert rows.first.locator("td").all_inner_texts()[1:] == [
        "Ann",
        "Bob",
        "cheating (help from a program or a person)",
        "every move an engine's, in no time",
        "",
    ]


def test_a_block_hides_the_chat_and_refuses_seeks_and_challenges(
    server: str, people: list[Any]
) -> None:
    cleo, dan, _ = people
    sign_up(cleo, server, "Cleo")
    sign_up(dan, server, "Dan")
    # a game between them from a seek of Cleo's in the lobby, before any block
    post_seek(cleo, server)
    visit(dan, server + "/")
    dan.locator("#seeks li", has_text="Cleo").locator("button", has_text="Accept").click()
    dan.wait_for_url("**/game/*")
    cleo.wait_for_url(dan.url, timeout=WAIT)  # her lobby opens the game once her seek is taken
    game = dan.url
    for page in (cleo, dan):
        open_game(page, game)
    say(dan, "hello")
    heard(cleo, "Dan:hello")
    # Cleo blocks Dan on the moderation page in a second tab, her game page still open
    desk = cleo.context.new_page()
    errors: list[str] = []
    desk.on("pageerror", lambda error: errors.append(str(error)))
    visit(desk, server + "/moderation")
    desk.fill("#report-player", "Dan")
    desk.click("#block")
    said(desk, "#report-said", "Done.")
    said(desk, "#blocks", "You block: Dan")
    say(dan, "can you hear me")
    heard(dan, "Dan:can you hear me")
    say(cleo, "quiet here")
    heard(dan, "Cleo:quiet here")
    heard(cleo, "Cleo:quiet here")  # (after Dan's line, had it been sent to her)
    assert chat(cleo) == ["Dan:hello", "Cleo:quiet here"]
    assert chat(dan) == ["Dan:hello", "Dan:can you hear me", "Cleo:quiet here"]
    cleo.reload()  # the history, too, holds none of his lines for her
    cleo.wait_for_selector('#chat-lines[data-history="received"]', state="attached")
    assert chat(cleo) == ["Cleo:quiet here"]
    # neither may now take the other's seek (in the second tab: the first one's lobby would
    # open the game of the seek it posted), nor challenge the other
    post_seek(dan, server)
    visit(desk, server + "/")
    desk.locator("#seeks li", has_text="Dan").locator("button", has_text="Accept").click()
    said(desk, "#seek-status", "you cannot play this player")
    assert desk.url == server + "/"  # still in the lobby: no game between them
    visit(desk, f"{server}/players/Dan")
    desk.click("#challenge-button")
    desk.click("#challenge-send")
    said(desk, "#challenge-error", "you cannot play this player")
    assert desk.locator("#challenge-status").inner_text() == ""  # no challenge waits
    desk.close()
    assert not errors, errors


def test_a_muted_player_is_refused_a_chat_line_and_plays_on(
    server: str, people: list[Any], moderator: str
) -> None:
    eve, finn, mona = people
    eve_csrf, finn_csrf = sign_up(eve, server, "Eve"), sign_up(finn, server, "Finn")
    game_between(server, eve, eve_csrf, finn, finn_csrf)
    say(eve, "good game")
    heard(finn, "Eve:good game")
    sign_in(mona, server, moderator)
    visit(mona, server + "/moderation")
    until = act(mona, "mute", "Eve", 60, "insults in the chat")
    # (not say(): the refusal may give the line back before the emptied box is seen)
    eve.fill("#chat-input", "you again")
    eve.press("#chat-input", "Enter")
    # told in the chat panel, her line given back to the field
    said(eve, "#chat-said", f"you are muted until {until}: you cannot chat")
    assert eve.input_value("#chat-input") == "you again"
    say(finn, "still there?")
    heard(eve, "Finn:still there?")
    for page in (eve, finn):  # her refused line reached no one; the earlier chat stays
        assert chat(page) == ["Eve:good game", "Finn:still there?"]
    # the game plays on: her move, then his
    point(eve, "d6").click()
    assert wait_moves(finn, 1) == ["d6"]
    point(finn, "a1").click()
    assert wait_moves(eve, 2) == ["d6", "a1"]


def test_a_closed_account_loses_its_game_on_time_and_cannot_sign_in(
    server: str, people: list[Any], moderator: str
) -> None:
    gail, hugo, mona = people
    gail_csrf, hugo_csrf = sign_up(gail, server, "Gail"), sign_up(hugo, server, "Hugo")
    # (a game without a move: the end of one with moves starts its report, whose work is no
    # part of this test)
    game_between(server, gail, gail_csrf, hugo, hugo_csrf)
    sign_in(mona, server, moderator)
    visit(mona, server + "/moderation")
    until = act(mona, "close", "Hugo", 60, "abuse, again")
    for page, title in ((gail, "You won"), (hugo, "You lost")):
        page.wait_for_selector("dialog#result[open]", timeout=WAIT)
        assert page.inner_text("#result-title") == title
        assert page.inner_text("#result-reason") == "1-0 · White wins: time forfeit."
    # his session is over; signing in again is refused on the form
    visit(hugo, server + "/account")
    assert hugo.locator("#guest").is_visible()
    hugo.fill("#in-name", "Hugo")
    hugo.fill("#in-password", PASSWORD)
    hugo.click("#sign-in-form button[type=submit]")
    said(hugo, "#notice", f"this account is closed until {until}")
    assert hugo.request.get(server + "/api/me").json()["name"] is None

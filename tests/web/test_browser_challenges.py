"""Challenges in the browser, between two accounts: Ann challenges Bob from his profile (the
dialog), Bob sees it in the lobby's "Challenges" panel and declines it with a reason, Ann's
panel (on /yourturn) says so in words; Ann challenges again, Bob's lobby shows it without
being reloaded, Bob accepts, and both land on the same game page with the colours asked for.
And a bot account's name wears the BOT mark: on its profile, on a game page, in the lobby's
challenges."""

from __future__ import annotations

from typing import Any


def sign_up(page: Any, server: str, name: str) -> str:
    """Sign ``name`` up in the page's context; its CSRF token."""
    answer = page.request.post(
        server + "/api/signup", data={"name": name, "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    csrf: str = answer.json()["csrf"]
    return csrf


def visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready]")


def challenge(page: Any, server: str, name: str, colour: str, clock: str) -> None:
    """From ``name``'s profile, send the challenge the dialog makes; it shows as waiting."""
    visit(page, f"{server}/players/{name}")
    page.click("#challenge-button")
    page.select_option("#challenge-colour", colour)
    page.select_option("#challenge-clock", clock)
    page.click("#challenge-send")
    page.wait_for_function(
        "document.querySelector('#challenge-status').innerText.includes('waiting')"
    )
    assert page.locator("#challenge-dialog").is_hidden()


def incoming(page: Any, server: str) -> Any:
    """The lobby's first received challenge (the lobby opened, its panel filled)."""
    visit(page, server + "/")
    page.wait_for_selector("#challenges[data-listed] #challenges-in li.challenge")
    return page.locator("#challenges-in li.challenge").first


def test_challenge_declined_with_a_reason_then_accepted(server: str, people: list[Any]) -> None:
    ann, bob, _ = people
    sign_up(ann, server, "Ann")
    sign_up(bob, server, "Bob")
    visit(ann, f"{server}/players/Ann")  # one's own profile offers no challenge
    assert ann.locator("#challenge-box").is_hidden()
    challenge(ann, server, "Bob", "white", "5+0")
    received = incoming(bob, server)
    assert "Ann challenges you" in received.inner_text()
    assert "5 min + 0 s" in received.inner_text() and "you play Black" in received.inner_text()
    received.locator("select.reason").select_option("timeControl")
    received.locator("button.decline").click()
    bob.wait_for_function("!document.querySelector('#challenges-in li.challenge')")
    visit(ann, server + "/yourturn")  # (the panel of /yourturn is the lobby's)
    ann.wait_for_selector("#challenges-out li.declined")
    told = ann.inner_text("#challenges-out li.declined")
    assert "To Bob" in told
    assert "declined: I'm not accepting challenges with this time control." in told

    challenge(ann, server, "Bob", "black", "3d")
    # Bob's lobby, still open, hears of it by itself
    bob.locator("#challenges-in li.challenge button.accept").click(timeout=10_000)
    bob.wait_for_url("**/game/*")
    ann.wait_for_url("**/game/*", timeout=15_000)  # her profile page follows the challenge
    assert ann.url == bob.url
    for page, colour, name in ((bob, "white", "Bob"), (ann, "black", "Ann")):
        page.wait_for_selector(f".player.{colour} .who")
        assert name in page.inner_text(f".player.{colour} .who")
        assert "(you)" in page.inner_text(f".player.{colour} .who")


def test_a_bot_wears_its_mark(server: str, people: list[Any]) -> None:
    cid, robo, stranger = people
    csrf = sign_up(cid, server, "Cid")
    robo_csrf = sign_up(robo, server, "Robo")
    upgraded = robo.request.post(
        server + "/api/bot/account/upgrade", headers={"X-CSRF-Token": robo_csrf}
    )
    assert upgraded.status == 200, upgraded.text()
    token = upgraded.json()["token"]
    visit(cid, f"{server}/players/Robo")
    mark = cid.locator("#title .bot-mark")
    assert mark.inner_text() == "BOT" and "bot" in (mark.get_attribute("title") or "").lower()
    sent = cid.request.post(
        server + "/api/challenge/Robo",
        data={"game": "morris", "colour": "white"},
        headers={"X-CSRF-Token": csrf},
    )
    assert sent.status == 201, sent.text()
    accepted = stranger.request.post(  # (a context without a session cookie: the bot's API)
        f"{server}/api/challenge/{sent.json()['id']}/accept",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert accepted.status == 201, accepted.text()
    visit(cid, server + accepted.json()["url"])
    cid.wait_for_selector(".player.black .who .bot-mark")
    assert cid.locator(".player.white .who .bot-mark").count() == 0
    visit(cid, server + "/")  # the accepted challenge, in the lobby's sent list
    cid.wait_for_selector("#challenges-out li.accepted .bot-mark")

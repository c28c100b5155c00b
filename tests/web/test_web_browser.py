"""The web app in a real browser (Debian's Chromium driven by Playwright): games are played by
clicking and dragging, as a person would.  Screenshots, when asked for (``scripts/screenshots``),
go to ``bench/results/screenshots`` (not committed: that folder's ``.gitignore`` keeps them out)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import ludoteca

from ..support.browser import (
    FELLI_ENDGAME,
    FELLI_TRIPLE,
    REPORT_WAIT,
    join,
    moves,
    piece,
    point,
    shot,
    start,
    until,
    wait_moves,
)
from ..support.live_server import serving
from ..support.need import need


def test_morris_mill_and_removal_by_clicking(page: Any, server: str) -> None:
    start(page, server, "morris", "hotseat")
    assert "place a man" in page.inner_text("#status")
    for n, name in enumerate(["a7", "g1", "d7", "g4"], start=1):
        point(page, name).click()
        wait_moves(page, n)
    # the men in hand are drawn beside the board, as many as the status says
    assert "In hand: White 7, Black 7" in page.inner_text("#status")
    for colour in ("white", "black"):
        assert page.locator(f'svg.hand[data-colour="{colour}"] circle').count() == 7
    point(page, "g7").click()  # closes the mill a7-d7-g7: the black men are ringed red
    assert page.locator("#board .ring.take").count() == 2
    assert "remove" in page.inner_text("#status")
    assert piece(page, "g7") == "w"  # the man just placed stays drawn while the removal is chosen
    assert point(page, "g7").locator(".piece.white").count() == 1
    point(page, "g1").click()
    assert wait_moves(page, 5)[-1] == "g7xg1"
    assert piece(page, "g1") == "" and piece(page, "g4") == "b" and piece(page, "g7") == "w"
    assert "In hand: White 6, Black 7" in page.inner_text("#status")
    assert page.locator('svg.hand[data-colour="white"] circle').count() == 6
    shot(page, "morris-mill")


@pytest.mark.parametrize(
    ("rules", "clicks", "take", "mover", "hands"),
    [
        ("morris-6", ["a5", "a1", "c5", "e1", "e5"], "a1", "w", "White 3, Black 4"),
        ("morris-12", ["a7", "g1", "d7", "g4", "g7"], "g1", "w", "White 9, Black 10"),
        ("morabaraba", ["a7", "g1", "d7", "g4", "g7"], "g1", "b", "White 10, Black 9"),
        ("morris-lasker", ["a7", "g1", "d7", "g4", "g7"], "g1", "w", "White 7, Black 8"),
    ],
)
def test_morris_family_placement_mill_and_removal(
    page: Any, server: str, rules: str, clicks: list[str], take: str, mover: str, hands: str
) -> None:
    """Each Morris rule set in the lobby: placements, a mill and a removal, by clicking."""
    start(page, server, "morris", "hotseat", rules=rules)
    title = {
        "morris-6": "Six Men's Morris",
        "morris-12": "Twelve Men's Morris",
        "morabaraba": "Morabaraba",
        "morris-lasker": "Lasker Morris",
    }[rules]
    assert page.inner_text("#title") == title  # the rule set by its title, not its name
    word = "cow" if rules == "morabaraba" else "man"
    assert f"place a {word}" in page.inner_text("#status")
    for n, name in enumerate(clicks[:-1], start=1):
        point(page, name).click()
        wait_moves(page, n)
    point(page, clicks[-1]).click()
    assert page.locator("#board .ring.take").count() == 2
    point(page, take).click()
    assert wait_moves(page, 5)[-1] == f"{clicks[-1]}x{take}"
    assert piece(page, take) == "" and piece(page, clicks[-1]) == mover
    assert f"In hand: {hands}" in page.inner_text("#status")
    shot(page, f"{rules}-mill")


#: Da San Qi (a man for each mill; marking): White to place, g7 closing a7-d7-g7 and g7-g4-g1
DA_SAN_QI_DOUBLE = "WW./B../W../.B...W/.../BBB/..W w 7 7 0 10"


def test_a_second_mill_takes_a_man_in_a_turn_of_its_own(page: Any, server: str) -> None:
    """Da San Qi: a placement that closes two mills takes its first man with the move, then
    the same player, still to move, takes the second by clicking it alone (a removal-only turn,
    written ``xd2``); a man taken while placing leaves its point marked."""
    start(page, server, "morris", "hotseat", rules="da-san-qi", position=DA_SAN_QI_DOUBLE)
    assert page.inner_text("#title") == "Da San Qi"
    point(page, "g7").click()
    assert page.locator("#board .ring.take").count() == 5  # every black man: any may be taken
    assert point(page, "b2").locator(".cross").count() == 0
    point(page, "b2").click()
    assert wait_moves(page, 1) == ["g7xb2"]
    # b2 is empty but marked: crossed out, and its label says no man may go there
    until(page, "document.querySelector('#board .pt[data-name=\"b2\"] .cross') !== null")
    assert piece(page, "b2") == ""
    assert "marked: no man may be placed here" in point(page, "b2").get_attribute("aria-label")
    assert page.locator("#board .pt.marked").count() == 1
    # White moves again (the status names White as the one who played): only the second
    # removal is legal, its men ringed before any click
    until(page, "document.querySelector('#status').innerText.includes('Your move (White)')")
    status = page.inner_text("#status")
    assert "White played g7xb2" in status and "remove" in status, status
    assert page.locator("#board .ring.take").count() == 4  # b2 is taken already
    point(page, "d2").click()
    assert wait_moves(page, 2) == ["g7xb2", "xd2"]
    until(page, "document.querySelector('#status').innerText.includes('Your move (Black)')")
    assert "White played xd2" in page.inner_text("#status")
    assert [piece(page, n) for n in ("g7", "b2", "d2", "f2")] == ["w", "", "", "b"]
    marked = page.locator("#board .pt.marked")
    assert sorted(marked.nth(i).get_attribute("data-name") for i in range(marked.count())) == [
        "b2",
        "d2",
    ]
    assert page.locator("#board .ring.take").count() == 0
    assert "In hand: White 6, Black 7" in page.inner_text("#status")


def test_felli_multi_capture_leap_by_leap(page: Any, server: str) -> None:
    start(page, server, "felli", "hotseat", settings=["multi_capture"], position=FELLI_TRIPLE)
    assert page.inner_text("#title") == "Felli (multi capture)"
    point(page, "a1").click()
    point(page, "c3").click()  # the first leap; the chain must go on
    assert page.locator("#board .ring.selected").count() == 2
    assert "continue the capture" in page.inner_text("#status")
    # the chain under way: the man stands where it landed, the man it jumped is faded
    assert piece(page, "c3") == "w" and piece(page, "a1") == ""
    assert page.locator('#board .pt[data-name="b2"] .piece.jumped').count() == 1
    point(page, "e5").click()
    point(page, "a5").click()
    assert wait_moves(page, 1) == ["a1xc3xe5xa5"]
    assert [piece(page, n) for n in ("b2", "d4", "c5", "a5")] == ["", "", "", "w"]
    page.wait_for_selector("#banner:not([hidden])")
    assert "White wins" in page.inner_text("#banner")
    shot(page, "felli-multi-capture")


def morelli_capture_position() -> tuple[str, str, str, list[str]]:
    """A 9x9 position (from seeded quiet moves) where the side to move can convert a stone:
    its code, the capture's from and to squares, and the squares it converts (by the engine)."""
    rng = random.Random(5)
    state = ludoteca.new_game("morelli-9", seed=5)
    while True:
        captures = [m for m in state.legal_moves if state.is_tactical(m.code)]
        if captures:
            move = captures[0]
            before = state.pieces()
            after = state.child(move).pieces()
            names = state.game.board.points
            flipped = [
                names[i]
                for i, (a, b) in enumerate(zip(before, after, strict=True))
                if a and b and a != b
            ]
            src, dst = (names[p] for _, p in state.gesture(move.code))
            return state.position_code(), src, dst, flipped
        state.push(rng.choice(list(state.legal_moves)))


def test_morelli_capture_by_dragging(page: Any, server: str) -> None:
    code, src, dst, flipped = morelli_capture_position()
    assert flipped
    start(page, server, "morelli", "hotseat", rules="morelli-9", position=code)
    mover = "b" if code.split()[1] == "b" else "w"
    assert all(piece(page, n) not in ("", mover) for n in flipped)
    point(page, src).drag_to(point(page, dst))
    wait_moves(page, 1)
    assert piece(page, dst) == mover and piece(page, src) == ""
    assert all(piece(page, n) == mover for n in flipped)
    assert page.locator("#board .piece.changed").count() == len(flipped)
    # the move list and the status say what the move did
    assert moves(page) == [f"{src}-{dst}x{len(flipped)}"]
    # the last move is framed, not tinted (a tint on a red cell read as an orange band)
    frame = point(page, dst).locator(".glow.outer")
    assert frame.evaluate("n => getComputedStyle(n).fill") == "none"
    assert frame.evaluate("n => getComputedStyle(n).stroke") != "none"
    assert f"converts {len(flipped)} stone" in page.inner_text("#status")
    shot(page, "morelli-capture")
    # the reply (quick, as a computer's is) does not hide the conversions: they stay ringed
    state = ludoteca.load("morelli-9").from_position_code(code)
    state.push(f"{src}-{dst}")
    names = state.game.board.points
    quiet = [
        m
        for m in state.legal_moves
        if not state.is_tactical(m.code)
        and not {names[p] for _, p in state.gesture(m.code)} & set(flipped)
    ]
    a, b = (names[p] for _, p in state.gesture(quiet[0].code))
    point(page, a).click()
    point(page, b).click()
    wait_moves(page, 2)
    ringed = page.locator("#board .pt.converted").evaluate_all(
        "nodes => nodes.map(n => n.dataset.name)"
    )
    assert sorted(ringed) == sorted(flipped)
    assert page.locator("#board .piece.changed").count() == 0  # the reply converted nothing
    assert "converted by a recent move" in (
        point(page, flipped[0]).get_attribute("aria-label") or ""
    )
    state.push(quiet[0])
    a, b = (
        names[p]
        for _, p in state.gesture(
            next(m for m in state.legal_moves if not state.is_tactical(m.code)).code
        )
    )
    point(page, a).click()
    point(page, b).click()
    wait_moves(page, 3)  # two moves later the rings are gone
    assert page.locator("#board .pt.converted").count() == 0


def morelli_king_position() -> tuple[str, str]:
    """A 9x9 position (seeded random moves) where the side to move can seat a King: its code
    and the move, found by the engine."""
    rng = random.Random(0)
    state = ludoteca.new_game("morelli-9", seed=0)
    while True:
        crowning = [m for m in state.legal_moves if "King" in state.move_note(m.code)]
        if crowning:
            return state.position_code(), str(crowning[0])
        state.push(rng.choice(list(state.legal_moves)))


def test_seating_the_king_is_announced(page: Any, server: str) -> None:
    code, move = morelli_king_position()
    start(page, server, "morelli", "hotseat", rules="morelli-9", position=code)
    src, dst = move.split("-")
    point(page, src).click()
    point(page, dst).click()
    assert wait_moves(page, 1)[0].startswith(move) and moves(page)[0].endswith(" K")
    side = "White" if code.split()[1] == "w" else "Black"
    page.wait_for_function(
        f"document.querySelector('#status').innerText.includes('seats the {side} King')"
    )
    assert piece(page, "E5") == "k" + side[0].lower()  # the King on the Throne


def test_hot_seat_game_to_its_end(page: Any, server: str) -> None:
    start(page, server, "felli", "hotseat", position=FELLI_ENDGAME)
    page.wait_for_function("document.title.startsWith('Your move')")  # the tab says so
    assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon-move.svg"
    for n, (a, b) in enumerate([("a1", "b2"), ("b4", "c3"), ("b2", "d4")], start=1):
        point(page, a).click()
        point(page, b).click()
        wait_moves(page, n)
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner") == "1-0 — White wins: every man of the loser has been taken."
    # the result dialog over the board: result, reason, and what next
    page.wait_for_selector("dialog#result[open]")
    assert page.inner_text("#result-title") == "White won"  # one screen: both seats are yours
    assert page.inner_text("#result-reason") == (
        "1-0 · White wins: every man of the loser has been taken."
    )
    assert page.locator("#result-rating").is_hidden()  # not rated
    assert page.title().startswith("Ludoteca")  # no "Your move" once the game is over
    assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon.svg"
    shot(page, "felli-result-dialog")
    assert moves(page) == ["a1-b2", "b4-c3", "b2xd4"]
    page.click("#result-analyse")  # Black's b4-c3 walked into the capture
    assert not page.locator("dialog#result[open]").count()
    assert page.locator("#resign").is_disabled()
    assert page.locator("#undo").is_disabled() and page.locator("#move-input").is_disabled()
    page.wait_for_selector(
        "#moves .mistake", timeout=REPORT_WAIT
    )  # the game report, made when the game ended
    assert page.locator("#moves .mistake").all_inner_texts() == ["b4-c3??"]
    marked = page.locator("#report .marked button")
    assert marked.count() == 1 and "b4-c3?? blunder" in marked.inner_text()
    marked.click()
    better = re.search(r"Better (\S+) ", page.inner_text("#report .detail"))
    assert better and better.group(1) != "b4-c3"  # never the move played
    shot(page, "felli-hot-seat-end")
    finished = page.url
    page.click("#rematch-button")  # same position, a new game
    page.wait_for_url(lambda url: url != finished and "/game/" in url)
    page.wait_for_selector("#board .pt")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Your move')")
    assert piece(page, "a1") == "w" and piece(page, "b4") == "b" and moves(page) == []


def test_online_game_with_a_spectator(browser: Any, server: str) -> None:
    contexts = [
        browser.new_context(viewport={"width": 420, "height": 860}, bypass_csp=True)
        for _ in range(3)
    ]
    ann, bob, eve = (c.new_page() for c in contexts)
    try:
        start(ann, server, "morris", "online", colour="white", clock="5+0")
        link = ann.input_value("#invite-link")
        assert "Waiting for a second player" in ann.inner_text("#status")
        bob.goto(link)
        join(bob)
        eve.goto(server + "/")  # phone-sized pages fit their width
        eve.wait_for_selector("#preview .pt")
        assert eve.evaluate("document.documentElement.scrollWidth") <= 420
        eve.goto(link)
        eve.wait_for_selector("#board .pt")
        assert eve.evaluate("document.documentElement.scrollWidth") <= 420
        assert "watching" in eve.inner_text("#status")
        assert eve.locator("#join").is_hidden()
        ann.locator('#board .pt[data-name="d6"]').click()
        for page in (ann, bob, eve):
            assert wait_moves(page, 1) == ["d6"]
        running = eve.locator(".player .time.running")
        assert running.get_attribute("data-colour") == "black"
        # the first move is not timed: White's clock still shows the whole five minutes
        assert eve.locator('.player .time[data-colour="white"]').inner_text() == "5:00"
        eve.locator('#board .pt[data-name="f4"]').click()  # a spectator cannot move
        bob.locator('#board .pt[data-name="f4"]').click()
        for page in (ann, bob, eve):
            assert wait_moves(page, 2) == ["d6", "f4"]
        assert eve.locator('#board .pt[data-name="f4"]').get_attribute("data-piece") == "b"
        bob.click("#draw")
        ann.wait_for_selector("#offer:not([hidden])")
        assert "offers a draw" in ann.inner_text("#offer")
        ann.click("#offer-yes")
        for page in (ann, bob, eve):
            page.wait_for_selector("#banner:not([hidden])")
            assert "Draw by" in page.inner_text("#banner")
            page.wait_for_selector("dialog#result[open]")
            assert page.inner_text("#result-title") == "Draw"
            assert page.inner_text("#result-reason").startswith("1/2-1/2 · Draw by")
            assert page.locator("#result-rematch").is_visible() == (page is not eve)
            page.click("#result-close")
        shot(eve, "online-spectator-phone")
    finally:
        for context in contexts:
            context.close()


def test_reload_mid_game_against_the_computer(page: Any, server: str) -> None:
    start(page, server, "morris", "computer", level=1, colour="white")
    point(page, "d6").click()
    first = wait_moves(page, 2)  # the computer answered
    assert page.locator("#chat").is_hidden()  # no chat box against the computer
    page.reload()
    page.wait_for_selector("#board .pt")
    assert wait_moves(page, 2) == first
    empty = next(n for n in ("d2", "b4", "f4", "b6", "f2") if piece(page, n) == "")
    point(page, "d6").focus()  # keyboard play: arrows move between points, Enter plays
    # the nearest point that way as drawn: d6 down d5 down d3 down d2; left b6 down b4
    path = {
        "d2": ["ArrowDown"] * 3,
        "b4": ["ArrowLeft", "ArrowDown"],
        "f4": ["ArrowRight", "ArrowDown"],
        "b6": ["ArrowLeft"],
        "f2": ["ArrowRight", "ArrowDown", "ArrowDown"],
    }[empty]
    for key in path:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.name") == empty
    page.keyboard.press("Enter")
    after = wait_moves(page, 4)
    assert after[:3] == [*first, empty]
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').innerText.startsWith('Hint:')")
    assert page.locator("#board .pt.hinted").count() >= 1
    assert page.locator("#evaluation").is_visible()
    share = re.fullmatch(r"White (\d+)%", page.inner_text("#evaluation-value"))  # the bar's number
    assert share, page.inner_text("#evaluation-value")
    width = page.evaluate("document.querySelector('#evaluation-white').style.width")
    assert width == f"{share.group(1)}%"
    shot(page, "morris-against-computer")


def test_import_a_record_and_step_through_it(page: Any, server: str) -> None:
    record = ludoteca.record.loads(
        '[Game "morris"]\n[Result "*"]\n\n1. a7 g1 2. d7 g4 3. g7xg1 *\n'
    )
    page.goto(server + "/review")
    page.fill("#record", ludoteca.record.dumps(record))
    page.click("#load button[type=submit]")
    page.wait_for_selector("#board .pt")
    assert "Move 0 of 5" in page.inner_text("#status")
    assert all(piece(page, n) == "" for n in ("a7", "g1"))
    page.keyboard.press("End")
    assert "Move 5 of 5" in page.inner_text("#status")
    assert [piece(page, n) for n in ("a7", "d7", "g7", "g4", "g1")] == ["w", "w", "w", "b", ""]
    page.keyboard.press("ArrowLeft")
    assert piece(page, "g1") == "b" and piece(page, "g7") == ""
    page.click("#moves li:nth-child(1) button")
    assert "after 1. a7" in page.inner_text("#status") and piece(page, "a7") == "w"
    page.fill("#record", '[Game "morris"]\n\n1. a7 a7 *\n')
    page.click("#load button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")
    assert "a7" in page.inner_text("#notice")
    shot(page, "record-review")


def test_pages_work_under_the_content_security_policy(browser: Any, server: str) -> None:
    """The lobby, a game played by clicking and the review page, with the policy enforced: no
    violation is reported and nothing fails."""
    context = browser.new_context(viewport={"width": 1100, "height": 860})
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        start(page, server, "morris", "hotseat", rules="morris-6")
        point(page, "a1").click()
        page.wait_for_selector('#board .pt[data-name="a1"][data-piece="w"]')
        page.wait_for_selector("#moves li")
        page.goto(server + "/review")
        page.wait_for_selector("#record")
        page.goto(server + "/analysis?game=felli")
        page.wait_for_selector("#lines li")  # the evaluation bar is set too
        assert not problems, problems
    finally:
        context.close()


def test_the_board_faces_its_player_and_remembers_a_flip(page: Any, server: str) -> None:
    """Playing Black against the computer, Black's side is at the bottom; a flip by hand is
    kept across a reload."""
    start(page, server, "morris", "computer", level=1, colour="black")
    wait_moves(page, 1)

    def top(name: str) -> float:
        box = point(page, name).bounding_box()
        assert box is not None
        return float(box["y"])

    assert top("a1") < top("a7")  # rank 1 drawn at the top: the board is turned for Black
    page.reload()
    page.wait_for_selector("#board .pt")
    assert top("a1") < top("a7")
    page.click("#flip")
    assert top("a1") > top("a7")
    page.reload()
    page.wait_for_selector("#board .pt")
    assert top("a1") > top("a7")


def test_keyboard_focus_stays_on_the_board_after_moves(page: Any, server: str) -> None:
    """Hot seat by keyboard: after each move (and the redraw the server's update causes) the
    focus is still on the point that was played, so play goes on without tabbing back."""
    start(page, server, "felli", "hotseat")
    assert page.get_attribute("#move-input", "placeholder") == "e.g. b2-c3, d4xb2 or a1xc3xe5"
    fits = page.evaluate("""() => {  // the whole placeholder shows in the box
        const box = document.querySelector('#move-input');
        const style = getComputedStyle(box);
        const pen = document.createElement('canvas').getContext('2d');
        pen.font = `${style.fontSize} ${style.fontFamily}`;
        const room = box.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        return pen.measureText(box.placeholder).width <= room;
    }""")
    assert fits
    point(page, "c2").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")  # to c3, the only empty point next to c2
    assert page.evaluate("document.activeElement.dataset.name") == "c3"
    page.keyboard.press("Enter")
    wait_moves(page, 1)  # the move list is drawn from the server's update, as the board is
    assert "Your move (Black)" in page.inner_text("#status")
    assert page.evaluate("document.activeElement.dataset.name") == "c3"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.name") == "c4"


def test_looking_back_during_a_game(page: Any, server: str) -> None:
    """←/→/Home/End and a click on a move show earlier positions; the board cannot be played
    meanwhile, and End (or the last move) returns to the game as it stands."""
    start(page, server, "felli", "hotseat")
    for n, (a, b) in enumerate([("b2", "c3"), ("d4", "b2")], start=1):
        point(page, a).click()
        point(page, b).click()
        wait_moves(page, n)
    assert piece(page, "c3") == "" and piece(page, "b2") == "b"
    page.locator("#title").click()  # the focus off the board: arrows go to the move list
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Looking back')")
    assert "move 1 of 2" in page.inner_text("#status")
    assert piece(page, "c3") == "w" and piece(page, "b2") == "" and piece(page, "d4") == "b"
    point(page, "c3").click()  # no move while looking back
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#status').innerText.includes('move 0 of 2')")
    assert piece(page, "b2") == "w" and piece(page, "c3") == ""
    page.locator("#moves button.move", has_text="b2-c3").click()
    page.wait_for_function("document.querySelector('#status').innerText.includes('move 1 of 2')")
    assert page.locator("#moves button.current").inner_text() == "b2-c3"
    page.keyboard.press("End")
    page.wait_for_function(
        "document.querySelector('#status').innerText.startsWith('White')"
        " || document.querySelector('#status').innerText.includes('Your move')"
    )
    assert piece(page, "b2") == "b" and moves(page) == ["b2-c3", "d4xb2"]


def test_dark_mode_follows_the_system(browser: Any, server: str) -> None:
    context = browser.new_context(color_scheme="dark", bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("#start")
        colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
            getComputedStyle(document.body).color,
            getComputedStyle(document.querySelector('.panel')).backgroundColor]""")
        assert colours == ["rgb(20, 23, 29)", "rgb(230, 232, 238)", "rgb(31, 36, 45)"]
        shot(page, "lobby-dark")
    finally:
        context.close()


def test_the_theme_switch_overrides_the_system(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#theme")
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.inner_text("#theme") == "Theme: system"
    page.click("#theme")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.click("#theme")
    assert page.evaluate(background) == "rgb(20, 23, 29)"
    page.reload()  # remembered
    page.wait_for_selector("#theme")
    assert page.inner_text("#theme") == "Theme: dark"
    assert page.evaluate(background) == "rgb(20, 23, 29)"
    page.click("#theme")
    assert page.inner_text("#theme") == "Theme: system"
    assert page.evaluate(background) == "rgb(247, 243, 234)"


def test_a_name_chosen_once_is_shown_and_remembered(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#start")
    page.fill("#name", "Ann")
    page.check('input[name="game"][value="felli"]')
    page.check('input[name="opponent"][value="computer"]')
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board .pt")
    assert "White: Ann (you)" in page.inner_text("#players")
    page.goto(server + "/")
    page.wait_for_selector("#start")
    assert page.input_value("#name") == "Ann"


def test_sounds_follow_the_game_and_the_switch_is_remembered(page: Any, server: str) -> None:
    start(page, server, "felli", "hotseat", position=FELLI_ENDGAME)
    last = "document.body.dataset.lastSound"
    point(page, "a1").click()
    point(page, "b2").click()
    wait_moves(page, 1)
    page.wait_for_function(f"{last} === 'move'")
    assert page.inner_text("#sound") == "Sound: on"
    page.click("#sound")
    assert page.inner_text("#sound") == "Sound: off"
    page.reload()
    page.wait_for_selector("#board .pt")
    assert page.inner_text("#sound") == "Sound: off"
    point(page, "b4").click()
    point(page, "c3").click()
    wait_moves(page, 2)
    point(page, "b2").click()
    point(page, "d4").click()  # a capture that ends the game
    page.wait_for_function(f"{last} === 'end'")
    page.click("#result-close")
    page.click("#sound")
    assert page.evaluate("localStorage.getItem('ludoteca:sound')") == "on"


def test_premove_is_played_when_the_turn_comes(browser: Any, server: str) -> None:
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 860}, bypass_csp=True)
        for _ in range(2)
    ]
    ann, bob = (c.new_page() for c in contexts)
    try:
        start(ann, server, "morris", "online", colour="white")
        bob.goto(ann.input_value("#invite-link"))
        join(bob)
        # Bob queues f4 while Ann is to move: marked, and said so
        point(bob, "f4").click()
        assert bob.locator('#board .pt[data-name="f4"] .ring.premove').count() == 1
        assert "Premove: f4" in bob.inner_text("#status")
        point(ann, "d6").click()
        for page in (ann, bob):  # played as soon as Bob's turn came
            assert wait_moves(page, 2) == ["d6", "f4"]
        assert bob.locator("#board .ring.premove").count() == 0
        # a click elsewhere cancels a premove
        point(bob, "b4").click()
        assert bob.locator("#board .ring.premove").count() == 1
        bob.click("#status")
        assert bob.locator("#board .ring.premove").count() == 0
        point(ann, "d2").click()
        assert wait_moves(bob, 3)[-1] == "d2"
        assert "Your move" in bob.inner_text("#status")  # nothing was played for Bob
        # a premove that is not legal when the turn comes is dropped, with a word
        point(bob, "b4").click()
        for page in (ann, bob):
            assert wait_moves(page, 4)[-1] == "b4"
        point(bob, "b6").click()  # premove b6...
        point(ann, "b6").click()  # ...which Ann takes first
        bob.wait_for_selector("#notice:not([hidden])")
        assert "premove (b6) is not legal now" in bob.inner_text("#notice")
        assert wait_moves(bob, 5)[-1] == "b6" and len(moves(bob)) == 5
    finally:
        for context in contexts:
            context.close()


def test_the_status_says_who_may_fly(page: Any, server: str) -> None:
    start(page, server, "morris", "hotseat", position="W.W/.W./.../WW..../.../.../BBB w 0 0 0 40")
    assert "Black has three men left and may fly" in page.inner_text("#status")


def test_an_unknown_game_gets_the_not_found_page(page: Any, server: str) -> None:
    answer = page.goto(server + "/game/doesnotexist")
    assert answer is not None and answer.status == 404
    assert page.inner_text("header.top h1") == "Not found"
    assert page.locator("#undo, #resign, #board").count() == 0  # no toolbar, no board
    assert "Loading" not in page.inner_text("body")


def test_the_review_page_numbers_moves_as_records_do(page: Any, server: str) -> None:
    page.goto(server + "/review")
    page.fill("#record", '[Game "morris"]\n\n1. d7 a1 2. g7 a7 3. d6 d1 *\n')
    page.click("#load button[type=submit]")
    page.wait_for_selector("#moves button.move")
    rows = page.locator("#moves li").all_inner_texts()
    # (the record's report may already be ready, from an earlier test: its marks, "a1??", go)
    unmarked = [[re.sub(r"[?!]+$", "", word) for word in r.split()] for r in rows]
    assert unmarked == [["1.", "d7", "a1"], ["2.", "g7", "a7"], ["3.", "d6", "d1"]]
    page.locator("#moves button.move", has_text="a7").click()
    assert "Move 4 of 6 (after 2... a7)" in page.inner_text("#status")
    assert re.sub(r"[?!]+$", "", page.locator("#moves button.current").inner_text()) == "a7"
    # a record's error names its own line
    page.fill(
        "#record", '[Game "morris"]\n[Rules "morris"]\n\n1. d7 a1 2. g7 a7\n3. d6 d1 4. b4 zz9 *\n'
    )
    page.click("#load button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.inner_text("#notice").startswith("line 5: ply 8 (zz9)")


def test_the_lobby_preview_fits_each_rule_set(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.check('input[name="game"][value="morelli"]')
    for rules, cells in (("morelli-9", 81), ("morelli-11", 121), ("morelli", 169)):
        page.select_option("#rules", rules)
        assert page.locator("#preview .pt").count() == cells
        box = page.locator("#preview").bounding_box()
        assert box is not None and box["width"] >= 240  # large enough to read
    page.check('input[name="game"][value="felli"]')
    # Felli's Mullah rules are a rule set of their own, not a checkbox; options are in words
    assert "Felli with Mullahs" in page.locator("#rules option").all_inner_texts()
    labels = page.locator("#settings label").all_inner_texts()
    assert labels and not any("_" in text or "mullah" in text.lower() for text in labels)


def test_the_lobby_offers_morelli_setups(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.check('input[name="game"][value="morelli"]')
    page.select_option("#rules", "morelli-9")
    setup = page.locator('#settings select[name="setup"]')
    # Boardspace's setups, the usual one first; not Free, where nothing can be played
    assert setup.locator("option").all_inner_texts() == [
        "Random opposite",
        "Adjacent",
        "Opposing",
        "Random",
        "Blocks",
    ]
    setup.select_option("opposing")
    page.check('input[name="opponent"][value="hotseat"]')
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector('#board .pt[data-name="A1"][data-piece="b"]')
    assert page.inner_text("#title") == "Morelli 9x9 (Opposing setup)"
    # Opposing: Black holds the bottom row but I1 and the top row but A9
    assert [piece(page, f"{c}1") for c in "ABCDEFGHI"] == ["b"] * 8 + ["w"]
    assert [piece(page, f"{c}9") for c in "ABCDEFGHI"] == ["w"] + ["b"] * 8
    assert piece(page, "A5") == "w" and piece(page, "I5") == "w"


def test_morelli_on_a_phone(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    try:
        start(page, server, "morelli", "computer", colour="black")
        cell = point(page, "A1").bounding_box()
        assert cell is not None and cell["width"] >= 29  # was 27 px with margins round the board
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # each player's bar on one line (measured in one step: an update from the computer's
        # move may draw the bars again between two steps)
        heights = page.locator(".player").evaluate_all(
            "nodes => nodes.map(n => n.getBoundingClientRect().height)"
        )
        assert len(heights) == 2 and all(0 < h < 48 for h in heights), heights
        # and no text in them cut short ("3 on t…")
        clipped = page.locator(".player .who, .tray .count").evaluate_all(
            "nodes => nodes.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"
        )
        assert clipped == []
        shot(page, "morelli-phone")
    finally:
        context.close()


def test_a_game_against_the_computer_can_have_clocks(page: Any, server: str) -> None:
    start(page, server, "morris", "computer", level=1, colour="white", clock="3+2")
    times = page.locator(".player .time")
    assert times.count() == 2 and all(
        re.fullmatch(r"\d+:\d\d", t) for t in times.all_inner_texts()
    ), times.all_inner_texts()
    point(page, "d6").click()
    wait_moves(page, 2)  # the computer answered, on its clock
    page.wait_for_function(
        "document.querySelector('.player .time.running')?.dataset.colour === 'white'"
    )  # and mine runs again


def test_low_time_is_shown_and_sounded(page: Any, server: str) -> None:
    page.clock.install()  # the page's own time, moved on below (the server's is untouched)
    start(page, server, "morris", "hotseat", clock="3+2")
    point(page, "d6").click()
    wait_moves(page, 1)
    black = page.locator('.player .time[data-colour="black"]')
    page.wait_for_function(
        "document.querySelector('.player .time[data-colour=black]').classList.contains('running')"
    )
    assert "low" not in (black.get_attribute("class") or "")
    page.clock.fast_forward(175_000)  # 3:00 less 2:55: five seconds left
    page.wait_for_function(
        "document.querySelector('.player .time[data-colour=black]').classList.contains('low')"
    )
    assert black.inner_text().startswith("0:0")
    assert page.evaluate("document.body.dataset.lastSound") == "low"


def test_the_lobby_lists_an_open_game_until_its_creator_cancels_it(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('ludoteca:name', 'Cleo')")  # chosen once, remembered
    start(page, server, "morris", "online", rules="morris-6", clock="10+5")
    game = page.url
    page.goto(server + "/")
    row = page.locator("#open li", has=page.locator(f'a[href="{game.removeprefix(server)}"]'))
    row.wait_for()
    text = row.inner_text()
    for words in (
        "Six Men's Morris",
        "clock 10 min + 5 s",
        "Cleo v an open seat",
        "0 moves",
        "active just now",
    ):
        assert words in text, text
    page.goto(game)
    page.wait_for_selector("#board .pt")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#cancel")
    page.wait_for_selector("dialog#result[open]")
    assert page.inner_text("#result-title") == "Game cancelled"
    page.goto(server + "/")
    page.wait_for_selector("#open[data-listed]")  # the server's list, not the placeholder
    assert page.locator(f'#open a[href="{game.removeprefix(server)}"]').count() == 0


def sign_up_in_browser(page: Any, server: str, name: str) -> None:
    page.goto(server + "/account")
    page.fill("#up-name", name)
    page.fill("#up-password", "a long password")
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_url(server + "/")
    page.wait_for_selector("#me")
    assert page.inner_text("#me") == name


def test_two_accounts_play_a_rated_game_from_a_seek(browser: Any, server: str) -> None:
    from ..support import glicko2_reference

    contexts = [
        browser.new_context(
            viewport={"width": 1280, "height": 900}, bypass_csp=True, accept_downloads=True
        )
        for _ in range(3)
    ]
    ann, bob, eve = (c.new_page() for c in contexts)
    try:
        sign_up_in_browser(ann, server, "Annie")
        sign_up_in_browser(bob, server, "Bobby")
        # Ann offers a rated five-minute game of Nine Men's Morris, playing White, with the one
        # form: its game and rule set, "Anyone in the lobby" as the opponent, clock and colour
        assert ann.locator("#seek-clock, #seek-colour").count() == 0  # no second set of controls
        ann.check('input[name="game"][value="morris"]')
        ann.select_option("#rules", "morris")
        ann.check('input[name="opponent"][value="seek"]')
        assert ann.locator("#start").is_hidden() and ann.locator("#level").is_hidden()
        ann.select_option("#clock", "5+0")
        ann.select_option("#colour", "white")
        ann.check("#rated")
        ann.click("#post-seek")
        ann.locator("#seek-status", has_text="on offer").wait_for()
        offer = bob.locator("#seeks li", has_text="Annie")
        offer.wait_for()
        text = offer.inner_text()
        for words in ("Nine Men's Morris", "clock 5 min + 0 s", "rated", "(1500)", "plays White"):
            assert words in text, text
        offer.locator("button", has_text="Accept").click()
        bob.wait_for_url("**/game/*")
        ann.wait_for_url(bob.url)  # Ann's lobby opens the game once her seek is taken
        for page in (ann, bob):
            page.wait_for_selector("#board .pt")
        assert "Annie (1500?" in ann.inner_text(".player.white")
        point(ann, "d6").click()
        assert wait_moves(bob, 1) == ["d6"]
        # chat between the players: plain text, never markup; spectators have their own room
        bob.fill("#chat-input", "good luck <img src=x id=injected>")
        bob.press("#chat-input", "Enter")
        line = ann.locator("#chat-lines li", has_text="good luck")
        line.wait_for()
        assert line.inner_text() == "Bobby:good luck <img src=x id=injected>"
        assert ann.locator("#injected").count() == 0
        eve.goto(bob.url)
        eve.wait_for_selector("#board .pt")
        eve.wait_for_selector("#chat:not([hidden])")
        eve.fill("#chat-input", "hello from the stands")
        eve.press("#chat-input", "Enter")
        eve.locator("#chat-lines li", has_text="hello from the stands").wait_for()
        # the server sent her room's earlier lines before it read her line: the players' room
        # is not hers, so hers is the only line
        assert eve.locator("#chat-lines li").all_inner_texts() == [
            "Spectator:hello from the stands"
        ]
        eve.reload()  # a spectator's history: the spectators' room only
        eve.wait_for_selector('#chat-lines[data-history="received"]')
        assert eve.locator("#chat-lines li").all_inner_texts() == [
            "Spectator:hello from the stands"
        ]
        bob.fill("#chat-input", "your move")
        bob.press("#chat-input", "Enter")
        ann.locator("#chat-lines li", has_text="your move").wait_for()
        assert ann.locator("#chat-lines li", has_text="stands").count() == 0
        # muting the opponent hides their lines
        ann.check("#mute")
        assert ann.locator("#chat-lines li", has_text="your move").is_hidden()
        # Bob resigns: both ratings change as Glicko-2 says (a second implementation)
        bob.once("dialog", lambda dialog: dialog.accept())
        bob.click("#resign")
        win = glicko2_reference.rate(1500, 350, 0.06, [(1500, 350, 1.0)])
        loss = glicko2_reference.rate(1500, 350, 0.06, [(1500, 350, 0.0)])
        gain = round(win[0]) - 1500
        # the result dialog speaks to each player, with the rating change
        for page, title, rating in (
            (ann, "You won", f"Your rating: {round(win[0])}? (+{gain})"),
            (bob, "You lost", f"Your rating: {round(loss[0])}? (\u2212{1500 - round(loss[0])})"),
        ):
            page.wait_for_selector("dialog#result[open]")
            assert page.inner_text("#result-title") == title
            assert page.inner_text("#result-reason") == "1-0 · White wins: resignation."
            page.locator("#result-rating", has_text=rating).wait_for()
            shot(page, f"result-{title.split()[1]}")
            page.click("#result-close")
        ann.wait_for_function(
            f"document.querySelector('.player.white').innerText.includes('+{gain}')"
        )
        assert f"Annie ({round(win[0])}? +{gain})" in ann.inner_text(".player.white")
        assert f"Bobby ({round(loss[0])}? \u2212{1500 - round(loss[0])})" in ann.inner_text(
            ".player.black"
        )
        game_url = ann.url
        # the profiles show the game and the new ratings; the record downloads
        for page, name, expected in ((ann, "Annie", win), (bob, "Bobby", loss)):
            page.click("#me")
            page.wait_for_url(f"**/players/{name}")
            page.wait_for_selector("#ratings table")
            assert f"{round(expected[0])}?" in page.inner_text("#ratings")
            assert page.locator("#chart polyline").count() == 1
            # every text of the chart (ticks, the legend) lies wholly inside its picture
            inside = page.evaluate("""() => {
                const box = document.querySelector('#chart').viewBox.baseVal;
                return [...document.querySelectorAll('#chart text')].every((t) => {
                    const b = t.getBBox();
                    return b.x >= 0 && b.y >= 0 && b.x + b.width <= box.width
                        && b.y + b.height <= box.height;
                });
            }""")
            assert inside
            row = page.locator(
                "#games tr", has=page.locator(f'a[href="{game_url.removeprefix(server)}"]')
            )
            assert "1-0" in row.inner_text()
            shot(page, f"profile-{name}")
        with ann.expect_download() as download:
            ann.locator("#games a", has_text="Record").first.click()
        text = Path(download.value.path()).read_text()
        assert '[White "Annie"]' in text and '[Black "Bobby"]' in text and "1-0" in text
        # the lobby, visited again in the tab that posted the seek, stays the lobby: the taken
        # seek led the tab to its game once, and is forgotten
        ann.goto(server + "/")
        ann.wait_for_selector('html[data-ready="1"]')
        assert ann.evaluate("sessionStorage.getItem('ludoteca:seeks')") == "[]"
        assert ann.url == server + "/"
        # the finished games list finds it by player and result
        ann.goto(server + "/games?player=bobby&result=1-0")
        ann.wait_for_selector("#games table")
        assert ann.locator(f'#games a[href="{game_url.removeprefix(server)}"]').count() == 1
        shot(ann, "finished-games")
    finally:
        for context in contexts:
            context.close()


def laptop(browser: Any, scheme: str = "light") -> Any:
    """A page in a 1366x768 window (the laptop screen the layout must fit)."""
    context = browser.new_context(
        viewport={"width": 1366, "height": 768}, bypass_csp=True, color_scheme=scheme
    )
    return context.new_page()


def in_view(page: Any, selector: str) -> bool:
    """The element is wholly inside the window as it is scrolled now."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


def test_a_refused_typed_move_keeps_its_text_and_says_why_beside_the_box(
    browser: Any, server: str
) -> None:
    page = laptop(browser)
    try:
        start(page, server, "morris", "hotseat")
        page.fill("#move-input", "d6-zz")
        page.press("#move-input", "Enter")
        page.wait_for_selector("#move-error:not([hidden])")
        assert page.input_value("#move-input") == "d6-zz"  # kept, to be corrected
        assert "d6-zz" in page.inner_text("#move-error")
        assert in_view(page, "#move-error") and in_view(page, "#move-input")
        assert page.locator("#notice").is_hidden()  # said once, beside the box
        shot(page, "typed-move-refused", full_page=False)
        page.press("#move-input", "Backspace")  # the next action clears it
        assert page.locator("#move-error").is_hidden()
        page.fill("#move-input", "d6")
        page.press("#move-input", "Enter")
        assert wait_moves(page, 1) == ["d6"]
        page.wait_for_function("document.querySelector('#move-input').value === ''")
        assert page.locator("#move-error").is_hidden()
    finally:
        page.context.close()


def test_the_pages_fit_a_laptop_screen(browser: Any, server: str) -> None:
    """At 1366x768: the lobby's quick start and "Start the game" without scrolling; the status
    line under the board whole; the review page's step buttons with the header still there."""
    page = laptop(browser)
    try:
        page.goto(server + "/")
        page.wait_for_selector(".quick-button")
        assert in_view(page, "#start") and in_view(page, ".quick-button >> nth=0")
        page.evaluate("window.scrollTo(0, 300)")  # still there with the options scrolled
        assert in_view(page, "#start")
        start(page, server, "morris", "hotseat", rules="morris-12")
        point(page, "d6").click()
        wait_moves(page, 1)
        assert "In hand: White 11, Black 12." in page.inner_text("#status")
        shot(page, "laptop-game", full_page=False)
        assert page.evaluate("window.scrollY") == 0 and in_view(page, "#status")
        status = page.locator("#status")
        assert status.evaluate("n => n.scrollHeight <= n.clientHeight + 1")
        page.goto(server + "/review")
        page.fill("#record", '[Game "morris"]\n\n1. d7 a1 2. g7 a7 *\n')
        page.click("#load button[type=submit]")
        page.wait_for_selector("#board .pt")
        page.evaluate("window.scrollTo(0, 0)")
        assert in_view(page, "#next") and in_view(page, "#status")
        page.click("#next")
        page.click("#next")
        assert "Move 2 of 4" in page.inner_text("#status")
        assert page.evaluate("window.scrollY") == 0 and in_view(page, "header.top")
    finally:
        page.context.close()


def test_the_board_is_one_tab_stop(page: Any, server: str) -> None:
    """Morelli's 169 cells are one Tab stop: the arrows move within the board, Tab leaves it
    for the toolbar (no move made yet: "Take back" is disabled, "Offer draw" comes first),
    Shift+Tab comes back to the point last visited."""
    start(page, server, "morelli", "hotseat")
    stops = "document.querySelectorAll('#board [tabindex=\"0\"]').length"
    assert page.evaluate(stops) == 1
    page.locator("#board [tabindex='0']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    visited = page.evaluate("document.activeElement.dataset.name")
    assert page.evaluate(stops) == 1
    assert page.get_attribute(f'#board .pt[data-name="{visited}"]', "tabindex") == "0"
    presses = 0
    while page.evaluate("document.activeElement.id") != "resign":  # past "Offer draw"
        page.keyboard.press("Tab")
        presses += 1
        assert presses <= 3, page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Shift+Tab")
    while page.evaluate("document.activeElement.closest('#board') === null"):
        page.keyboard.press("Shift+Tab")
        presses -= 1
        assert presses > -3
    assert page.evaluate("document.activeElement.dataset.name") == visited


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS colours "rgb(r, g, b)"."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_morelli_last_move_frame_shows_on_every_band(page: Any, server: str) -> None:
    """The last move's frame is two outlines, dark and light: against each band's colour one of
    them has a contrast of at least 3 (WCAG's for graphics)."""
    start(page, server, "morelli", "hotseat", rules="morelli-9")
    mover = "b" if "(Black)" in page.inner_text("#status") else "w"
    page.locator(f"#board .pt[data-piece='{mover}']").first.click()
    page.locator("#board .dot").first.click()
    wait_moves(page, 1)
    frames = page.locator("#board .pt.last rect.glow").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).stroke)"
    )
    assert len(frames) == 2 * page.locator("#board .pt.last").count() >= 4
    bands = set(
        page.locator("#board rect.cell").evaluate_all(
            "nodes => nodes.map(n => getComputedStyle(n).fill)"
        )
    )
    assert len(bands) >= 5  # the board's colours, from the server's board description
    for band in bands:
        assert max(contrast(band, frame) for frame in frames[:2]) >= 3, band


def test_quick_start_opens_a_game_against_the_computer(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.click('.quick-button[data-game="felli"][data-opponent="computer"]')
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board .pt")
    assert page.inner_text("#title").startswith("Felli")
    assert "White: Player (you)" in page.inner_text("#players")
    assert "Computer" in page.inner_text(".player.black")
    assert page.locator("#chat").is_hidden()  # no one to chat with
    page.goto(server + "/")
    page.click('.quick-button[data-game="morris"][data-opponent="online"]')
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#invite:not([hidden])")
    assert "Waiting for a second player" in page.inner_text("#status")


def test_board_themes_are_chosen_and_remembered(page: Any, server: str) -> None:
    start(page, server, "morris", "hotseat")
    board = "getComputedStyle(document.querySelector('#board')).backgroundColor"
    stone = "getComputedStyle(document.querySelector('#board .stone') || document.body).fill"
    point(page, "d6").click()
    wait_moves(page, 1)
    classic = page.evaluate(board)
    page.select_option("#board-theme", "wood")
    wood = page.evaluate(board)
    assert wood != classic
    page.select_option("#board-theme", "contrast")
    assert page.evaluate(board) == "rgb(255, 255, 255)"
    assert page.evaluate(stone) == "rgb(255, 255, 255)"
    line = page.evaluate("getComputedStyle(document.querySelector('#board .line')).stroke")
    assert line == "rgb(0, 0, 0)"
    page.reload()  # remembered in this browser, on every page with a board
    page.wait_for_selector("#board .pt")
    assert page.input_value("#board-theme") == "contrast"
    assert page.evaluate(board) == "rgb(255, 255, 255)"
    page.select_option("#board-theme", "wood")
    shot(page, "board-wood")
    page.goto(server + "/review")
    page.wait_for_selector("#board-theme")
    assert page.input_value("#board-theme") == "wood"


def test_the_app_is_installable_and_works_offline(
    playwright: Any, server: str, tmp_path: Path
) -> None:
    """Chromium's installability check (DevTools protocol) finds no error; the service worker
    is active; with the network down the lobby comes from its cache, with the offline notice.
    (A browser profile of its own: Chromium installs nothing from a private window.)"""
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=need("chromium"),
        viewport={"width": 390, "height": 844},
    )  # the content security policy enforced
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server + "/")
        page.wait_for_selector(".quick-button")
        state = page.evaluate(
            "navigator.serviceWorker.ready.then((r) => r.active && r.active.state)"
        )
        assert state in ("activating", "activated")
        until(page, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')")
        page.reload()  # now under the worker's control
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        cdp = context.new_cdp_session(page)
        found = cdp.send("Page.getInstallabilityErrors")
        assert found["installabilityErrors"] == [], found
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest["errors"], manifest
        assert page.locator("#offline").is_hidden()
        context.set_offline(True)
        page.wait_for_selector("#offline:not([hidden])")
        page.reload()
        page.wait_for_selector("#offline:not([hidden])")
        assert "offline" in page.inner_text("#offline")
        assert page.locator("#start").count() == 1  # the lobby's saved copy
        shot(page, "offline-lobby-390x844")
        context.set_offline(False)
        page.wait_for_selector("#offline", state="hidden")
        assert not errors, errors
    finally:
        context.close()


def legal_after(code: str, moves: list[str]) -> set[str]:
    """The notations of the legal moves after ``moves`` from the position ``code``
    (Felli)."""
    state = ludoteca.load("felli").from_position_code(code)
    for move in moves:
        state.push(move)
    return {str(state.move_of(c)) for c in state.legal_codes()}


def engine_moves(page: Any) -> set[str]:
    """The first moves of the engine lines shown (read in one step: the lines are drawn
    again as each depth arrives)."""
    moves: list[str] = page.locator("#lines li").evaluate_all(
        "nodes => nodes.map(n => n.dataset.move)"
    )
    return set(moves)


def test_the_analysis_board_from_a_finished_game(page: Any, server: str) -> None:
    start(page, server, "felli", "hotseat", position=FELLI_ENDGAME)
    for n, (a, b) in enumerate([("a1", "b2"), ("b4", "c3"), ("b2", "d4")], start=1):
        point(page, a).click()
        point(page, b).click()
        wait_moves(page, n)
    page.wait_for_selector("dialog#result[open]")
    page.click("#result-close")
    page.click("#analysis-board")
    page.wait_for_url("**/analysis?*")
    page.wait_for_selector("#tree button.move")
    assert page.locator("#tree button.move").all_inner_texts() == ["1. a1-b2", "b4-c3", "2. b2xd4"]
    page.wait_for_function("document.querySelector('#status').innerText.includes('White wins')")
    # back to Black's mistake: the engine's lines for Black, the best move as an arrow
    page.click('#tree button.move:text-is("1. a1-b2")')
    page.wait_for_function("document.querySelectorAll('#lines li').length > 0")
    assert engine_moves(page) <= legal_after(FELLI_ENDGAME, ["a1-b2"])
    assert page.locator("#board .arrows .arrow").count() >= 1
    assert re.fullmatch(
        r"[+-]\d+\.\d|(White|Black) wins in \d+|Draw", page.inner_text("#eval-number")
    )
    # a variation: Black steps aside instead; the lines are replaced by White's
    point(page, "b4").click()
    point(page, "c4").click()
    page.wait_for_selector("#tree .variation button.move.current")
    assert page.inner_text("#tree .variation button.move.current") == "1... b4-c4"
    white = legal_after(FELLI_ENDGAME, ["a1-b2", "b4-c4"])
    shown = "[...document.querySelectorAll('#lines li')]"
    page.wait_for_function(
        f"{shown}.length > 0 && {shown}.every(li => {sorted(white)}.includes(li.dataset.move))"
    )
    assert piece(page, "c4") == "b" and piece(page, "b4") == ""
    # jump back to the main line, then promote the variation
    page.click('#tree button.move:text-is("b4-c3")')
    page.wait_for_function("document.querySelector('#status').innerText.includes('b4-c3')")
    assert piece(page, "c3") == "b"
    page.click("#tree .variation button.move")
    page.wait_for_function("document.querySelector('#status').innerText.includes('b4-c4')")
    page.click("#promote")
    main = page.locator("#tree > button.move").all_inner_texts()
    assert main == ["1. a1-b2", "b4-c4"]
    assert page.locator("#tree .variation button.move").all_inner_texts() == [
        "1... b4-c3",
        "2. b2xd4",
    ]
    shot(page, "analysis-board")


def test_the_position_editor_refuses_an_impossible_position(page: Any, server: str) -> None:
    page.goto(server + "/analysis?game=morris")
    page.wait_for_selector("#board .pt")
    page.wait_for_function("document.querySelector('#status').innerText.includes('White to move')")
    page.click("#edit")
    page.check('#palette input[value="w"]')
    point(page, "a7").click()
    assert piece(page, "a7") == "w"
    assert page.input_value("#editor-hand-white") == "9"  # as in the position shown
    page.click("#editor button[type=submit]")  # a tenth white man
    page.wait_for_selector("#editor-error:not([hidden])")
    assert page.inner_text("#editor-error") == "White has more than 9 men on the board and in hand"
    page.fill("#editor-hand-white", "8")
    page.select_option("#editor-turn", "black")
    page.click("#editor button[type=submit]")
    page.wait_for_function("document.querySelector('#status').innerText.includes('Black to move')")
    assert piece(page, "a7") == "w" and page.locator("#editor").is_hidden()
    assert page.locator("#editor-error").is_hidden()
    # a position code typed in: refused with the reason, changing nothing
    page.fill("#editor-code", "W../.../.../....../.../.../... w 9 9 0 0")
    page.click("#code-form button[type=submit]")
    page.wait_for_selector("#editor-error:not([hidden])")
    assert page.inner_text("#editor-error") == "White has more than 9 men on the board and in hand"
    assert "Black to move" in page.inner_text("#status")
    page.fill("#editor-code", ".../.../.../....../.../.../..W w 8 8 0 2")
    page.click("#code-form button[type=submit]")
    page.wait_for_function("document.querySelector('#status').innerText.includes('White to move')")
    assert piece(page, "g1") == "w" and piece(page, "a7") == ""


def test_the_review_page_opens_its_record_on_the_analysis_board(page: Any, server: str) -> None:
    page.goto(server + "/review")
    page.fill("#record", '[Game "morris"]\n\n1. d7 a1 2. g7 a7 *\n')
    page.click("#load button[type=submit]")
    page.wait_for_selector("#board .pt")
    page.click("#next")
    page.click("#next")
    page.click("#analysis-board")
    page.wait_for_url("**/analysis?*")
    page.wait_for_selector("#tree button.move.current")
    assert page.locator("#tree button.move").all_inner_texts() == ["1. d7", "a1", "2. g7", "a7"]
    assert page.inner_text("#tree button.move.current") == "a1"  # the position shown
    assert piece(page, "d7") == "w" and piece(page, "a1") == "b" and piece(page, "g7") == ""


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_stored_report_survives_a_restart(page: Any, database_url: str) -> None:
    """A finished game's report is made once and stored: a restarted server shows it at once,
    with its graph, and a marked move draws the move played and the better move as arrows.
    (On SQLite: that PostgreSQL keeps and serves it after a restart is
    tests/server/test_server_report.py's.)"""
    from ludoteca.ai import Limit
    from ludoteca.server import Settings, create_app

    settings = Settings(db=database_url, workers=1, report_limit=Limit(depth=3))
    with serving(create_app(settings)) as port:
        address = f"http://127.0.0.1:{port}"
        start(page, address, "felli", "hotseat", position=FELLI_ENDGAME)
        for n, (a, b) in enumerate([("a1", "b2"), ("b4", "c3"), ("b2", "d4")], start=1):
            point(page, a).click()
            point(page, b).click()
            wait_moves(page, n)
        page.wait_for_selector("dialog#result[open]")
        page.click("#result-analyse")
        page.wait_for_selector("#report svg.graph", timeout=REPORT_WAIT)
        path = page.url.removeprefix(address)
    with serving(create_app(settings)) as port:  # the server restarted on the same database
        page.goto(f"http://127.0.0.1:{port}{path}")
        page.wait_for_selector("#report svg.graph", timeout=REPORT_WAIT)
        assert "Analysing" not in page.inner_text("#report")
        assert page.locator("#report svg.graph .point").count() == 4  # one a position
        assert page.locator("#report svg.graph .point.blunder").count() == 1
        blunders = page.locator('#report tr[data-figure="blunders"] td[data-side="black"]')
        assert blunders.inner_text() == "1"
        page.click("#report .marked button")
        page.wait_for_selector("#board .arrow.played")
        assert page.locator("#board .arrow.best").count() >= 1
        assert "Looking back: move 1 of 3" in page.inner_text("#status")
        assert "Line: " in page.inner_text("#report .detail")
        page.locator("#report svg.graph .point").nth(3).click()  # the graph jumps too
        page.wait_for_function("!document.querySelector('#board .arrow')")
        shot(page, "game-report")


# A Morelli game in Boardspace's record format, written by hand as Boardspace writes one (its
# SGF-like history steps, docs/formats.md): the setup Boardspace deals for key 7 at revision 102
# (RandomOpposite, 9x9), eight moves legal from it (no record from boardspace.net is kept here)
#: a Boardspace Morelli record (tests/data/boardspace/README.md says where it comes from):
#: 9x9 Blocks, P0 passes the first move to P1, moves by hand and by Move, a comment, a resignation
BOARDSPACE_MORELLI = (
    Path(__file__).parents[1] / "data" / "boardspace" / "morelli-9-blocks-pie.sgf"
).read_text()


def test_a_pasted_boardspace_record_is_replayed_and_analysed(page: Any, server: str) -> None:
    """A Boardspace record pasted into the review page: read as Boardspace's (its setup Blocks,
    Black is P1, "bob", who took the first move), every move replayed and steppable, and its
    report made.  (A few seconds once the module's server is warm, most of it the report of
    twenty Morelli positions at depth 3.)"""
    page.goto(server + "/review")
    page.fill("#record", BOARDSPACE_MORELLI)
    page.click("#load button[type=submit]")
    page.wait_for_selector("#moves button.move")
    played = [
        re.sub(r"[?!]+$", "", m) for m in page.locator("#moves button.move").all_inner_texts()
    ]
    assert played[:4] == ["I2-E6", "D9-D3", "A9-C7", "I3-E3"] and len(played) == 19
    assert played[-1] == "G8-G5"
    # the start is Boardspace's Blocks with the colours exchanged: bob (Black) on A9, B9, C9,
    # ann (White) on I9, I8, I7 and on A1; bob's first move took I2 to E6
    page.locator("#moves button.move").first.click()
    assert "Move 1 of 19" in page.inner_text("#status")
    assert piece(page, "A9") == "b" and piece(page, "I8") == "w" and piece(page, "A1") == "w"
    assert piece(page, "I2") == ""
    assert piece(page, "E6") == "b"
    page.locator("#moves button.move").nth(18).click()
    assert "Move 19 of 19" in page.inner_text("#status")
    assert piece(page, "E5") == "kb"  # bob's King holds the Throne
    page.wait_for_selector("#report svg.graph", timeout=REPORT_WAIT)
    assert page.locator("#report svg.graph .point").count() == 20  # one a position


def test_an_imported_record_gets_its_report(page: Any, server: str) -> None:
    text = (
        f'[Game "felli"]\n[Position "{FELLI_ENDGAME}"]\n[Result "1-0"]\n\n'
        "1. a1-b2 b4-c3 2. b2xd4 1-0\n"
    )
    page.goto(server + "/review")
    page.fill("#record", text)
    page.click("#load button[type=submit]")
    page.wait_for_selector("#report svg.graph", timeout=REPORT_WAIT)
    assert page.locator("#moves .mistake").all_inner_texts() == ["b4-c3??"]
    page.click("#report .marked button")
    page.wait_for_selector("#board .arrow.played")
    assert page.locator("#board .arrow.best").count() >= 1
    assert "Move 1 of 3" in page.inner_text("#status")

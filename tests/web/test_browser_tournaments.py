"""A Swiss and an arena of six in the browser, played to the end: two people (two browser
contexts) and four of the server's computer levels, entered by the creator from the
tournament page as she would.  The people join from the page, open their games from its
pairings and play their moves on the board (then resign, or agree a draw); the computer
plays the levels' games to their end.  The server's clock is injected and stands still (no
game is lost on time), moved on only to start each tournament and to end the arena.

What the page shows at the end is checked against a second, plain computation here, from
the results the page shows: the Swiss's points, Buchholz, Buchholz cut-1 and Sonneborn-Berger
and its order; its pairings, worked out by hand from the Dutch rules for round 1 and for each
of the three ways the levels' game of round 1 can end; the arena's points with their streaks,
performances, order and first pairing.

Seeding: everyone's rating is 1500 (new accounts), and all joined at the same instant of the
standing clock, so the accounts' ages decide: Ann, Bob (signed up first), then the levels
(their accounts made together, in order, when the first is entered).

Cost: 30-45 s of one test (and 5 s for its server), measured on the 2-core machine while
other runs kept its load at 13: the pages' round trips and the computer's moves (levels 1
to 4, a few ms each); the scheduler looks every 0.25 s."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from ludoteca.server import Settings, create_app

from ..server.test_server_tournaments import MINUTE, START, Clock, iso
from ..support.browser import point, until, wait_moves
from ..support.live_server import serving

LEVELS = [f"morris-level-{n}" for n in range(1, 5)]
SEEDING = ["Ann", "Bob", *LEVELS]
#: points on the board of Nine Men's Morris, tried in turn for a move
POINTS = ["d6", "d2", "b4", "f4", "a1", "g7", "a7", "g1"]


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def clocked_server(browser_database: str, clock: Clock) -> Iterator[str]:
    """The app on a fresh database, its clock ``clock``, its tournaments looked at often."""
    settings = Settings(db=browser_database, workers=1, tournament_every=0.25, seek_wait=0)
    with serving(create_app(settings, clock=clock)) as port:
        address = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(address + "/healthz", timeout=120) as answer:
            assert answer.status == 200
        yield address


def sign_up(page: Any, server: str, name: str) -> str:
    answer = page.request.post(
        server + "/api/signup", data={"name": name, "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    csrf: str = answer.json()["csrf"]
    return csrf


def create(page: Any, server: str, csrf: str, **fields: Any) -> str:
    """A tournament of Nine Men's Morris made by the page's account: its page's address."""
    body = {"name": "Cup", "game": "morris", "clock": "5+0", **fields}
    answer = page.request.post(
        server + "/api/tournaments", data=body, headers={"X-CSRF-Token": csrf}
    )
    assert answer.status == 201, answer.text()
    url: str = server + answer.json()["url"]
    return url


def visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready]", state="attached")


def standings(page: Any) -> list[list[str]]:
    """The standings' rows as shown, the player's cell as its name alone (no mark)."""
    rows: list[list[str]] = page.eval_on_selector_all(
        "#standings tbody tr",
        """rows => rows.map((row) => [...row.cells].map((cell) =>
            (cell.querySelector('.player-name a') || cell).textContent.trim()))""",
    )
    return rows


def pairings(page: Any, links: bool = False) -> dict[int, list[tuple[str, ...]]]:
    """Each round's (or arena pairing's) boards as shown: white, black, result ("playing"),
    and with ``links`` the address of its game."""
    found: list[tuple[int, list[list[str]]]] = page.evaluate(
        """() => [...document.querySelectorAll('#rounds h3')].map((h) => [
            Number(h.textContent.match(/\\d+/)[0]),
            [...h.nextElementSibling.tBodies[0].rows].map((row) => [...row.cells].map((cell) =>
                (cell.querySelector('.player-name a') || cell).textContent.trim()).concat(
                [row.querySelector('a[href^="/game/"]')?.getAttribute('href') || '']))])"""
    )
    return {number: [tuple(row[: 4 if links else 3]) for row in rows] for number, rows in found}


def wait_round(page: Any, number: int) -> None:
    """Until the page (kept live by its websocket) shows round ``number``."""
    until(page, f"[...document.querySelectorAll('#rounds h3')].length >= {number}")


def wait_finished(page: Any) -> None:
    until(page, "document.querySelector('#about').textContent.includes('finished')", 60)


def enter_everyone(ann: Any, bob: Any, url: str) -> None:
    """Ann enters levels 1 to 4 from the tournament page, and joins; Bob joins."""
    visit(ann, url)
    ann.wait_for_selector("#computer:not([hidden]) #computer-level option", state="attached")
    for count, level in enumerate(LEVELS, 1):
        ann.select_option("#computer-level", level.rsplit("-", 1)[1])
        ann.click("#computer-enter")
        until(ann, f"document.querySelectorAll('#standings tbody tr').length === {count}")
    ann.click("#join")
    visit(bob, url)
    assert bob.locator("#computer").is_hidden()  # not his tournament
    bob.click("#join")
    bob.wait_for_selector("#withdraw:not([hidden])")
    assert sorted(row[1] for row in standings(bob)) == sorted(SEEDING)


def open_game(page: Any, url: str, number: int, name: str) -> str:
    """From the tournament page, open ``name``'s game of round ``number``; its colour."""
    visit(page, url)
    wait_round(page, number)
    [(white, _, _, href)] = [b for b in pairings(page, links=True)[number] if name in b[:2]]
    page.click(f'#rounds a[href="{href}"]')
    page.wait_for_selector("#board .pt")
    return "white" if name == white else "black"


def move(page: Any, plies: int) -> None:
    """Place a man on a free point once ``plies`` moves are on the page."""
    wait_moves(page, plies)
    free = next(p for p in POINTS if not point(page, p).get_attribute("data-piece"))
    point(page, free).click()
    wait_moves(page, plies + 1)


def resign(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    page.click("#resign")
    page.wait_for_selector("dialog#result[open]")


def against_the_computer(page: Any, url: str, number: int, name: str) -> None:
    """``name`` plays a move in their game of round ``number`` against a level, and resigns."""
    colour = open_game(page, url, number, name)
    move(page, 0 if colour == "white" else 1)
    resign(page)


def between_the_two(ann: Any, bob: Any, url: str, number: int, result: str) -> None:
    """Ann and Bob's game of round ``number``: a move each, then a draw agreed ("1/2-1/2") or
    Black's resignation ("1-0")."""
    pages = {open_game(ann, url, number, "Ann"): ann}
    pages[open_game(bob, url, number, "Bob")] = bob
    white, black = pages["white"], pages["black"]
    move(white, 0)
    move(black, 1)
    if result == "1-0":
        resign(black)
        return
    white.click("#draw")
    black.wait_for_selector("#offer:not([hidden])")
    black.click("#offer-yes")
    for page in (white, black):
        page.wait_for_selector("dialog#result[open]")


SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def by_hand(boards: list[tuple[str, ...]]) -> dict[str, list[tuple[str, float]]]:
    """Each player's games as (opponent, score), in the order of ``boards``."""
    games: dict[str, list[tuple[str, float]]] = {name: [] for name in SEEDING}
    for white, black, result in boards:
        if result in SCORES:
            games[white].append((black, SCORES[result][0]))
            games[black].append((white, SCORES[result][1]))
    return games


def swiss_by_hand(
    boards: list[tuple[str, ...]],
) -> list[tuple[str, float, float, float, float]]:
    """The Swiss's lines (name, points, Buchholz cut-1, Buchholz, Sonneborn-Berger) in the
    order of the rules: points, cut-1, Buchholz, Sonneborn-Berger, seeding."""
    games = by_hand(boards)
    points = {name: sum(s for _, s in mine) for name, mine in games.items()}
    lines = []
    for name, mine in games.items():
        theirs = [points[o] for o, _ in mine]
        buchholz = sum(theirs)
        sb = sum(points[o] * s for o, s in mine)
        lines.append((name, points[name], buchholz - min(theirs), buchholz, sb))
    return sorted(lines, key=lambda x: (-x[1], -x[2], -x[3], -x[4], SEEDING.index(x[0])))


def arena_by_hand(
    boards: list[tuple[str, ...]], ratings: dict[str, int]
) -> list[tuple[str, float, int | None, bool]]:
    """The arena's lines (name, points, performance, on a streak) in the order of the rules:
    points, performance (none: last), seeding.  A win 2, a draw 1; after two wins in a row
    each game counts double until one is not won."""
    lines = []
    for name, mine in by_hand(boards).items():
        points, wins = 0.0, 0
        for _, score in mine:
            points += 2 * score * (2 if wins >= 2 else 1)
            wins = wins + 1 if score == 1 else 0
        performance = None
        if mine:
            balance = sum(1 if s == 1 else -1 if s == 0 else 0 for _, s in mine)
            mean = sum(ratings[o] for o, _ in mine) / len(mine)
            performance = round(mean + 500 * balance / len(mine))
        lines.append((name, points, performance, wins >= 2))
    return sorted(lines, key=lambda x: (-x[1], -(x[2] or 0), SEEDING.index(x[0])))


def test_a_swiss_and_an_arena_of_two_people_and_four_levels(
    browser: Any, clocked_server: str, clock: Clock
) -> None:
    server = clocked_server
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 860}, bypass_csp=True)
        for _ in range(2)
    ]
    ann, bob = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        csrf = sign_up(ann, server, "Ann")
        sign_up(bob, server, "Bob")
        swiss = create(ann, server, csrf, system="swiss", rounds=2, starts=iso(START + MINUTE))
        arena = create(
            ann, server, csrf, system="arena", minutes=10, starts=iso(START + 60 * MINUTE)
        )
        enter_everyone(ann, bob, swiss)
        enter_everyone(ann, bob, arena)

        # --- the Swiss ---
        clock.ms = START + MINUTE
        # round 1 (C.04.3 art. 5.1, 5.2.5): 1-4, 5-2, 3-6, colours alternating down the boards
        against_the_computer(ann, swiss, 1, "Ann")
        against_the_computer(bob, swiss, 1, "Bob")
        visit(ann, swiss)
        wait_round(ann, 2)  # (once the levels' game of round 1 ended)
        first = pairings(ann)[1]
        assert [(w, b) for w, b, _ in first] == [
            ("Ann", "morris-level-2"),
            ("morris-level-3", "Bob"),
            ("morris-level-1", "morris-level-4"),
        ]
        assert [r for _, _, r in first[:2]] == ["0-1", "1-0"]  # (the people resigned)
        # round 2 by hand, for each end of the levels' game 3-6 (1: Ann, 2: Bob, 3-6: levels
        # 1-4).  Each had one colour: who had White would rather have Black, and the other way.
        # 3 won: {3, 4, 5} on 1 point: 3 meets 4 (S1 {3}, S2 {4, 5}), 4 had Black: 4-3; 5
        # moves down to {1, 2, 6}, met 2; 5-1 would leave both without Black, 6-5 gives
        # everyone their colour, and 2-1 then too.
        # 6 won: {4, 5, 6}: 4-5 (4 had Black); 6 moves down (met 3): 6-1, then 2-3.
        # A draw: {4, 5}: 4-5; 3 and 6 on ½ met: both move down to {1, 2}: 3-1 and 6-2 would
        # leave one of each pair without their colour; 2-3 and 6-1 give everyone theirs.
        l1, l2, l3, l4 = LEVELS
        expected = {
            "1-0": {(l2, l1), (l4, l3), ("Bob", "Ann")},
            "0-1": {(l2, l3), (l4, "Ann"), ("Bob", l1)},
            "1/2-1/2": {(l2, l3), ("Bob", l1), (l4, "Ann")},
        }[first[2][2]]
        second = pairings(ann)[2]
        assert {(w, b) for w, b, _ in second} == expected
        if ("Bob", "Ann") in expected:
            between_the_two(ann, bob, swiss, 2, "1/2-1/2")
        else:
            against_the_computer(ann, swiss, 2, "Ann")
            against_the_computer(bob, swiss, 2, "Bob")
        visit(ann, swiss)
        wait_finished(ann)
        boards = [board for number in (1, 2) for board in pairings(ann)[number]]
        assert all(r in SCORES for _, _, r in boards)
        shown = [(row[1], *map(float, row[3:7])) for row in standings(ann)]
        assert shown == swiss_by_hand(boards)
        assert [row[0] for row in standings(ann)] == ["1", "2", "3", "4", "5", "6"]

        # --- the arena ---
        clock.ms = START + 60 * MINUTE
        # everyone free at once, ranked by points (none), rating (all 1500), then seeding: the
        # first meets the second, the third the fourth..., the lower ranked with White
        assert pairings_at(bob, arena, 1) == [("Bob", "Ann"), (l2, l1), (l4, l3)]
        between_the_two(ann, bob, arena, 1, "1-0")
        # free again, each is paired at once (with whoever is free then): a second game each,
        # a draw between the two, or lost to the computer
        games = {name: playing(ann, arena, name) for name in ("Ann", "Bob")}
        if games["Ann"] == games["Bob"]:
            between_the_two(ann, bob, arena, games["Ann"], "1/2-1/2")
        else:
            against_the_computer(ann, arena, games["Ann"], "Ann")
            against_the_computer(bob, arena, games["Bob"], "Bob")
        clock.ms = START + 71 * MINUTE  # past its end: a game in play now does not count
        visit(ann, arena)
        wait_finished(ann)
        boards = [b for n, shown_boards in sorted(pairings(ann).items()) for b in shown_boards]
        assert ("Bob", "Ann", "1-0") in boards
        rows = standings(ann)
        ratings = {row[1].split()[0]: int(row[2]) for row in rows}
        assert set(ratings.values()) == {1500}
        shown_lines = [
            (
                row[1].split()[0],
                float(row[3]),
                None if row[4] == "\u2013" else int(row[4]),
                "🔥" in row[1],
            )
            for row in rows
        ]
        assert shown_lines == arena_by_hand(boards, ratings)
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def playing(page: Any, url: str, name: str) -> int:
    """The arena pairing of ``name``'s game in play, once there is one."""
    visit(page, url)
    until(
        page,
        f"[...document.querySelectorAll('#rounds tr')].some((row) => "
        f"row.textContent.includes('{name}') && row.textContent.includes('playing'))",
    )
    return max(
        number
        for number, boards in pairings(page).items()
        for white, black, result in boards
        if name in (white, black) and result == "playing"
    )


def pairings_at(page: Any, url: str, number: int) -> list[tuple[str, str]]:
    """Round (pairing) ``number``'s boards on the tournament page: white, black."""
    visit(page, url)
    wait_round(page, number)
    return [(w, b) for w, b, _ in pairings(page)[number]]

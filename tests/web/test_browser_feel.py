"""How play feels in a real browser, at a laptop's window (1366 by 768) and a phone's (390 by 844):
what a player needs after an action is in view without scrolling (checked by its bounding box
against the window), colours read against what they stand on (WCAG contrast ratio ≥ 3:1), and
texts follow the page's language.  Pictures of the pages it checks go to ``docs/screenshots``
when ``LUDOTECA_SCREENSHOTS`` is set."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.numbers import get_decimal_symbol

from ludoteca.i18n import LANGUAGES, RTL, SOURCE, translations

from ..support.browser import (
    FELLI_ENDGAME,
    REPORT_WAIT,
    join,
    piece,
    point,
    shooting,
    start,
    until,
    wait_moves,
)
from ..support.need import need
from .test_browser_i18n import PASSWORD, RATED, TOURNAMENT, api, study, tournament
from .test_browser_puzzles import click_move, shipped, shown_id, wrong_move
from .test_web_browser import sign_up_in_browser

#: the windows every layout check runs in: a laptop's and a phone's
WINDOWS = {"laptop": (1366, 768), "phone": (390, 844)}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(params=sorted(WINDOWS))
def window(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page in each of :data:`WINDOWS` in turn, failing its test on any script error."""
    width, height = WINDOWS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def in_view(page: Any, selector: str) -> bool:
    """Whether the element ``selector`` is shown whole inside the window, as scrolled now (its
    edges rounded to whole pixels: the browser scrolls by whole pixels, so an element scrolled
    to the window's top may stand a fraction of a pixel above it)."""
    inside: bool = page.eval_on_selector(
        selector,
        """(node) => { const box = node.getBoundingClientRect();
        const [top, left] = [box.top, box.left].map(Math.round);
        const [bottom, right] = [box.bottom, box.right].map(Math.round);
        return box.width > 0 && box.height > 0 && top >= 0 && left >= 0
          && bottom <= innerHeight && right <= innerWidth; }""",
    )
    return inside


def picture(page: Any, name: str) -> None:
    """Keep what the window shows as ``docs/screenshots/<name>.png``, when pictures are taken."""
    if shooting():
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"), animations="disabled")


#: a lesson of each game, and a legal move (its points, clicked in turn) that is not the one
#: its first step asks for
WRONG = {
    "felli/chains": ("d4", "b4"),
    "morris/placing": ("b2",),
    "morelli/throne": ("A1", "B2"),
}


@pytest.mark.parametrize("lesson", sorted(WRONG))
def test_a_lessons_answer_is_in_view(window: Any, server: str, lesson: str) -> None:
    game, key = lesson.split("/")
    window.goto(f"{server}/lessons?game={game}&lesson={key}")
    window.wait_for_selector("#board .pt")
    for name in WRONG[lesson]:
        point(window, name).click()
    window.wait_for_selector('#notice:has-text("Not quite")')
    for part in ("#notice", "#status", "#hint"):
        assert in_view(window, part), part
    if game == "felli" and window.viewport_size["width"] > 1000:
        picture(window, "lesson")


@pytest.mark.parametrize("who", ["guest", "account"])
def test_next_puzzle_repeats_none_until_the_set_is_spent(page: Any, server: str, who: str) -> None:
    if who == "account":
        sign_up_in_browser(page, server, "Solver")
    drawn = []
    with page.expect_response("**/api/puzzles/next?*") as answer:
        page.goto(server + "/puzzles?rules=felli")
    drawn.append(answer.value.json()["id"])
    page.wait_for_selector("#board .pt")
    for _ in range(29):
        with page.expect_response("**/api/puzzles/next?*") as answer:
            page.click("#next-puzzle")
        drawn.append(answer.value.json()["id"])
    assert len(set(drawn)) == 30, drawn
    # the theme of a set with the fewest puzzles (of at least three): all of them, then again
    # from the start (a set's thousands of puzzles: tests/server/test_server_puzzles.py, by the API)
    rules, theme, count = fewest_of_a_theme()
    page.select_option("#set", rules)
    page.select_option("#puzzle-theme", theme)
    few = []
    for _ in range(count + 2):
        with page.expect_response("**/api/puzzles/next?*") as answer:
            page.click("#new")
        few.append(answer.value.json()["id"])
    assert len(set(few[:count])) == count
    assert set(few[count:]) <= set(few[:count]) and few[-2] != few[-1]


def fewest_of_a_theme() -> tuple[str, str, int]:
    """The (rule set, theme, count) of the shipped puzzles' theme of a rule set with the fewest
    puzzles, at least three, counted from the package's files."""
    counts = Counter((puzzle.rules, puzzle.theme) for puzzle in shipped().values())
    (rules, theme), count = min(
        ((key, n) for key, n in counts.items() if n >= 3), key=lambda item: item[1]
    )
    return rules, theme, count


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two CSS colours (``rgb(r, g, b)`` or ``#rrggbb``)."""

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        else:
            channels = [int(float(c)) for c in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        srgb = [c / 255 for c in channels]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: each destination dot on the board: its cell's band (how many cells from the Throne, the
#: board's centre, counted from the cells' own places), the cell's colour, the dot's fill, ring
#: and opacity
DOTS = """() => {
  const cells = [...document.querySelectorAll("#board rect.cell")];
  const at = (c) => ["x", "y"].map((k) => Number(c.getAttribute(k)));
  const xs = cells.map((c) => at(c)[0]), ys = cells.map((c) => at(c)[1]);
  const middle = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const unit = Number(cells[0].getAttribute("width"));
  return [...document.querySelectorAll("#board .pt .dot")].map((dot) => {
    const cell = cells[Number(dot.closest(".pt").dataset.point)];
    const away = Math.max(...at(cell).map((v, k) => Math.abs(v - middle[k]))) / unit;
    const style = getComputedStyle(dot);
    return [Math.round(away), cell.getAttribute("fill"), style.fill, style.stroke, style.opacity];
  });
}"""


def dots_by_band(page: Any) -> dict[int, set[tuple[str, str, str, str]]]:
    """Click the stones of a 13x13 Morelli board in turn until destination dots have stood on
    the two bands next to the Throne (indigo and blue: one and two cells from it); each band
    a dot stood on, with the (cell colour, dot fill, ring, opacity) seen there."""
    assert page.locator("#board rect.cell").count() == 13 * 13
    names = page.eval_on_selector_all(
        "#board .pt[data-piece]:not([data-piece=''])", "points => points.map((p) => p.dataset.name)"
    )
    seen: dict[int, set[tuple[str, str, str, str]]] = {}
    for name in names:
        point(page, name).click()
        for band, *colours in page.evaluate(DOTS):
            seen.setdefault(band, set()).add(tuple(colours))
        if {1, 2} <= set(seen):
            break
    return seen


@pytest.mark.parametrize("where", ["game", "analysis"])
def test_morellis_destination_dots_read_on_every_band(window: Any, server: str, where: str) -> None:
    """On the 13x13 board (the one with blue and indigo bands by the Throne), in a game and on
    the analysis board, at both windows: every destination dot, on every band it stands on
    (the two by the Throne among them), has its core or its ring at a WCAG contrast of 3:1 or
    more against its cell, drawn opaque."""
    if where == "game":
        start(window, server, "morelli", "hotseat")
    else:
        window.goto(server + "/analysis?game=morelli")
        window.wait_for_selector("#board .pt[data-piece='w']")
    seen = dots_by_band(window)
    assert {1, 2} <= set(seen), sorted(seen)
    for band, looks in seen.items():
        for cell, fill, ring, opacity in looks:
            assert float(opacity) == 1, (band, opacity)
            drawn = [colour for colour in (fill, ring) if colour != "none"]
            assert max(contrast(c, cell) for c in drawn) >= 3, (band, cell, fill, ring)
    if where == "game" and window.viewport_size["width"] > 1000:
        picture(window, "morelli-game")


def test_a_reports_marked_move_shows_its_board_and_one_scale(browser: Any, server: str) -> None:
    """A finished game's report, at each of :data:`WINDOWS` (made once, read again from the
    store at the second): a graph of a readable size; a marked move clicked from under the
    moves shows its board whole in the window with the arrows on it; the mark's loss and its
    explanation in one scale."""
    game = ""
    for width, height in WINDOWS.values():
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        page = context.new_page()
        if not game:
            start(page, server, "felli", "hotseat", position=FELLI_ENDGAME)
            for n, (a, b) in enumerate([("a1", "b2"), ("b4", "c3"), ("b2", "d4")], start=1):
                point(page, a).click()
                point(page, b).click()
                wait_moves(page, n)
            game = page.url
            page.click("#result-analyse")
        else:  # the finished game's page shows its report at once
            page.goto(game)
        marked = page.locator("#report .marked button")
        marked.wait_for(timeout=REPORT_WAIT)
        graph = page.locator("#report svg.graph").bounding_box()
        assert graph["width"] >= 250 and graph["height"] >= 120, (width, graph)
        page.evaluate("scrollTo(0, document.body.scrollHeight)")  # the report is under the moves
        marked.click()
        page.wait_for_selector("#board .arrow")
        assert in_view(page, "#board"), (width, page.locator("#board").bounding_box())
        # the mark's loss and the explanation in one scale: the mover's expected score
        loss = re.search(r"\(\u2212(\d+)%\)", marked.inner_text())
        scores = re.search(
            r"expected score went from (\d+)% to (\d+)%", page.inner_text("#report .detail")
        )
        assert loss and scores, page.inner_text("#report")
        assert int(scores.group(1)) - int(scores.group(2)) == int(loss.group(1))
        if width > 1000:
            picture(page, "report")
        context.close()


def test_the_position_editor_is_by_the_board_and_lines_keep_moves_whole(
    window: Any, server: str
) -> None:
    window.goto(server + "/analysis?game=morris&moves=d2,d6")
    window.wait_for_selector("#lines li", timeout=60_000)
    # every move of the engine's lines on one line of text, its number with it
    pieces = window.eval_on_selector_all(
        "#lines .move", "moves => moves.map((m) => m.getClientRects().length)"
    )
    assert pieces and set(pieces) == {1}, pieces
    window.click("#edit")
    window.wait_for_selector("#palette input")
    for part in ("#palette", '#editor button[type="submit"]'):
        assert in_view(window, part), part
    if window.viewport_size["width"] > 1000:
        assert in_view(window, "#board")
        picture(window, "analysis-editor")


def test_the_analysis_board_places_into_a_mill_then_asks_for_the_removal(
    window: Any, server: str
) -> None:
    # White a1, Black b2, White a4, Black b4: White's a7 closes the a1-a4-a7 mill
    window.goto(server + "/analysis?game=morris&moves=a1,b2,a4,b4")
    window.wait_for_function("document.querySelectorAll('#tree button.move').length === 4")
    assert piece(window, "a7") == ""
    point(window, "a7").click()
    # the man is drawn where it was placed, the status asks for the removal, and the men that
    # may be removed are ringed; no move is played yet
    window.wait_for_function(
        """() => document.querySelector('#board .pt[data-name="a7"]').dataset.piece !== ''"""
    )
    assert piece(window, "a7") == piece(window, "a1")
    assert "choose an enemy man to remove" in window.inner_text("#status")
    for name in ("b2", "b4"):
        assert point(window, name).locator(".ring.take").count() == 1, name
    assert window.locator("#tree button.move").count() == 4
    point(window, "b2").click()
    window.wait_for_function("document.querySelectorAll('#tree button.move').length === 5")
    assert "a7xb2" in window.locator("#tree button.move").nth(4).inner_text()
    window.wait_for_function(
        """() => document.querySelector('#board .pt[data-name="b2"]').dataset.piece === ''"""
    )
    assert piece(window, "a7") == piece(window, "a1") and piece(window, "b4") != ""
    assert "Black to move" in window.inner_text("#status")


@pytest.fixture(scope="module")
def organiser(playwright: Any, server: str) -> Iterator[dict[str, str]]:
    """The pages that need something made first: an account (:data:`RATED` of the i18n walk)
    with a Swiss starting tomorrow and a public study; their addresses."""
    request = playwright.request.new_context(base_url=server)
    try:
        api(request, "POST", "/api/signup", {"name": RATED, "password": PASSWORD, "claims": []})
        yield {
            "profile": f"/players/{RATED}",
            "tournament": f"/tournaments/{tournament(request)}",
            "study": f"/study/{study(request)}",
        }
    finally:
        request.dispose()


#: every pair of the header's visible parts whose boxes cross (neither holding the other)
HEADER_OVERLAPS = """() => {
  const parts = [...document.querySelectorAll("header.top :is(a, h1, select, button)")]
    .filter((part) => part.checkVisibility());
  const crossing = [];
  parts.forEach((a, i) => parts.slice(i + 1).forEach((b) => {
    const [p, q] = [a, b].map((part) => part.getBoundingClientRect());
    const width = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const height = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (width > 0.5 && height > 0.5 && !a.contains(b) && !b.contains(a)) {
      crossing.push([a.id || a.textContent.trim(), b.id || b.textContent.trim()]);
    }
  }));
  return crossing;
}"""


def header_fits(page: Any, address: str) -> None:
    """The header of the page at ``address`` as drawn once the page is ready (its account's
    links with it, where the page has them): no part of it over another, at most 130 px
    tall."""
    page.goto(address)
    page.wait_for_selector("html[data-ready]", state="attached")
    page.wait_for_selector("#theme")
    assert page.evaluate(HEADER_OVERLAPS) == [], address
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 130, (address, header)


def test_the_phone_header_is_compact_and_the_game_toolbar_in_view(
    browser: Any, server: str, organiser: dict[str, str]
) -> None:
    """At 390x844: every page's header (signed out, in English) and, in every shipped
    language, the lobby's (signed in: the account's links shown, a long title) keep their
    parts apart in at most 130 px; the quick start's buttons are big enough for a thumb; a
    game's board and toolbar are in view."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector(".quick-button")
    heights = page.eval_on_selector_all(
        ".quick-button", "bs => bs.map((b) => b.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights
    picture(page, "phone-header")
    for path in (*PAGES, *organiser.values()):
        header_fits(page, server + path)
    start(page, server, "felli", "hotseat")
    assert in_view(page, "#board") and in_view(page, "#undo")
    header_fits(page, page.url)
    sign_up_in_browser(page, server, "Phoebe")
    for language in LANGUAGES:  # the lobby's title is among the longest in every language
        context.add_cookies([{"name": "lang", "value": language, "url": server}])
        header_fits(page, server + "/")
    context.close()


#: the pages that need nothing made first (the others: :func:`organiser`'s, and a game)
PAGES = (
    "/",
    "/lessons",
    "/puzzles",
    "/puzzles/mistakes",
    "/puzzles/dashboard",
    "/analysis?game=felli",
    "/review",
    "/games",
    "/leaderboard",
    "/tournaments",
    "/studies",
    "/account",
    "/yourturn",
    "/moderation",
    "/game/no-such-game",
)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != SOURCE])
def test_numbers_dates_lists_and_arrows_follow_the_language(
    browser: Any, server: str, organiser: dict[str, str], language: str
) -> None:
    """In every shipped language, chosen with the switcher (its cookie) in a browser set to
    American English: dates, lists (the lobby's games and tournaments), the computer's level,
    the engine's depth and values, and the step buttons' direction as the language writes
    them; a tournament's start spelled in the language under its picker."""
    context = browser.new_context(
        locale="en-US", bypass_csp=True, viewport={"width": 1366, "height": 768}
    )
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page = context.new_page()
    # a game lost to the computer's first level, and a game waiting for a second player
    made = page.request.post(
        f"{server}/api/games", data={"game": "felli", "opponent": "computer", "level": 1}
    ).json()
    actions = f"{server}/api/games/{made['id']}/actions"
    assert page.request.post(actions, data={"token": made["tokens"]["white"], "type": "resign"}).ok
    assert page.request.post(
        f"{server}/api/games", data={"game": "morris", "opponent": "online"}
    ).ok
    page.goto(server + "/games")
    row = page.locator("#games tbody tr", has=page.locator(f'a[href*="{made["id"]}"]'))
    date, players = row.locator("td").nth(0), row.locator("td").nth(1)
    written = page.evaluate(
        "(lang) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date())",
        language,
    )
    assert date.inner_text() == written
    assert "level" not in players.inner_text()
    page.goto(server + "/")
    waiting = page.locator("#open li", has_text="—").first.inner_text()
    # the separator before a list's last item, as the language writes it
    last = page.evaluate(
        """(lang) => new Intl.ListFormat(lang, { type: "unit", style: "short" })
          .format(["A", "B", "C"]).split("B")[1].slice(0, -1)""",
        language,
    )
    assert last in waiting, (last, waiting)
    # a tournament's line: its facts listed, its separators the language's (no Latin comma nor
    # semicolon where the language writes its own: Arabic's "،" and "؛")
    line = page.locator("#tournament-list li", has_text=TOURNAMENT).inner_text()
    between = page.evaluate(
        """(lang) => new Intl.ListFormat(lang, { type: "unit", style: "short" })
          .format(["A", "B", "C"]).split("B")[0].slice(1)""",
        language,
    )
    assert between in line, (between, line)
    own = translations(language)
    for latin in (",", ";"):
        if own.gettext(f"{latin} ").strip() != latin:
            assert latin not in line and latin not in waiting, (line, waiting)
    # a tournament's start as the language writes it, whatever order the picker shows
    page.goto(server + "/tournaments")
    page.wait_for_selector("html[data-ready]", state="attached")
    page.fill("#starts", "2026-12-07T14:30")
    day = page.evaluate(
        """(lang) => new Intl.DateTimeFormat(lang, { dateStyle: "medium" })
          .format(new Date(2026, 11, 7))""",
        language,
    )
    spelled = page.inner_text("#starts-moment")
    assert day in spelled and "Dec" not in spelled, (day, spelled)
    page.goto(server + "/analysis?game=morris&moves=d2,d6")
    page.wait_for_selector("#lines li", timeout=60_000)
    assert "depth" not in page.inner_text("#depth") and "exact" not in page.inner_text("#depth")
    value = page.inner_text("#eval-number")
    point_ = get_decimal_symbol(language, numbering_system="latn")  # (CLDR's, as Babel has it)
    assert re.fullmatch(rf"[+-]\d+\{point_}\d", value), value
    back, on = page.locator("#back").bounding_box(), page.locator("#next").bounding_box()
    # back points to the line's start: left in a left-to-right language, right in one written
    # right to left
    mirrored = page.eval_on_selector("#back", "(b) => getComputedStyle(b).transform")
    if language in RTL:
        assert back["x"] > on["x"] and mirrored.startswith("matrix(-1")
    else:
        assert back["x"] < on["x"] and mirrored == "none"
    context.close()


def test_texts_of_a_moment_past_give_way(page: Any, server: str) -> None:
    # a finished lesson: nothing to hint at or retry, the next lesson offered
    page.goto(server + "/lessons?game=felli&lesson=chains")
    page.wait_for_selector("#board .pt")
    for name in ("a1", "c3", "c5"):
        point(page, name).click()
    page.wait_for_selector('#notice:has-text("Lesson complete")')
    assert page.locator("#hint").is_hidden() and page.locator("#again").is_hidden()
    page.click("#next-lesson")
    page.wait_for_selector('#lesson-title:has-text("Mullahs")')
    assert page.locator("#hint").is_visible() and page.locator("#next-lesson").is_hidden()
    # a failed puzzle: one attempt, in the singular; its verdict gone once the solution shows
    sign_up_in_browser(page, server, "Stale")
    failed = next(p for p in shipped().values() if p.rules == "felli" and len(p.line) >= 3)
    page.goto(f"{server}/puzzles/{failed.id}")
    page.wait_for_selector("#board .pt")
    click_move(page, *wrong_move(failed))
    page.wait_for_selector('#verdict:has-text("show the solution")')
    page.wait_for_selector('#my-rating:has-text("after 1 puzzle ·")')
    page.click("#show-solution")
    page.wait_for_selector("#step-next", state="visible")
    assert "show the solution" not in page.inner_text("#verdict")
    # a streak ended by a wrong move: the status says so, not "find the winning move"
    page.select_option("#set", "morris-6")
    page.click("#streak")
    page.wait_for_selector("#run", state="visible")
    click_move(page, *wrong_move(shipped()[shown_id(page)]))
    page.wait_for_selector("#run-over", state="visible")
    status = page.inner_text("#status")
    assert "The streak is over" in status and "find the winning move" not in status, status


def test_a_draw_offer_is_seen_sent(browser: Any, server: str) -> None:
    contexts = [browser.new_context(bypass_csp=True) for _ in range(2)]
    ann, bob = (c.new_page() for c in contexts)
    start(ann, server, "morris", "online", colour="white")
    bob.goto(ann.input_value("#invite-link"))
    join(bob)
    ann.wait_for_selector("#draw:not([disabled])")
    ann.click("#draw")
    bob.wait_for_selector("#offer:not([hidden])")
    ann.wait_for_selector('#draw:has-text("Draw offer sent")')
    assert ann.locator("#draw").is_disabled()
    bob.click("#offer-no")  # declined: the button offers again
    ann.wait_for_selector('#draw:has-text("Offer draw"):not([disabled])')
    for context in contexts:
        context.close()


def test_the_players_names_are_whole(window: Any, server: str) -> None:
    start(window, server, "felli", "computer", level=1)
    window.wait_for_selector(".player .who")
    names = window.eval_on_selector_all(
        ".player .who",
        "names => names.map((n) => [n.textContent, n.scrollWidth <= n.clientWidth])",
    )
    assert len(names) == 2 and all(whole for _, whole in names), names
    assert any("(level 1)" in text for text, _ in names), names


def test_the_lobby_lists_games_worth_watching(page: Any, server: str) -> None:
    """A guest's game against the computer left after a move is not listed to watch; a game of
    two people is, from its first move."""
    made = {}
    for opponent in ("computer", "hotseat"):
        game = page.request.post(
            f"{server}/api/games", data={"game": "felli", "opponent": opponent}
        ).json()
        move = {"token": game["tokens"]["white"], "type": "move", "move": "b2-c3", "ply": 0}
        assert page.request.post(f"{server}/api/games/{game['id']}/actions", data=move).ok
        made[opponent] = game["id"]
    page.goto(server + "/")
    page.wait_for_selector("#live[data-listed]")
    listed = page.eval_on_selector_all("#live a", "links => links.map((a) => a.pathname)")
    assert f"/game/{made['hotseat']}" in listed
    assert f"/game/{made['computer']}" not in listed


#: the controls of a page's main part that are shown and can be used
LIVE_CONTROLS = """() => [...document.querySelectorAll("main :is(button, input, select, textarea)")]
  .filter((control) => control.checkVisibility() && !control.disabled)
  .map((control) => control.id || control.name || control.outerHTML)"""


def test_offline_the_lobby_starts_nothing_and_puzzles_open(
    playwright: Any, server: str, tmp_path: Path
) -> None:
    """Offline, the saved lobby starts no game and says why, and loads again, whole, once the
    network is back; the puzzle page, never opened, opens from the worker's cache. (A browser
    profile of its own: Chromium installs no service worker in a private window.)"""
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=need("chromium"),
        viewport={"width": 1366, "height": 768},
    )
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector(".quick-button")
        until(page, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline:not([hidden])")
        # nothing that looks as if it could start a game; why, at the top
        assert page.evaluate(LIVE_CONTROLS) == []
        assert in_view(page, "#start-offline")
        assert "needs the network" in page.inner_text("#start-offline")
        with page.expect_navigation():  # the network back: the lobby loads again, whole
            context.set_offline(False)
        page.wait_for_selector(".quick-button")
        assert page.locator("#start").is_enabled() and page.locator("#offline").is_hidden()
        assert page.locator("#start").is_visible() and page.locator("#start-offline").is_hidden()
        context.set_offline(True)
        page.goto(server + "/puzzles")  # never opened online: the worker saved it
        page.wait_for_selector("#board-area")
        assert page.locator("#offline").is_visible()
    finally:
        context.close()

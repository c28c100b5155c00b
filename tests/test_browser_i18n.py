"""Every page in other languages, in a real browser: in French no text a person reads (the
DOM's text nodes and the title, aria-label, placeholder and alt attributes) is left in
English; Arabic pages are written right to left with the layout mirrored and the board not;
both pass the accessibility audit and fit a phone's width, and are pictured when pictures are
asked for (``shot``: English and Arabic, 1366x768 and 390x844, light and dark)."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from ludoteca.i18n import LOCALE

from .support.browser import (
    REPORT_WAIT,
    point,
    serious_violations,
    shooting,
    shot,
    start,
    wait_moves,
)
from .support.live_server import serving

#: what may read the same in any language: names, notation, numbers, marks
ALLOWED = re.compile(
    r"^(Ludoteca|English|Français|Deutsch|Español|العربية|Felli|Morelli|Morabaraba|Glicko-2"
    r"|[A-Za-z]*\d[\w\-+:./,()?±\u00d7x ]*|[a-z]+(-\d+|-[a-z]+)+(:[\w=,]+)?|[\W\d_]+)$"
)
#: English words no French text of these pages contains (the lobby's rule-set names aside)
ENGLISH = re.compile(
    r"\b(the|your|you|and|of|is|with|move|moves|game|games|play|player|players|board|rating|"
    r"won|lost|draw|white|black|men|choose|waiting|connecting|loading|sign)\b",
    re.IGNORECASE,
)
#: a percentage as French writes it: a decimal comma, a no-break space before the sign
FRENCH_PERCENT = re.compile(r"^\d+(,\d)?[\u00a0\u202f]%$")
#: the texts of every page: visible text nodes, then the attributes people read
TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE"].includes(parent.tagName)) continue;
    if (parent.tagName !== "OPTION" && !parent.checkVisibility()) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = (el.getAttribute(name) || "").trim();
      if (value) out.push(value);
    }
  }
  out.push(document.title.replace(/^Ludoteca — /, ""));
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's server: the browser fixtures' one, but not loading the compiled search at
    start (these pages need little of it), so that on a busy machine the records the review
    page replays are not queued behind that load in the analysis process."""
    from ludoteca.server import Settings, create_app

    db = tmp_path_factory.mktemp("web-i18n") / "games.db"
    settings = Settings(db=f"sqlite+aiosqlite:///{db}", workers=1, warm=False)
    with serving(create_app(settings)) as port:
        address = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(address + "/healthz", timeout=120) as answer:
            assert answer.status == 200
        yield address


def spaceless(text: str) -> str:
    return re.sub(r"\s", "", text)


def english_texts() -> list[re.Pattern[str]]:
    """Each English msgid that French translates differently (not only in its spacing), as a
    pattern (its placeholders match any text)."""
    with open(LOCALE / "fr" / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalogue = read_po(po, locale="fr")
    patterns = []
    for message in catalogue:
        ids = message.id if message.pluralizable else (message.id,)
        forms = message.string if message.pluralizable else (message.string,)
        for msgid in ids:
            words = re.sub(r"%\(\w+\)s", "", msgid)
            if msgid in forms or len(words) < 4 or not re.search(r"[A-Za-z]{2}", words):
                continue
            if any(spaceless(msgid) == spaceless(form) for form in forms):
                continue  # the same words, French spacing ("position %(ply)s : %(text)s")
            parts = re.split(r"%\(\w+\)s", msgid.replace("%%", "%"))
            patterns.append(re.compile(".+?".join(map(re.escape, parts))))
    return patterns


#: a record whose report marks a move: Black's d6 lets White's mill g7-g4-g1 close
RECORD = '[Game "morris"]\n\n1. a7 b6 2. d7 a1 3. g7xb6 a4 4. g4 d6 5. g1xd6 *\n'
#: a record the server refuses (a7 is taken)
REFUSED = '[Game "morris"]\n\n1. a7 a7 *\n'


def load_record(page: Any) -> None:
    """Load :data:`RECORD` in the review page (again if the server's worker, slow on a loaded
    machine, ran past its deadline the first time)."""
    page.fill("#record", RECORD)
    for _attempt in range(3):
        page.click("#load button[type=submit]")
        try:
            page.wait_for_selector("#board .pt", timeout=40_000)
            return
        except Exception:  # a refusal in the notice: try once more
            continue
    page.wait_for_selector("#board .pt")


def show_report(page: Any) -> None:
    """Wait for the review page's report of :data:`RECORD` and open its first marked move
    (the verdict, the values before and after, the better line)."""
    page.wait_for_selector("#report .marked button", timeout=REPORT_WAIT)
    page.click("#report .marked button >> nth=0")
    page.wait_for_selector("#report .detail")


def end_game(page: Any) -> None:
    """Resign the game page's game: the result dialog opens, then the game's report shows."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#result[open]")
    page.wait_for_selector("#report h2", timeout=REPORT_WAIT)


def refuse_record(page: Any) -> None:
    """Load :data:`REFUSED` in the review page: the server's refusal shows in the notice."""
    page.fill("#record", REFUSED)
    page.click("#load button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")


def pages(page: Any, server: str, player: str) -> Iterator[tuple[str, str]]:
    """Each page of the site, opened and ready (a hotseat game with a move played, then
    resigned: the result dialog and the game's report; a record loaded in the review page with
    its report and a marked move open, then a record it refuses): its name and address."""
    page.goto(server + "/account")
    page.fill("#up-name", player)
    page.fill("#up-password", "a long password")
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#me")
    start(page, server, "morris", "hotseat")
    point(page, "d2").click()
    wait_moves(page, 1)
    game = page.url.removeprefix(server)
    # each page: its path, and what shows once its scripts have drawn it
    site = (
        ("game", game, "#board .pt"),
        ("lobby", "/", ".quick-button"),
        ("review", "/review", None),
        ("missing", "/game/no-such-game", None),
        ("account", "/account", None),
        ("profile", f"/players/{player}", "#games table"),
        ("finished", "/games", None),
        ("leaderboard", "/leaderboard", None),
        ("analysis", "/analysis?game=morris&moves=d2,d6", "#lines li"),
        ("puzzle", "/puzzles?rules=morris", "#board .pt"),
        ("lessons", "/lessons", "#board .pt"),
    )
    for name, path, ready in site:
        page.goto(server + path)
        page.wait_for_selector("header.top #theme")
        if name == "review":
            load_record(page)
            show_report(page)
        elif ready:
            page.wait_for_selector(ready)
        page.wait_for_timeout(300)  # the page's scripts fill in what they fetch
        yield name, server + path
        if name == "game":
            end_game(page)
            yield "game over", server + path
        elif name == "review":
            refuse_record(page)
            yield "review refusal", server + path


def test_no_page_shows_english_in_french(browser: Any, server: str) -> None:
    """The browser asks for French (Accept-Language from its locale); every text of every
    page is French: none is an English msgid (placeholders filled or not), none reads as
    English words, apart from names, notation and numbers."""
    context = browser.new_context(
        locale="fr-FR", bypass_csp=True, viewport={"width": 1366, "height": 768}
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    patterns = english_texts()
    try:
        left: dict[str, set[str]] = {}
        for name, _url in pages(page, server, "Juliette"):
            assert page.get_attribute("html", "lang") == "fr"
            if name == "review":  # the report's accuracies as French writes a percentage
                accuracies = page.locator('#report tr[data-figure="accuracy"] td').all_inner_texts()
                assert accuracies and all(FRENCH_PERCENT.match(a) for a in accuracies), accuracies
            for text in page.evaluate(TEXTS):
                if ALLOWED.match(text) or text == "Juliette":
                    continue
                if any(p.fullmatch(text) for p in patterns) or ENGLISH.search(text):
                    left.setdefault(name, set()).add(text)
        if left:
            pytest.fail("English left:\n" + "\n".join(f"{k}: {sorted(v)}" for k, v in left.items()))
        assert not errors, errors
    finally:
        context.close()


def test_the_switcher_changes_the_language_and_remembers_it(browser: Any, server: str) -> None:
    context = browser.new_context(locale="en-GB", bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(server + "/review")
        assert page.get_attribute("html", "lang") == "en"
        assert page.is_hidden("#language-go")  # the choice is sent at once
        with page.expect_navigation():
            page.select_option("#language-choice", "de")
        assert page.url == server + "/review"
        assert page.get_attribute("html", "lang") == "de"
        assert page.inner_text("h1") == "Partienotation durchsehen"
        page.goto(server + "/")
        page.wait_for_selector(".quick-button")
        assert page.inner_text("#quick-title") == "Schnellstart"
        assert page.inner_text(".quick-button >> nth=0") == "Gegen den Computer spielen"
    finally:
        context.close()


def board_geometry(page: Any) -> dict[str, float]:
    """Where a1 and g7 stand in the board's box (0: its left edge, 1: its right edge)."""
    box = page.locator("#board").bounding_box()
    spots = {}
    for name in ("a1", "g7"):
        spot = point(page, name).bounding_box()
        spots[name] = (spot["x"] + spot["width"] / 2 - box["x"]) / box["width"]
    return spots


def test_arabic_is_written_right_to_left_and_the_board_is_not_mirrored(
    browser: Any, server: str
) -> None:
    geometry = {}
    for language in ("en", "ar"):
        context = browser.new_context(
            locale=language, bypass_csp=True, viewport={"width": 1366, "height": 768}
        )
        page = context.new_page()
        try:
            start(page, server, "morris", "hotseat")
            assert page.get_attribute("html", "dir") == ("rtl" if language == "ar" else "ltr")
            geometry[language] = board_geometry(page)
            assert (
                page.evaluate("getComputedStyle(document.querySelector('#board')).direction")
                == "ltr"
            )
            brand = page.locator("header .brand").bounding_box()
            theme = page.locator("#theme").bounding_box()
            if language == "ar":  # the header mirrors: the name on the right, controls left
                assert brand["x"] > theme["x"]
                assert page.inner_text("#status").startswith("دورك")
            else:
                assert brand["x"] < theme["x"]
        finally:
            context.close()
    assert geometry["ar"] == pytest.approx(geometry["en"], abs=0.01)
    assert geometry["ar"]["a1"] < 0.5 < geometry["ar"]["g7"]  # a1 on the left, g7 right


#: how far the page reaches past the window's right edge, in CSS pixels (0: it fits)
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_page_in_english_and_arabic_is_audited_and_fits(
    browser: Any, server: str, language: str, width: int, height: int
) -> None:
    """In English and Arabic: at 1366x768 every page passes the accessibility audit (axe-core:
    no serious or critical violation) in both schemes; at 390x844 no page is wider than the
    phone.  Each page is opened once at its size and, when pictures are asked for, pictured in
    both schemes (the scheme is the CSS's alone, switched in place; the size is not, since the
    board is laid out for it) in ``bench/results/screenshots``."""
    context = browser.new_context(
        locale=language, bypass_csp=True, viewport={"width": width, "height": height}
    )
    page = context.new_page()
    try:
        for name, _url in pages(page, server, f"Lang{language}{width}"):
            if width < 1000:
                assert page.evaluate(OVERFLOW) <= 0, name
            for scheme in ("light", "dark") if width > 1000 or shooting() else ():
                page.emulate_media(color_scheme=scheme)
                if width > 1000:
                    assert serious_violations(page) == [], (scheme, name)
                shot(page, f"{name}-{language}-{width}x{height}-{scheme}")
    finally:
        context.close()

"""Every page in every shipped language (ludoteca.i18n.LANGUAGES, whatever they are), in a real
browser (one browser, one page a language, reused from page to page), each read once its
script says it is ready (``<html data-ready>``): no text a person reads (the DOM's text nodes,
visible or not, and the title, aria-label, placeholder and alt attributes) is English in
another language, whether an English msgid of the catalogue (placeholders filled) or any word
only English uses; English is searched before anything is allowed, and what is allowed is
notation, numbers and the names the test made (in a language of another script, NON_LATIN, any
other Latin word is caught too); in every language, English too, every text is the
catalogue's, whole or in pieces, or notation, numbers and names (:func:`uncatalogued`: a text
the catalogue never saw is caught); no placeholder is left unfilled.  The pages of each
language written right to left (ludoteca.i18n.RTL) are mirrored, each page: the header
mirrored, the board not (a1 at its bottom left), the notation and numbers left to right inside
the text (:func:`unmirrored`).  English and those languages pass the accessibility audit and
fit a phone's width (right to left), and are pictured when pictures are asked for (``shot``:
1366x768 and 390x844, light and dark); each other language reads its share of the pages
(tests/web/test_browser_languages.py)."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any
from urllib.parse import urlencode

import pytest
from babel import Locale
from babel.dates import format_date
from babel.messages.pofile import read_po

from ludoteca.games import game_names, load
from ludoteca.i18n import LANGUAGES, LOCALE, RTL, SOURCE, _, use

from ..support.browser import (
    REPORT_WAIT,
    point,
    serious_violations,
    shooting,
    shot,
    start,
    wait_moves,
)
from ..support.live_server import serving
from ..support.seen import seen_record

#: the accounts and the guest the test makes, and its tournament: names, to be read as they
#: are in any language
RATED, OTHER, GUEST, TOURNAMENT = "Zoltan", "Quirina", "Gaston", "Quirinalia"
PASSWORD = "a long password"
#: the names no language translates: the site, the games, the rating system, the test's players
#: and tournament
NAMES = re.compile(rf"\b(Ludoteca|Glicko-2|Marelle|SVG|{RATED}|{OTHER}|{GUEST}|{TOURNAMENT})\b")
#: the rule sets' names and aliases ("morris-6", "six-mens-morris"), the registry's
RULE_SETS = sorted(
    {
        name
        for game in game_names()
        for rules in load(game).rule_sets
        for name in (rules.name, *rules.aliases)
    },
    key=len,
    reverse=True,  # (the longest first: "morris-6" before "morris")
)
#: a rule set's setting as the spec of a variant spells it, quoted ("« flying »", Japanese
#: "「flying」"): a name
#: the rule sets' own names (no alias): a canonical spec, which the lobby reads back, may be one
CANONICAL = sorted(
    {rules.name for game in game_names() for rules in load(game).rule_sets}, key=len, reverse=True
)
SETTINGS = re.compile(
    r"[«„“\u2039「\"']\s?\u2068?(?:"
    + "|".join(
        sorted(
            {
                key
                for game in game_names()
                for rules in load(game).rule_sets
                for key in rules.defaults
            }
        )
    )
    + r")\u2069?\s?[»“”\u203a」\"']"
)
#: notation and numbers, the only Latin text an Arabic page may show besides :data:`NAMES`:
#: moves ("d6", "a1-b2", "b2xd4", "g7:g4"), position codes ("..b/.w./... w 0 0"), rule-set
#: specs (a name of :data:`RULE_SETS` with a hyphen, "morris-6", or any with its settings,
#: "felli:forced_capture"), board sizes, the coordinates' files; digits and punctuation are
#: no letters
ALLOWED = re.compile(
    r"(?<![\w])(?:[a-z]\d+(?:[-x:][a-z]\d+)*"  # a move
    r"|[.wbWB/]{3,}(?:\s[wb](?:\s\d+)*)?"  # a position code
    r"|(?:" + "|".join(re.escape(name) for name in RULE_SETS if "-" in name) + r")"
    r"(?::[\w=,]+)?"  # a rule set's spec with a hyphen ("morris-6", "felli-mullah:...")
    r"|(?:" + "|".join(map(re.escape, RULE_SETS)) + r"):[\w=,]+"  # any with settings
    r"|(?:" + "|".join(map(re.escape, CANONICAL)) + r")(?![:-])"  # a bare spec ("morris")
    r"|\d+x\d+"  # a board's size ("9x9")
    r"|\d+(?:\+\d+|d)"  # a time control as typed ("5+3", "3d": minutes+seconds, days a move)
    r"|[a-z]"  # a file of the board's coordinates, alone
    r")(?![\w])"
)
#: the languages not written in Latin script: a Latin letter in their pages is notation, a
#: name or English
NON_LATIN = frozenset({"ar", "ru", "fa", "zh", "ja"})
#: the words of English sentences, searched in every language but English (whatever a
#: language's own translations use aside, see :func:`english_words`)
COMMON_ENGLISH = set(
    "the your you and of is are was with move moves game games play player players board "
    "rating won lost draw white black men choose waiting connecting loading sign from this that "
    "to in on at for by not no yes it its an be has have here there exact depth table solved "
    "turn after before best better line lines engine opening book".split()
)
#: a word: letters (an apostrophe inside), not part of a token with digits ("a1", "d6")
WORD = re.compile(r"(?<![\w'])[^\W\d_]{2,}(?:'[^\W\d_]+)?(?![\w'])")
#: a placeholder left unfilled
UNFILLED = re.compile(r"%\(\w+\)[sd]")
#: the texts of a page: every text node (hidden ones too: they show later) whose language is
#: the page's (not the switcher's language names), then the attributes people read
TEXTS = """() => {
  const out = [];
  const lang = document.documentElement.lang;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE"].includes(parent.tagName)) continue;
    if (parent.closest("[lang]").lang !== lang) continue;
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


@dataclass
class World:
    """What the pages show, made once through the API: a rated game :data:`RATED` won
    against :data:`OTHER` (ratings, a chart, finished games, the leaderboard), a game of
    :data:`RATED` against the guest :data:`GUEST` in play (to watch), a correspondence
    game where it is :data:`OTHER`'s move (her "your turn" list), a Nine Men's Morris
    puzzle where White is to play (its board not turned round), the tournament
    :data:`TOURNAMENT` that :data:`RATED` made and joined (the tournaments' pages, his
    profile's list), and a public study of :data:`RATED`'s with a move marked, commented and
    drawn on (named by the players' names, which no language translates)."""

    live: str
    correspondence: str
    puzzle: str = ""
    tournament: str = ""
    study: str = ""


def api(request: Any, method: str, path: str, body: object = None) -> Any:
    """The answer to a request of the API, with the session's CSRF token when signed in."""
    me = request.get("/api/me").json()
    headers = {"X-CSRF-Token": me["csrf"]} if me.get("csrf") else {}
    answer = request.fetch(path, method=method, data=body, headers=headers)
    assert answer.ok, (path, answer.status, answer.text())
    return answer.json()


def act(request: Any, game: str, token: str, **action: object) -> None:
    api(request, "POST", f"/api/games/{game}/actions", {"token": token, **action})


def online(
    creator: Any, joiner: Any, clock: str | None = None, rated: bool = False
) -> tuple[str, str, str]:
    """A game of Nine Men's Morris from ``creator`` (White), joined by ``joiner``: its id and
    the two seat tokens."""
    body = {"game": "morris", "opponent": "online", "clock": clock, "rated": rated}
    created = api(creator, "POST", "/api/games", body)
    joined = api(joiner, "POST", f"/api/games/{created['id']}/join", {"name": GUEST})
    return created["id"], created["tokens"]["white"], joined["token"]


@pytest.fixture(scope="module")
def world(playwright: Any, server: str) -> Iterator[World]:
    rated, other, guest = (playwright.request.new_context(base_url=server) for _ in range(3))
    try:
        for request, name in ((rated, RATED), (other, OTHER)):
            api(request, "POST", "/api/signup", {"name": name, "password": PASSWORD, "claims": []})
        game, white, black = online(rated, other, clock="5+0", rated=True)
        act(rated, game, white, type="move", move="d2", ply=0)
        act(other, game, black, type="move", move="d6", ply=1)
        act(other, game, black, type="resign")
        live, white, black = online(rated, guest)
        act(rated, live, white, type="move", move="d2", ply=0)
        act(guest, live, black, type="move", move="d6", ply=1)
        correspondence, white, _black = online(rated, other, clock="3d")
        act(rated, correspondence, white, type="move", move="a7", ply=0)
        yield World(live, correspondence, white_puzzle(guest), tournament(rated), study(rated))
    finally:
        for request in (rated, other, guest):
            request.dispose()


def study(request: Any) -> str:
    """The id of a public study of :data:`RATED`'s: a chapter where 1. d2 is marked, commented
    (with a player's name) and drawn on."""
    chapter = {"name": OTHER, "game": "morris"}
    made = api(request, "POST", "/api/studies", {"title": RATED, "chapter": chapter})
    first = api(request, "GET", f"/api/studies/{made['id']}")["chapters"][0]["id"]
    changes = f"/api/studies/{made['id']}/chapters/{first}/changes"
    shape = {"brush": "red", "orig": "d2", "dest": "d1"}
    for change in (
        {"op": "move", "path": [], "move": "d2"},
        {"op": "mark", "path": ["d2"], "mark": "!"},
        {"op": "comment", "path": ["d2"], "comment": GUEST},
        {"op": "shapes", "path": ["d2"], "shapes": [shape]},
    ):
        api(request, "POST", changes, change)
    return str(made["id"])


def tournament(request: Any) -> str:
    """The id of :data:`TOURNAMENT`, a Swiss of Nine Men's Morris starting tomorrow, made by
    ``request``'s player, who joins it."""
    starts = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    body = {"name": TOURNAMENT, "game": "morris", "clock": "5+0", "system": "swiss"}
    made = api(request, "POST", "/api/tournaments", {**body, "rounds": 3, "starts": starts})
    api(request, "POST", f"/api/tournaments/{made['id']}/join")
    return str(made["id"])


def white_puzzle(request: Any) -> str:
    """The id of a Nine Men's Morris puzzle where White is to play, asked of the API until
    one comes (a puzzle for Black shows its board turned round)."""
    marked, edition = 0, ""
    for _attempt in range(40):
        query = urlencode({"rules": "morris", "edition": edition, "seen": seen_record(marked)})
        puzzle = api(request, "GET", f"/api/puzzles/next?{query}")
        if puzzle["player"] == "white":
            return str(puzzle["id"])
        marked, edition = marked | 1 << puzzle["number"], puzzle["edition"]
    raise AssertionError("no Nine Men's Morris puzzle for White among the first forty")


def spaceless(text: str) -> str:
    return re.sub(r"\s", "", text)


@cache
def catalogue(language: str) -> Any:
    """The translators' catalogue of ``language``; in English, the template (the msgids)."""
    path = LOCALE / language / "LC_MESSAGES" / "messages.po"
    with open(LOCALE / "messages.pot" if language == SOURCE else path, "rb") as po:
        return read_po(po, locale=language)


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[sd]", " ", text))}


@cache
def english_texts(language: str) -> tuple[re.Pattern[str], ...]:
    """Each English msgid that ``language`` translates differently (not only in its spacing),
    or not at all, as a pattern (its placeholders match any text)."""
    patterns = []
    for message in catalogue(language):
        ids = message.id if message.pluralizable else (message.id,)
        forms = message.string if message.pluralizable else (message.string,)
        for msgid in ids:
            if len(re.sub(r"%\(\w+\)s", "", msgid)) < 4 or not words(msgid):
                continue
            if any(spaceless(msgid) == spaceless(form) for form in forms if form):
                continue  # the same words, French spacing ("position %(ply)s : %(text)s")
            parts = re.split(r"%\(\w+\)s", msgid.replace("%%", "%"))
            patterns.append(re.compile(".+?".join(map(re.escape, parts))))
    return tuple(patterns)


@cache
def english_words(language: str) -> frozenset[str]:
    """The words of English: every word of the catalogue's msgids and :data:`COMMON_ENGLISH`,
    less the words ``language``'s own translations use (French "position", German "in")."""
    english: set[str] = set(COMMON_ENGLISH)
    own: set[str] = set()
    for message in catalogue(language):
        ids = message.id if message.pluralizable else (message.id,)
        forms = message.string if message.pluralizable else (message.string,)
        for msgid in ids:
            english |= words(msgid)
        for form in forms:
            own |= words(form or "")
    return frozenset(english - own)


#: the keys a page names (the annotation's Shift and Alt, the replay's End, the premove's
#: Escape), as their caps print them in Latin letters on the keyboards of every script
KEYS = re.compile(r"(?<![A-Za-z])(?:Shift|Alt|End|Esc|Escape)(?![A-Za-z])")


def english_in(language: str, text: str) -> str | None:
    """Why ``text`` reads as English in a page in ``language`` (None: it does not).  English
    is looked for first, in the whole text; only then is notation allowed."""
    if language == "en":
        return None
    for pattern in english_texts(language):
        if pattern.fullmatch(text):
            return f"the msgid {pattern.pattern!r}"
    named = SETTINGS.sub(" ", NAMES.sub(" ", text))
    english = words(named) & english_words(language)
    if english:
        return f"the words {sorted(english)}"
    if language in NON_LATIN:  # no Latin script but notation and names
        rest = ALLOWED.sub(" ", KEYS.sub(" ", named))
        if re.search(r"[A-Za-z]", rest):
            return "Latin letters that are not notation"
    return None


#: what splits a catalogue's text into the pieces a page shows as they are: a placeholder (the
#: code fills in a value) or a percent sign, or an HTML tag (a link: its text is a node of
#: its own)
SPLIT = re.compile(r"%\(\w+\)[sd]|%%|<[^>]*>")
#: what a piece of a catalogue's text begins and ends with that is not part of it: spaces and
#: punctuation, which a text put together from pieces may share or leave out
EDGES = re.compile(r"^[\W_]+|[\W_]+$")
#: a letter (of any script)
LETTER = re.compile(r"[^\W\d_]")
#: a letter of a script that puts spaces between words (not Chinese's nor Japanese's): a
#: piece of a catalogue's text is found whole, with no such letter next to it
SPACED = r"[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]"
#: the shipped languages' names as the switcher shows them (each in its own language)
LANGUAGE_NAMES = re.compile("|".join(map(re.escape, LANGUAGES.values())))


#: the words the page's language writes its days and moments with, as the page writes them
#: (``Intl.DateTimeFormat``'s styles of lib/dates.js, in the language's own calendar: the
#: parts of a day every 16 days for 400 days, morning and evening, so every month of any
#: calendar): the months, the times of day and what goes between (Russian's year, "2026年")
CALENDAR = """(lang) => {
  const words = new Set();
  const styles = [{ dateStyle: "medium" }, { dateStyle: "medium", timeStyle: "short" }];
  for (let day = 0; day < 400; day += 16) {
    const date = new Date(Date.UTC(2026, 0, 1 + day, day % 32 ? 9 : 21));
    for (const style of styles) {
      for (const part of new Intl.DateTimeFormat(lang, style).formatToParts(date)) {
        words.add(part.value);
      }
    }
  }
  return [...words];
}"""


@cache
def pieces(language: str, written: frozenset[str] = frozenset()) -> frozenset[str]:
    """What ``language``'s catalogue writes: the pieces of each of its texts (the msgids in
    English, the translations and each of their plural forms elsewhere) between their
    placeholders and tags (:data:`SPLIT`), and of what the browser ``written`` (the
    :data:`CALENDAR`'s words), less the spaces and punctuation at their ends, those with a
    letter."""
    texts = set(written)
    for message in catalogue(language):
        if not message.id:
            continue
        if language == SOURCE:
            texts |= set(message.id if message.pluralizable else (message.id,))
        else:
            texts |= set(message.string if message.pluralizable else (message.string,))
    found = {EDGES.sub("", piece) for text in texts for piece in SPLIT.split(text or "")}
    return frozenset(piece for piece in found if LETTER.search(piece))


def conjunctions(language: str) -> set[str]:
    """The words ``language`` joins the items of a list with (``Intl.ListFormat``'s, CLDR's
    as Babel has them), each as it stands before the next item: "and ", Arabic "و" (written
    on to the item)."""
    patterns = Locale.parse(language).list_patterns
    joints = {
        re.sub(r"^[\W_]+", "", pattern.split("{0}")[1].split("{1}")[0])
        for style in patterns
        for pattern in dict(patterns[style]).values()
    }
    return {joint for joint in joints if LETTER.search(joint)}


@cache
def catalogued(language: str, written: frozenset[str] = frozenset()) -> re.Pattern[str]:
    """A pattern that finds, at each place of a text, the longest of ``language``'s
    :func:`pieces` there (in its group 1), whole (not inside a longer word: no letter of
    :data:`SPACED` next to it; a number may be, "第3步", and Chinese or Japanese writing),
    a list's conjunction before it or not (:func:`conjunctions`: "، ونقلة واحدة", ", and one
    move")."""
    ordered = sorted(pieces(language, written), key=len, reverse=True)
    joints = "|".join(map(re.escape, sorted(conjunctions(language), key=len, reverse=True)))
    either = "|".join(map(re.escape, ordered))
    return re.compile(rf"(?<!{SPACED})(?=((?:{joints})?(?:{either}))(?!{SPACED}))")


@cache
def uncatalogued(language: str, text: str, written: frozenset[str] = frozenset()) -> str | None:
    """The words of ``text`` that ``language``'s catalogue does not write (None: it writes them
    all).  ``text`` less the names, the keys, the languages' names and the rule sets' settings
    (:data:`NAMES`, :data:`KEYS`, :data:`LANGUAGE_NAMES`, :data:`SETTINGS`), less every piece
    of the catalogue and of the dates ``written`` found in it and the notation and numbers
    (:data:`ALLOWED`), each wherever it is (:func:`catalogued`: they may overlap, as two texts
    put together share a full stop, or a piece holds a move), must have no letter left.  So
    what a page shows is the catalogue's, whole or in pieces put together (a sentence with its
    values filled in, a row of facts), or notation, numbers and names; a text that never went
    through the catalogue (a variable the extraction never saw, a server's word sent as it is)
    is caught in every language, English too, unless each of its words is also one the
    language's catalogue writes.  Exact (a word is the catalogue's or not; no list of words to
    allow) and cheap: one search of one pattern a text, each text of a language searched once
    (cached)."""
    if EDGES.sub("", text) in pieces(language, written):
        return None  # (most texts: one of the catalogue's whole)
    text = SETTINGS.sub(" ", LANGUAGE_NAMES.sub(" ", KEYS.sub(" ", NAMES.sub(" ", text))))
    chars = list(text)
    for found in catalogued(language, written).finditer(text):
        chars[found.start(1) : found.end(1)] = " " * (found.end(1) - found.start(1))
    for found in ALLOWED.finditer(text):  # (in the same text: a piece may hold a move, "a1",
        chars[found.start() : found.end()] = " " * (found.end() - found.start())  # or be "c")
    rest = "".join(chars)
    if not LETTER.search(rest):
        return None
    return f"not the catalogue's: {' '.join(rest.split())!r}"


def test_the_english_search_comes_before_what_is_allowed() -> None:
    """The cases the check let pass when its allowed patterns were tried first: a count of
    moves, a sentence with a move in it, a numbered result."""
    for text in ("12 moves", "d6 is occupied", "1. White wins by resignation", "(depth 12)"):
        for language in ("fr", "de", "es", "ar"):
            assert english_in(language, text), (language, text)
    for text in ("d6", "a1-b2", "b2xd4", "12. d6 f4", "..b/.w./... w 0 0", "1\u20130", "±35", "3d"):
        assert english_in("ar", text) is None, text
    # a rule set's spec is allowed in Arabic only as the registry names it (the words of
    # "cham-gonu" or "morris:flying=false" are the catalogue's English: caught before)
    for text in ("morris-7", "felli-zz", "mullah-felli", "felli-zz:qq", "felli:"):
        assert english_in("ar", text) == "Latin letters that are not notation", text
    for text in (
        "morris-6",
        "felli-mullah",
        "felli:forced_capture,multi_capture",
        "11x11",
        "morris",
    ):
        assert english_in("ar", text) is None, text


def ready(page: Any) -> None:
    """Wait for the page's script to have drawn its first data (and the header)."""
    page.wait_for_selector("html[data-ready]", state="attached")


def visit(page: Any, address: str) -> None:
    page.goto(address)
    ready(page)


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


def sign_in(page: Any, server: str, name: str) -> None:
    answer = page.context.request.post(
        server + "/api/login", data={"name": name, "password": PASSWORD, "claims": []}
    )
    assert answer.ok, answer.text()


#: the pages with a board, and the game each shows first
BOARDS = {"game", "spectator", "correspondence", "analysis", "review", "puzzle", "lessons", "study"}


def site(world: World) -> dict[str, str]:
    """Each page of the site (every template), by name: its path (the game pages: the hotseat
    game :func:`walk` starts, the game in play watched, the correspondence game as the player
    to move; the pages after the lobby signed in, as :func:`walk` opens them)."""
    return {
        "account (signed out)": "/account",
        "lobby": "/",
        "game": "",
        "spectator": f"/game/{world.live}",
        "correspondence": f"/game/{world.correspondence}",
        "analysis": "/analysis?game=morris&moves=d2,d6",
        "review": "/review",
        "puzzle": f"/puzzles/{world.puzzle}",
        "puzzles": "/puzzles",
        "puzzle dashboard": "/puzzles/dashboard",
        "mistakes": "/puzzles/mistakes",
        "lessons": "/lessons",
        "profile": f"/players/{RATED}",
        "leaderboard": "/leaderboard",
        "finished": "/games",
        "tournaments": "/tournaments",
        "tournament": f"/tournaments/{world.tournament}",
        "account": "/account",
        "yourturn": "/yourturn",
        "moderation": "/moderation",
        "studies": "/studies",
        "study": f"/study/{world.study}",
        "missing": "/game/no-such-game",
    }


def walk(
    page: Any, server: str, world: World, full: bool = True, only: Collection[str] | None = None
) -> Iterator[str]:
    """Open each page of :func:`site` (or those named in ``only``) in turn, ready, signed in
    as :data:`OTHER` from the lobby on, and yield its name (the review page's, without
    ``full``, "review (empty)": no record loaded, no board); with ``full``, also each page's
    later states (a move played in the hotseat game, then the game resigned: the result dialog
    and the report; a record loaded in the review page with its report and a marked move open,
    then one refused)."""
    for name, path in site(world).items():
        if name == "lobby":
            sign_in(page, server, OTHER)
        if only is not None and name not in only:
            continue
        if name == "game":
            start(page, server, "morris", "hotseat")
            ready(page)
            if full:
                point(page, "d2").click()
                wait_moves(page, 1)
        else:
            visit(page, server + path)
        if name in ("spectator", "correspondence"):
            wait_moves(page, 1)
        if name == "review" and full:
            load_record(page)
            show_report(page)
        yield name if full or name != "review" else "review (empty)"  # (no board before a record)
        if name == "game" and full:
            end_game(page)
            yield "game over"
        elif name == "review" and full:
            refuse_record(page)
            yield "review refusal"


def context_in(browser: Any, language: str, width: int = 1366, height: int = 768) -> Any:
    return browser.new_context(
        locale=language, bypass_csp=True, viewport={"width": width, "height": height}
    )


def untranslated(page: Any, language: str) -> set[str]:
    """The texts of the page shown that are not in ``language``: an English msgid, an English
    word, (in a language of another script) a Latin word besides notation and names, a word
    that is neither the catalogue's nor the browser's dates' (:func:`uncatalogued`,
    :data:`CALENDAR`), or an unfilled placeholder (the last two in English too), each with
    why."""
    assert page.get_attribute("html", "lang") == language
    written = frozenset(page.evaluate(CALENDAR, language))
    left = set()
    for text in page.evaluate(TEXTS):
        why = "an unfilled placeholder" if UNFILLED.search(text) else None
        why = why or english_in(language, text) or uncatalogued(language, text, written)
        if why:
            left.add(f"{text!r} ({why})")
    return left


def fail_if_untranslated(left: dict[str, set[str]]) -> None:
    if left:
        pytest.fail("English left:\n" + "\n".join(f"{k}: {sorted(v)}" for k, v in left.items()))


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


# --- right to left ---------------------------------------------------------------------------

#: where a page's layout stands: the header's first and last items (their left edges, in
#: CSS pixels), the board's a1 and g7 in its box (0: its left or top edge, 1: its right or
#: bottom edge) and its writing direction, when it has a board
GEOMETRY = """() => {
  const header = document.querySelector("header.top");
  const items = [...header.children].filter((el) => el.checkVisibility());
  const left = (el) => el.getBoundingClientRect().left;
  const out = { first: left(items[0]), last: left(items.at(-1)),
                dir: document.documentElement.dir };
  const board = document.querySelector("#board");
  const a1 = board && board.querySelector('.pt[data-name="a1"]');
  const g7 = board && board.querySelector('.pt[data-name="g7"]');
  if (a1 && g7) {
    const box = board.getBoundingClientRect();
    const at = (el) => { const r = el.getBoundingClientRect();
      return [(r.x + r.width / 2 - box.x) / box.width,
              (r.y + r.height / 2 - box.y) / box.height]; };
    out.a1 = at(a1);
    out.g7 = at(g7);
    out.boardDir = getComputedStyle(board).direction;
  }
  return out;
}"""
#: the notation and numbers in the page's text that are not kept left to right: a text with
#: a token the bidi algorithm, left alone, reorders inside right-to-left text (its neutral
#: signs take the Arabic's direction): a numbered move ("2. a7", "2... b4-c4": the number
#: after the move), a move with a hyphen or a colon ("b4-c3" read "c3-b4"), a provisional
#: rating or a deviation ("1500?", "±35"), a result or a score with an en or em dash (1-0
#: read 0-1), a position code ("..b/.w./... w 0 0"); not isolated in its text (inside
#: U+2066 or U+2068 ... U+2069) and whose nearest block or isolate (an element with a display
#: of its own, unicode-bidi: isolate, dir="ltr"; a <bdi> keeps its text's own) is written
#: right to left (a move alone, "d6", and a capture, "g7xb6", read right as they are); and a
#: field (an input, a text area) holding such a token that is written right to left (a
#: record, a position code: typed and read left to right)
UNISOLATED = r"""() => {
  const token = new RegExp("(?<![\\w\\/.±])(?:" + [
    String.raw`\d+\.(?:\.\.)?\s*[a-g][1-7](?:[-x:][a-g][1-7])*`,
    String.raw`[a-g][1-7](?:x[a-g][1-7])*[-:][a-g][1-7](?:[-x:][a-g][1-7])*`,
    String.raw`\d+\?|±\d+`,
    String.raw`\d+\s?[\u2013\u2014]\s?\d+`,
    String.raw`[.wbWB]+(?:\/[.wbWB]+){2,}(?:\s[wb](?:\s\d+)*)?`,
  ].join("|") + ")(?![\\w])", "gu");
  // a token inside a left-to-right or first-strong isolate of its text (one opened before it
  // and not yet closed)
  const inside = (text, at) => {
    const before = text.slice(0, at);
    return (before.match(/[\u2066\u2068]/g) || []).length
      > (before.match(/\u2069/g) || []).length;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || ["SCRIPT", "STYLE", "TEXTAREA"].includes(el.tagName)) continue;
    if (!el.checkVisibility()) continue;
    if (el.closest("svg")) continue;  // the board's labels: the board is never mirrored
    const text = node.textContent;
    if ([...text.matchAll(token)].every((found) => inside(text, found.index))) continue;
    let ltr = false;
    // the nearest element that makes a paragraph or an isolate of its own (a block, an
    // inline block, a <bdi>, dir="ltr", unicode-bidi: isolate) says the text's direction
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      const own = at.tagName === "BDI" || style.display !== "inline"
        || ["isolate", "isolate-override", "plaintext"].includes(style.unicodeBidi);
      if (own) { ltr = at.tagName === "BDI" || style.direction === "ltr"; break; }
    }
    if (!ltr) out.push(`${el.id || el.className || el.tagName}: ${text.trim()}`);
  }
  for (const field of document.querySelectorAll("input, textarea")) {
    const value = field.value || "";
    if (getComputedStyle(field).direction === "rtl" && [...value.matchAll(token)].length) {
      out.push(`${field.id || field.name}: ${value.trim()}`);
    }
  }
  return out;
}"""


def unmirrored(page: Any, name: str) -> list[str]:
    """What of the page ``name`` shown is not as a right-to-left page has it: ``dir="rtl"``;
    its header mirrored (its first item at the right of its last); its board, if it has one,
    not (written left to right, a1 and g7 at the ends of the diagonal from the bottom left to
    the top right: a1 at the bottom left facing White, at the top right facing Black, never
    the other way as a mirror puts them); every numbered move of its text kept left to right
    (:data:`UNISOLATED`)."""
    at = page.evaluate(GEOMETRY)
    wrong = [] if at["dir"] == "rtl" else [f"written {at['dir']}"]
    if not at["first"] > at["last"]:
        wrong.append(f"the header not mirrored: {at}")
    if name in BOARDS:
        (ax, ay), (gx, gy) = at.get("a1", (0.5, 0.5)), at.get("g7", (0.5, 0.5))
        facing_white, facing_black = (
            ax < 0.5 < ay and gy < 0.5 < gx,
            ay < 0.5 < ax and gx < 0.5 < gy,
        )
        if at.get("boardDir") != "ltr" or not (facing_white or facing_black):
            wrong.append(f"the board mirrored (or none): {at}")
    return wrong + [f"notation not isolated: {text}" for text in page.evaluate(UNISOLATED)]


def test_a_mirrored_page_is_caught() -> None:
    """:func:`unmirrored` on pages as a mistake would lay them out (the facts GEOMETRY reads):
    the header left to right, the board mirrored (a1 at the bottom right) or written right to
    left, a move not isolated; and nothing on a right one, its board facing either side."""

    class Page:
        def __init__(self, at: dict[str, Any], unisolated: list[str] = []) -> None:  # noqa: B006
            self.at, self.unisolated = at, unisolated

        def evaluate(self, script: str) -> Any:
            return self.at if script == GEOMETRY else self.unisolated

    right = {"dir": "rtl", "first": 1000, "last": 10, "boardDir": "ltr"}
    white, black = {"a1": (0.1, 0.9), "g7": (0.9, 0.1)}, {"a1": (0.9, 0.1), "g7": (0.1, 0.9)}
    assert unmirrored(Page({**right, **white}), "game") == []
    assert unmirrored(Page({**right, **black}), "correspondence") == []
    assert unmirrored(Page(right), "lobby") == []
    for wrong, name in (
        ({**right, "dir": "ltr"}, "lobby"),
        ({**right, "first": 10, "last": 1000}, "lobby"),
        ({**right, "a1": (0.9, 0.9), "g7": (0.1, 0.1)}, "game"),
        ({**right, "a1": (0.1, 0.1), "g7": (0.9, 0.9)}, "correspondence"),
        ({**right, **white, "boardDir": "rtl"}, "game"),
        (right, "game"),  # no board
    ):
        assert len(unmirrored(Page(wrong), name)) == 1, (wrong, name)
    assert unmirrored(Page({**right, **white}, ["moves: 1. d2"]), "game") == [
        "notation not isolated: moves: 1. d2"
    ]


#: texts in a right-to-left page, by id: those :data:`UNISOLATED` reports ("a" to "e": a
#: numbered move, a provisional rating, a deviation, a move with a hyphen, a result with an
#: en dash, each bare in the Arabic) and those it does not ("x": isolated by U+2068, the
#: second move inside the first's isolate; "y" and "z": in a <bdi> and in an element written
#: left to right; "w": a move alone and a capture, which read right as they are); and the
#: fields: "t", a record in a text area written right to left, reported, "u" written left to
#: right, not
BIDI_CASES = """<body dir="rtl" lang="ar"><p id="a">الخط: 1. f4 a4</p><p id="b">تقييم 1500?</p>
<p id="c">الانحراف ±35</p><p id="d">نقلة b4-c3</p><p id="e">النتيجة 1\u20130</p>
<p id="x">الخط: \u20681. f4 a4 2. d2 b2\u2069</p><p id="y"><bdi>1500?</bdi></p>
<p id="z" dir="ltr">b4-c3</p><p id="w">نقلة d6، ثم g7xb6</p>
<textarea id="t">1. a7 b6</textarea><textarea id="u" dir="ltr">1. a7 b6</textarea></body>"""


def test_notation_left_to_the_bidi_algorithm_is_caught(page: Any) -> None:
    """:data:`UNISOLATED` on a right-to-left page of :data:`BIDI_CASES`: it reports the bare
    tokens, and not those isolated or alone."""
    page.set_content(BIDI_CASES)
    assert sorted(text.split(":")[0] for text in page.evaluate(UNISOLATED)) == list("abcdet")


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != SOURCE])
def test_a_text_the_catalogue_never_saw_is_caught(language: str) -> None:
    """:func:`uncatalogued` in each shipped language: a text never sent through the
    catalogue (English the catalogue does not have, a word of the code's) is caught; one of
    the catalogue's texts, whole, with its values filled in or put together with another,
    among names, notation and numbers, is not."""
    with use(language):
        pieces = (_("Correspondence"), _("Draw by %(reason)s.", reason=_("agreement")))
    assert uncatalogued(language, "Correspondence games") is not None
    assert uncatalogued(language, "untimed") is not None  # the server's key, not its words
    for text in (*pieces, f"{pieces[0]} · {RATED} 1500? d6", ", ".join(pieces), "a1-b2 3d 9x9"):
        assert uncatalogued(language, text) is None, text


def read(page: Any, language: str, name: str, width: int = 1366) -> set[str]:
    """What is wrong with the page ``name`` shown in ``language``: its texts not in it
    (:func:`untranslated`) and, in a language written right to left at a laptop's width (a
    phone's header folds), its layout not mirrored as it should be (:func:`unmirrored`)."""
    wrong = untranslated(page, language)
    if language in RTL and width > 1000:
        wrong |= set(unmirrored(page, name))
    return wrong


#: how far the page reaches past the window's right edge, in CSS pixels (0: it fits)
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


#: the audit's walks: English and the first language written right to left (Arabic) at
#: 1366x768, every page in each of its states; each language written right to left at 390x844
#: (no page wider than the phone).  The other languages, Persian at 1366x768 among them, get
#: their share of tests/web/test_browser_languages.py's short walk (its docstring says why a
#: share): a page's later states are the same templates and scripts in either right-to-left
#: language
AUDITS = [("en", 1366, 768), (min(RTL), 1366, 768)] + [
    (language, 390, 844) for language in sorted(RTL)
]


@pytest.mark.parametrize("language, width, height", AUDITS)
def test_every_page_in_english_and_right_to_left_is_audited_and_fits(
    browser: Any, server: str, world: World, language: str, width: int, height: int
) -> None:
    """At 1366x768 every page, in each of its states (:func:`walk`'s full walk), passes the
    accessibility audit (axe-core: no serious or critical violation; in English in both
    schemes, the colours being the CSS's alone, whatever the language), is all in the
    browser's language and, right to left, mirrored but not its board nor its notation
    (:func:`read`), and throws no error; at 390x844 no page is wider than the phone.
    Each page is opened once at its size and, when pictures are asked for, pictured in both
    schemes (the scheme is the CSS's alone, switched in place; the size is not, since the
    board is laid out for it) in ``bench/results/screenshots``."""
    context = context_in(browser, language, width, height)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    left: dict[str, set[str]] = {}
    schemes: tuple[str, ...] = ()  # (at 390x844 nothing is audited, nor pictured unasked)
    if shooting() or (width > 1000 and language == SOURCE):
        schemes = ("light", "dark")
    elif width > 1000:
        schemes = ("light",)
    try:
        for name in walk(page, server, world, full=width > 1000 or shooting()):
            if width < 1000:
                assert page.evaluate(OVERFLOW) <= 0, name
            elif found := read(page, language, name):
                left[name] = found
            for scheme in schemes:
                page.emulate_media(color_scheme=scheme)
                if width > 1000:
                    assert serious_violations(page) == [], (scheme, name)
                shot(page, f"{name}-{language}-{width}x{height}-{scheme}")
        fail_if_untranslated(left)
        assert not errors, errors
    finally:
        context.close()


# --- dates and the arrows in the page's language and direction -------------------------------

#: the node of the analysis tree shown: its data-node (the moves' buttons 1, 2, 3 of
#: "d2,d6,f4"), "root" before the first move
SHOWN_NODE = """() => {
  const current = document.querySelector('#tree [aria-current="step"]');
  return current ? current.dataset.node : "root";
}"""


def shown_node(page: Any, node: str) -> None:
    page.wait_for_function(f"({SHOWN_NODE})() === {node!r}", timeout=60_000)


@pytest.mark.parametrize("language", ["en", *sorted(RTL)])
def test_the_arrows_step_through_the_moves_as_the_page_is_written(
    browser: Any, server: str, language: str
) -> None:
    """On the analysis board (the moves' keys are one helper, lib/move-keys.js, for the game,
    analysis and review pages): left to right the Left arrow steps back and the Right arrow
    on; right to left (Arabic), the other way round, as the move list and the ◀ ▶ buttons
    are mirrored; Home and End go to the start and the end in both."""
    context = context_in(browser, language)
    page = context.new_page()
    try:
        visit(page, server + "/analysis?game=morris&moves=d2,d6,f4")
        back, on = ("ArrowRight", "ArrowLeft") if language in RTL else ("ArrowLeft", "ArrowRight")
        shown_node(page, "3")
        # the engine off (each position shown sooner on a busy machine), the focus on the page
        # (the keys go to it, not to the board nor a box)
        page.click("#engine")
        page.locator("h1").click()
        page.keyboard.press(back)
        shown_node(page, "2")
        page.keyboard.press(back)
        shown_node(page, "1")
        page.keyboard.press(on)
        shown_node(page, "2")
        page.keyboard.press("Home")
        shown_node(page, "root")
        page.keyboard.press("End")
        shown_node(page, "3")
    finally:
        context.close()


def written(language: str, day: date) -> str:
    """``day`` as ``language`` writes it in its medium length (babel's CLDR data)."""
    return format_date(day, "medium", locale=language)


@pytest.mark.parametrize("language", ["de", "ar"])
def test_the_finished_games_dates_follow_the_pages_language(
    browser: Any, server: str, world: World, language: str
) -> None:
    """/games in ``language`` chosen with the switcher (its cookie) in a browser set to
    American English: the finished game's date, and the days chosen in the date filters
    (from the address, then typed), are written as the page's language writes them, not
    month first; the pickers carry the page's language; in Arabic the filters run right to
    left ("From" at the right of "To")."""
    context = browser.new_context(locale="en-US", timezone_id="UTC", bypass_csp=True)
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page = context.new_page()
    try:
        visit(page, server + "/games?until=2099-12-31")
        assert page.get_attribute("html", "lang") == language
        today = datetime.now(UTC).date()  # (the world's games ended today, or just before midnight)
        first = page.inner_text("#games tbody tr td >> nth=0")
        assert first in {written(language, today), written(language, today - timedelta(days=1))}
        assert page.inner_text("#until-day") == written(language, date(2099, 12, 31))
        assert page.inner_text("#since-day") == ""
        page.fill("#since", "2026-01-15")
        assert page.inner_text("#since-day") == written(language, date(2026, 1, 15))
        for picker in ("#since", "#until"):
            assert page.get_attribute(picker, "lang") == language
        since, until = page.locator("#since").bounding_box(), page.locator("#until").bounding_box()
        assert (since["x"] > until["x"]) == (language in RTL), (since, until)
    finally:
        context.close()

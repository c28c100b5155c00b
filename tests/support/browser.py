"""The web app in a real browser, for the browser tests (Debian's Chromium driven by
Playwright): a module-wide server on a fresh SQLite database (in a module that declares
``DATABASES``, once on SQLite and once on PostgreSQL), the browser, a page that fails its test
on any script error, screenshots (to ``bench/results/screenshots``, not committed; taken only
when ``LUDOTECA_SCREENSHOTS`` is set, as ``scripts/screenshots`` does), and the steps every
test takes (start a game from the lobby, join it, read the move list), and three people's pages
at once.  The fixtures reach
the test packages that use them through their ``conftest.py`` (``server/``, ``web/``)."""

from __future__ import annotations

import os
import secrets
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from .live_server import serving
from .need import need
from .postgres import database

SHOTS = Path(__file__).resolve().parent.parent.parent / "bench" / "results" / "screenshots"
FELLI_TRIPLE = ".b./..b/./b../w.w w 0 0"
FELLI_ENDGAME = ".../b.././.../w.. w 0 0"
#: how long a test waits for a game report (ms): reports are made in a process at the lowest
#: priority, after the parts of the solved tables they need are loaded, so on a machine busy
#: with the rest of the suite they take far longer than the 30 s a page's other waits allow
REPORT_WAIT = 120_000


@pytest.fixture(scope="module")
def browser_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """The database of a module's server: a fresh SQLite file, or, in a module that declares
    ``DATABASES = ("sqlite", "postgres")`` (its pages keep what people do: accounts, ratings,
    finished games), each in turn, the second a database of the session's PostgreSQL cluster
    (``tests/conftest.py`` parametrizes it)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('web') / 'games.db'}"
    return database(request.getfixturevalue("postgres_port"), f"w{secrets.token_hex(6)}")


@pytest.fixture(scope="module")
def server(browser_database: str) -> Iterator[str]:
    """A module's server.  Its game reports search 3 plies deep (what the pages show of a report
    is the same at any depth; the default's depth 12 made a long game's report hold the study
    work for minutes, and a later test's report waited behind it).  Every page comes from one
    address, 127.0.0.1, so the limit of new games an address may start a minute is lifted: a
    module that starts a game in each of fifteen languages started over 30 a minute (the limit
    itself is tests/server/test_server_limits.py's)."""
    from ludoteca.ai import Limit
    from ludoteca.server import Settings, create_app

    settings = Settings(
        db=browser_database, workers=1, report_limit=Limit(depth=3), games_per_minute=10_000
    )
    with serving(create_app(settings)) as port:
        address = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(address + "/healthz", timeout=120) as answer:  # started
            assert answer.status == 200
        yield address


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Any) -> Iterator[Any]:
    # Debian's Chromium; under CI=true its absence fails the run
    instance = playwright.chromium.launch(executable_path=need("chromium"))
    yield instance
    instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # the tests' own waits evaluate strings, which the app's policy forbids to its pages
    context = browser.new_context(viewport={"width": 1100, "height": 860}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def people(browser: Any) -> Iterator[list[Any]]:
    """Three pages, each in its own browser context (its own cookies: three people); a script
    error on any fails the test."""
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 860}, bypass_csp=True)
        for _ in range(3)
    ]
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda error: errors.append(str(error)))
    yield pages
    for context in contexts:
        context.close()
    assert not errors, errors


def shooting() -> bool:
    """Whether this run pictures the pages (``LUDOTECA_SCREENSHOTS`` set): pictures are for a
    person to look at, and rendering them costs a run of the suite minutes of a core."""
    return bool(os.environ.get("LUDOTECA_SCREENSHOTS"))


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Picture the page as ``name`` (its animations run to their end), when :func:`shooting`."""
    if shooting():
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page, animations="disabled")


def point(page: Any, name: str) -> Any:
    return page.locator(f'#board .pt[data-name="{name}"]')


def piece(page: Any, name: str) -> str:
    value: str = point(page, name).get_attribute("data-piece") or ""
    return value


def start(
    page: Any,
    server: str,
    game: str,
    opponent: str,
    rules: str | None = None,
    position: str | None = None,
    level: int | None = None,
    colour: str = "white",
    settings: tuple[str, ...] | list[str] = (),
    clock: str = "",
) -> None:
    """Create a game from the lobby, as a person does, and wait for its page."""
    page.goto(server + "/")
    page.check(f'input[name="game"][value="{game}"]')
    if rules:
        page.select_option("#rules", rules)
    for name in settings:
        page.check(f'#settings input[name="{name}"]')
    page.check(f'input[name="opponent"][value="{opponent}"]')
    if level:
        page.select_option("#level", str(level))
    if opponent != "hotseat":
        page.select_option("#colour", colour)
    if clock:
        page.select_option("#clock", clock)
    if position:
        page.click("details summary")
        page.fill("#position", position)
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board .pt")


def join(page: Any) -> None:
    """Take the free seat of the game open on `page` and wait until the page knows it is seated
    (the game going live may reach the page before the answer to its own greeting)."""
    page.wait_for_selector("#join-button", state="visible")
    name = page.locator("#join-name")
    if name.is_visible() and not name.input_value():  # a guest is asked for a name first
        name.fill("Friend")
    page.click("#join-button")
    page.wait_for_selector("#join", state="hidden")
    page.wait_for_selector("#undo", state="visible")


def moves(page: Any) -> list[str]:
    """The moves of the move list as played, without the report's marks ("??") that may join
    them at any time once a game is over."""
    texts: list[str] = page.eval_on_selector_all(
        "#moves button.move", "buttons => buttons.map((b) => b.firstChild.textContent.trim())"
    )
    return texts


def wait_moves(page: Any, count: int) -> list[str]:
    page.wait_for_function(f"document.querySelectorAll('#moves button.move').length >= {count}")
    return moves(page)


def until(page: Any, expression: str, seconds: float = 30) -> Any:
    """Wait until ``expression`` (JavaScript, a promise awaited) is truthy in ``page``; its
    value.  For what a promise tells: ``page.wait_for_function`` takes a promise for a truthy
    value at once, without waiting for it."""
    deadline = time.monotonic() + seconds
    while not (value := page.evaluate(expression)):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        time.sleep(0.05)  # polling: the page announces none of what is waited for here
    return value


def serious_violations(page: Any) -> list[str]:
    """The accessibility audit (axe-core) of a page: its serious and critical violations."""
    from axe_playwright_python.sync_playwright import Axe

    report = Axe().run(page).response
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in report["violations"]
        if v["impact"] in ("serious", "critical")
    ]

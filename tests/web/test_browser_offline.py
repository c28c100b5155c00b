"""The service worker's promises (``static/sw.js``), in Chromium: a page visited before opens
from its cache with the network cut (the lobby, the review page, a finished game's page); the
API and the websockets always go to the network (offline they fail rather than answer from a
cache, and no cache holds an answer of theirs); a new version of the static files (a new
digest) replaces the old cache, its files served and the old cache deleted.

The server serves a copy of the static files, so that the last test can change one."""

from __future__ import annotations

import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..support.browser import start, until, wait_moves
from ..support.live_server import serving
from ..support.need import need


@pytest.fixture(scope="module")
def static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the static files (and the templates), which the module's server serves."""
    from ludoteca.server.routers import pages

    root = tmp_path_factory.mktemp("server")
    shutil.copytree(pages.TEMPLATES, root / "templates")  # (the digest names both by path)
    shutil.copytree(pages.STATIC, root / "static")
    return root / "static"


@pytest.fixture(scope="module")
def server(static: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ludoteca.server import Settings, create_app
    from ludoteca.server import app as made
    from ludoteca.server.routers import pages

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pages, "STATIC", static)
        patch.setattr(pages, "TEMPLATES", static.parent / "templates")
        patch.setattr(made, "STATIC", static)  # (the /static mount, made by create_app)
        pages.service_worker.cache_clear()
        db = tmp_path_factory.mktemp("web-offline") / "games.db"
        settings = Settings(db=f"sqlite+aiosqlite:///{db}", workers=1, warm=False)
        try:
            with serving(create_app(settings)) as port:
                address = f"http://127.0.0.1:{port}"
                with urllib.request.urlopen(address + "/healthz", timeout=120) as answer:
                    assert answer.status == 200
                yield address
        finally:
            pages.service_worker.cache_clear()  # (the worker of the package's own files again)


@pytest.fixture
def app_page(playwright: Any, tmp_path: Path) -> Iterator[Any]:
    """A page of a browser profile of its own (service workers and their caches are kept
    per profile), failing its test on any script error."""
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=need("chromium"),
        viewport={"width": 1100, "height": 860},
        bypass_csp=True,  # (wait_for_function evaluates its text, which the CSP forbids)
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


#: the names of the worker's caches
CACHES = "caches.keys()"
#: every address any cache of the worker holds
CACHED = """async () => {
  const out = [];
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) out.push(new URL(request.url).pathname);
  }
  return out;
}"""


def controlled(page: Any) -> None:
    """Wait until the page is under the control of an activated worker (reloading once it is
    activated, as a page opened before it is not)."""
    until(page, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def version(server: str) -> str:
    with urllib.request.urlopen(server + "/sw.js") as answer:
        found = re.search(r'const VERSION = "(\w+)"', answer.read().decode())
    assert found
    return found.group(1)


def test_pages_visited_before_open_offline(app_page: Any, server: str) -> None:
    """The lobby, the review page and a finished game's page, visited online, open with the
    network cut: the saved copies, with the offline notice."""
    page = app_page
    page.goto(server + "/")
    page.wait_for_selector("html[data-ready]", state="attached")
    controlled(page)
    start(page, server, "morris", "hotseat")
    page.locator('#board .pt[data-name="d2"]').click()
    wait_moves(page, 1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#result[open]")
    game = page.url
    for address in (server + "/review", game):
        page.goto(address)
        page.wait_for_selector("html[data-ready]", state="attached")
    page.context.set_offline(True)
    for address, shows in (
        (server + "/", "#start"),
        (server + "/review", "#record"),
        (game, "#board"),
    ):
        page.goto(address)
        page.wait_for_selector("#offline:not([hidden])")
        assert page.locator(shows).count() == 1, address
        assert page.url == address
    page.context.set_offline(False)


def test_the_api_and_websockets_always_go_to_the_network(app_page: Any, server: str) -> None:
    """Online, the page asks the API and opens a websocket (a hotseat game's); offline, the
    same request fails and a websocket does not open, rather than a saved answer coming back;
    no cache of the worker holds an API or websocket address."""
    page = app_page
    page.goto(server + "/")
    controlled(page)
    start(page, server, "morris", "hotseat")
    assert page.evaluate("fetch('/api/catalogue').then((a) => a.status)") == 200
    cached = page.evaluate(CACHED)
    assert "/" in cached and "/static/style.css" in cached  # the worker keeps pages and files
    assert not [path for path in cached if path.startswith(("/api/", "/ws/"))], cached
    page.context.set_offline(True)
    failed = page.evaluate(
        "fetch('/api/catalogue').then((a) => `answered ${a.status}`, (e) => e.name)"
    )
    assert failed == "TypeError"
    opened = page.evaluate("""() => new Promise((done) => {
      const socket = new WebSocket(`ws://${location.host}/ws/analysis`);
      socket.onopen = () => done("opened");
      socket.onerror = () => done("failed");
    })""")
    assert opened == "failed"
    page.context.set_offline(False)
    assert not [path for path in page.evaluate(CACHED) if path.startswith(("/api/", "/ws/"))]


def new_version(page: Any, server: str, static: Path) -> str:
    """Open the lobby under the worker of the static files as they are, then change one (the
    server restarted with it: a new digest), reload twice and wait until the new version's
    cache is the only one (Chromium checks the worker for an update a moment after a
    navigation, deferred while the page is busy; the new worker then fetches every file): the
    new version's name."""
    from ludoteca.server.routers import pages

    css = static / "style.css"
    css.write_text(css.read_text().replace("\n/* a new version */\n", ""))  # (the first)
    pages.service_worker.cache_clear()
    old = version(server)
    page.goto(server + "/")
    controlled(page)
    until(page, f"caches.keys().then((k) => k.join() === 'ludoteca-{old}')")
    assert "new version" not in page.evaluate(STYLE)
    css.write_text(css.read_text() + "\n/* a new version */\n")
    pages.service_worker.cache_clear()  # what a restart of the server does
    new = version(server)
    assert new != old
    page.reload()
    page.reload()
    until(page, f"caches.keys().then((k) => k.join() === 'ludoteca-{new}')")
    return new


#: the style sheet as the page gets it
STYLE = "fetch('/static/style.css').then((a) => a.text())"


def test_a_new_version_replaces_the_old_cache_and_serves_the_new_files(
    app_page: Any, server: str, static: Path
) -> None:
    """After a static file changed (and the page was reloaded), the new worker's cache
    becomes the only one and the page gets the file's new content from it."""
    new = new_version(app_page, server, static)
    assert "new version" in app_page.evaluate(STYLE)
    assert app_page.evaluate(CACHES) == [f"ludoteca-{new}"]

"""The HTML pages (the lobby, a game, the review page, the account page, profiles, finished
games, the leaderboard, "not found"): each a Jinja2 template in ``server/templates`` extending
one page shell (``base.html``: the head, the header, the page's module script), rendered here;
their scripts and styles are the static files in ``server/static``.  Also the installable
app's two files that must sit at the site's root: the web app manifest and the service worker
(``static/sw.js``, given its cache version and the static files' URLs)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import jinja2
from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ... import i18n
from ...i18n import _
from ..deps import AccountsDep, HubDep
from ..errors import ActionError
from ..schemas import PageCatalogue

STATIC = Path(__file__).resolve().parent.parent / "static"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
#: (the pages are kept out of the OpenAPI document; the scripts' catalogue is in it)
router = APIRouter(default_response_class=HTMLResponse)

_pages = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    auto_reload=False,
    extensions=["jinja2.ext.i18n"],
)
_pages.install_gettext_callables(  # type: ignore[attr-defined]  # (added by the extension)
    lambda msgid: i18n.translations(i18n.current()).gettext(msgid),
    lambda singular, plural, n: i18n.translations(i18n.current()).ngettext(singular, plural, n),
    newstyle=True,
)
#: how long the switcher's choice of language is remembered (a year, in seconds)
LANGUAGE_SECONDS = 365 * 24 * 3600


def page(name: str, status_code: int = 200, **context: object) -> HTMLResponse:
    """The page ``name`` (a template's name without ``.html``), rendered with ``context`` in
    the request's language (``lang`` and ``dir`` of the shell, ``languages`` for the header's
    switcher; texts through ``_()``/``ngettext`` of Jinja2's i18n extension), as an HTML
    response."""
    html = _pages.get_template(f"{name}.html").render(
        lang=i18n.current(),
        dir=i18n.direction(),
        languages=i18n.LANGUAGES,
        **context,
    )
    return HTMLResponse(html, status_code=status_code)


def not_found() -> HTMLResponse:
    """The "Not found" page, with status 404: a link back to the lobby."""
    return page("missing", 404)


@router.get("/", include_in_schema=False)
async def lobby_page() -> HTMLResponse:
    return page("lobby")


@router.get("/game/{game_id}", include_in_schema=False)
async def game_page(hub: HubDep, game_id: str) -> HTMLResponse:
    try:
        await hub.get(game_id)
    except ActionError as error:
        if error.status == 404:
            return not_found()
        raise
    return page("game")


@router.get("/review", include_in_schema=False)
async def review_page() -> HTMLResponse:
    return page("review")


@router.get("/account", include_in_schema=False)
async def account_page() -> HTMLResponse:
    return page("account")


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(accounts: AccountsDep, name: str) -> HTMLResponse:
    if await accounts.find(name) is None:
        return not_found()
    return page("profile")


@router.get("/games", include_in_schema=False)
async def finished_page() -> HTMLResponse:
    return page("finished")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> HTMLResponse:
    return page("leaderboard")


@router.get("/moderation", include_in_schema=False)
async def moderation_page() -> HTMLResponse:
    """Reports and blocks; the moderators' reports, log and actions."""
    return page("moderation")


@router.get(
    "/i18n/{language}.json",
    response_class=JSONResponse,
    responses={200: {"model": PageCatalogue}, 404: {"description": "No such language."}},
)
async def catalogue(language: str) -> Response:
    """The catalogue of a shipped language for the pages' scripts (see :func:`.i18n.catalogue`;
    404 for a language not shipped)."""
    if language not in i18n.LANGUAGES:
        return Response(status_code=404)
    return Response(
        json.dumps(i18n.catalogue(language), ensure_ascii=False),
        media_type="application/json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/language", response_class=RedirectResponse, include_in_schema=False)
async def choose_language(lang: str, back: str = "/") -> Response:
    """The header's switcher: remember ``lang`` (a shipped language) in the ``lang`` cookie and
    go back to the page ``back`` (a path of this site; else the lobby).  An unknown language is
    refused with a sentence and changes nothing."""
    if lang not in i18n.LANGUAGES:
        raise ActionError(400, _("Unknown language %(lang)s.", lang=repr(lang)[:40]))
    path = back if back.startswith("/") and not back.startswith("//") else "/"
    answer = RedirectResponse(path, status_code=303)
    answer.set_cookie(i18n.COOKIE, lang, max_age=LANGUAGE_SECONDS, samesite="lax")
    return answer


@cache
def service_worker() -> str:
    """The service worker's text: ``VERSION`` (a digest of every static file and template, so
    any change to them makes browsers fetch a fresh copy of everything) and ``ASSETS`` (the
    static files' URLs, the worker itself left out) put before ``static/sw.js``."""
    files = sorted(p for p in STATIC.rglob("*") if p.is_file() and p.name != "sw.js")
    digest = hashlib.sha256()
    for path in [*files, *sorted(TEMPLATES.glob("*.html"))]:  # each by its path: a move changes it
        name = path.relative_to(STATIC.parent).as_posix()  # "static/lib/board.js"
        digest.update(name.encode() + b"\0" + path.read_bytes())
    assets = [f"/static/{p.relative_to(STATIC).as_posix()}" for p in files]
    source = (STATIC / "sw.js").read_text()
    return (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const ASSETS = {json.dumps(assets)};\n{source}"
    )


@router.get("/sw.js", response_class=Response, include_in_schema=False)
async def service_worker_script() -> Response:
    return Response(
        service_worker(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest", response_class=Response, include_in_schema=False)
async def manifest() -> Response:
    return Response(
        (STATIC / "manifest.webmanifest").read_bytes(), media_type="application/manifest+json"
    )

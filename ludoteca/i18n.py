"""Translations: every text a person reads goes through this catalogue (gettext, with Babel).

API
---
Python (server, games, anything that speaks to people)::

    from ludoteca.i18n import N_, Text, _, ngettext, use

    _("White wins: %(why)s.", why=reason)      # translated now, into the current language
    ngettext("%(num)s man", "%(num)s men", n)   # the plural form for n; %(num)s is n
    N_("choose a piece to move")                # marked for extraction, returned unchanged:
    _(text)                                     #   translate it where it is shown
    Text("%(point)s is not empty", point="d6")  # lazy: translated whenever str() is taken
    with use("fr"): ...                         # the current language within the block

Placeholders are named, ``%(name)s`` (gettext's python-format), in Python, templates and JS
alike; a text with no parameters is never %-formatted.  Parameters that are :class:`Text`
are translated too.  The current language is a context variable (:func:`current`): for a
request or websocket the server sets it from :func:`negotiate` (the ``lang`` cookie set by
the header's switcher, else ``Accept-Language``, else English); elsewhere it is English
unless :func:`use` says otherwise.  Code that works for several listeners at once (a
broadcast) translates inside ``use(listener_language)``.  Errors and other texts that are
made in one place and shown in another carry a :class:`Text` (msgid + parameters), so the
library stays usable without a server: ``str(error)`` reads English unless a language is
in use.

Templates (Jinja2's i18n extension, new style)::

    {{ _("Start the game") }}   {{ _("Hello %(name)s", name=user) }}
    {{ ngettext("%(num)s game", "%(num)s games", count) }}

JavaScript (``/static/lib/i18n.js``, imported by every module)::

    import { t, tn } from "/static/lib/i18n.js";
    t("Your move (%(colour)s)", { colour });  tn("%(num)s game", "%(num)s games", n);

The catalogues are ``ludoteca/locale/<lang>/LC_MESSAGES/messages.po`` (the translators'
files) compiled to ``messages.mo`` beside them; the ``.mo`` files are committed, so an
installed package is translated with no build step (``tests/server/test_i18n.py`` checks they match
the ``.po`` files).  ``scripts/translations extract|update|compile`` keeps them in step with
the code; ``docs/translations.md`` says how to add a language.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from babel.numbers import format_decimal, format_percent

__all__ = [
    "COOKIE",
    "LANGUAGES",
    "LOCALE",
    "N_",
    "RTL",
    "SOURCE",
    "Languages",
    "Text",
    "_",
    "asked_for",
    "catalogue",
    "current",
    "direction",
    "language_of",
    "negotiate",
    "ngettext",
    "percent",
    "translations",
    "use",
]

#: the directory of the compiled catalogues, one ``<lang>/LC_MESSAGES/messages.mo`` each
LOCALE = Path(__file__).resolve().parent / "locale"
#: the language the texts are written in (the msgids)
SOURCE = "en"
#: the shipped languages, each with its name as its speakers write it (the switcher's list)
LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "it": "Italiano",
    "pt": "Português",
    "nl": "Nederlands",
    "pl": "Polski",
    "hu": "Magyar",
    "ru": "Русский",
    "tr": "Türkçe",
    "ar": "العربية",
    "fa": "فارسی",
    "zh": "中文（简体）",  # noqa: RUF001 -- Chinese parentheses are full-width
    "ja": "日本語",
}
#: the languages written right to left
RTL = frozenset({"ar", "fa"})
#: the cookie that remembers the language chosen with the switcher
COOKIE = "lang"
#: CLDR plural categories in gettext's order (Babel numbers a language's forms this way)
PLURAL_TAGS = ("zero", "one", "two", "few", "many", "other")

#: the header that tells caches an answer depends on the language
VARY = (b"vary", b"Cookie, Accept-Language")

_language: ContextVar[str] = ContextVar("language", default=SOURCE)


def current() -> str:
    """The language texts are translated into here and now (a code of :data:`LANGUAGES`)."""
    return _language.get()


@contextmanager
def use(language: str) -> Iterator[None]:
    """Translate into ``language`` within the block (an unknown code means English)."""
    token = _language.set(language if language in LANGUAGES else SOURCE)
    try:
        yield
    finally:
        _language.reset(token)


def signed(value: float) -> str:
    """``value`` with its sign and one decimal as the current language writes it ("+2.1",
    French "+2,1"), in Latin digits: the scripts write their numbers so too (report.js)."""
    return format_decimal(value, format="+0.0;-0.0", locale=current(), numbering_system="latn")


def percent(whole: int) -> str:
    """A whole percentage as the current language writes it ("85%", French "85 %", Turkish
    "%85"), in Latin digits, as the scripts write theirs (levels.js)."""
    return format_percent(whole / 100, locale=current(), numbering_system="latn")


def direction(language: str | None = None) -> str:
    """``"rtl"`` or ``"ltr"``: how ``language`` (default: the current one) is written."""
    return "rtl" if (language or current()) in RTL else "ltr"


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (the source language, or one with no
    catalogue, translates nothing)."""
    if language == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation("messages", LOCALE, [language], fallback=True)


def _fill(text: str, params: Mapping[str, object]) -> str:
    if not params:
        return text
    return text % {k: str(v) if isinstance(v, Text) else v for k, v in params.items()}


def _(msgid: str, **params: object) -> str:
    """``msgid`` in the current language, its ``%(name)s`` placeholders filled from
    ``params``."""
    return _fill(translations(current()).gettext(msgid), params)


def ngettext(singular: str, plural: str, num: int, **params: object) -> str:
    """The form for ``num`` of a text with plurals, in the current language; ``%(num)s``
    is ``num``, the other placeholders come from ``params``."""
    return _fill(translations(current()).ngettext(singular, plural, num), {"num": num, **params})


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue without translating it (it is translated where it is
    shown, with ``_(text)``)."""
    return msgid


class Text:
    """A text to translate later: a msgid and its parameters.  ``str(text)`` is the text in the
    language current at that moment; equal when msgid and parameters are.  Errors carry one
    (``IllegalMoveError(Text("%(point)s is taken", point=p))``) so that whoever shows them
    shows them in the reader's language."""

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, /, **params: object) -> None:
        self.msgid = msgid
        self.params = params

    def __str__(self) -> str:
        return _(self.msgid, **self.params)

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (other.msgid, other.params) == (self.msgid, self.params)

    def __hash__(self) -> int:
        return hash(self.msgid)


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request: the ``lang`` cookie's if shipped, else the first shipped
    language of ``Accept-Language`` by preference (``q``; a region such as ``fr-CH`` counts as
    its language), else English."""
    if cookie is not None and cookie in LANGUAGES:
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            quality = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        if quality > 0:
            ranked.append((-quality, index, match.group(1).lower()))
    for _q, _i, language in sorted(ranked):
        if language in LANGUAGES:
            return language
    return SOURCE


def _cookie(header: str) -> str | None:
    for part in header.split(";"):
        name, _sep, value = part.strip().partition("=")
        if name == COOKIE:
            return value.strip()
    return None


def language_of(headers: Mapping[str, str]) -> str:
    """The language of a request with these (lower-case) headers (see :func:`negotiate`)."""
    return negotiate(_cookie(headers.get("cookie", "")), headers.get("accept-language"))


def asked_for(query: bytes) -> str | None:
    """The shipped language a websocket's address asks for (``?lang=fr``), if any: a page opens
    its websockets in the language it was served in, since a browser's websocket opening does
    not always carry it (Chromium sends its own ``Accept-Language`` there)."""
    asked = parse_qs(query.decode("latin-1")).get("lang", [""])[-1]
    return asked if asked in LANGUAGES else None


class Languages:
    """ASGI middleware: each HTTP request and websocket runs with its language current (see
    :func:`language_of`; a websocket's address may ask for one, :func:`asked_for`), and every
    HTTP answer says ``Vary: Cookie, Accept-Language``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        language = language_of(headers)
        if scope["type"] == "websocket":  # a page asks for its own language (see asked_for)
            language = asked_for(scope.get("query_string", b"")) or language

        async def vary(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), VARY]
            await send(message)

        with use(language):
            await self.app(scope, receive, vary if scope["type"] == "http" else send)


@cache
def catalogue(language: str) -> dict[str, Any]:
    """The catalogue of ``language`` for the pages' scripts (``/i18n/<lang>.json``):
    ``lang``, ``dir``, ``messages`` (msgid: translation), ``plurals`` (singular msgid: its
    forms) and ``tags`` (the CLDR plural category of each form, in order, for
    ``Intl.PluralRules``)."""
    from babel import Locale

    found = translations(language)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    table: dict[Any, str] = getattr(found, "_catalog", {})
    for key, value in table.items():
        if isinstance(key, tuple):
            plurals.setdefault(key[0], []).append(value)
        elif key and value:
            messages[key] = value
    rule = Locale.parse(language).plural_form
    tags = [tag for tag in PLURAL_TAGS[:-1] if tag in rule.tags] + ["other"]
    return {
        "lang": language,
        "dir": direction(language),
        "messages": messages,
        "plurals": plurals,
        "tags": tags,
    }

"""Every page in each shipped language that tests/test_browser_i18n.py's audit does not walk
at 1366x768 (every language but English and Arabic), read in a short walk, a page a
load: in the browser's language (:func:`~tests.test_browser_i18n.read`: no English left, every
text the catalogue's, mirrored where the language is written right to left), passing the
accessibility audit (axe-core: no serious or critical violation, in the light scheme) and with
no error; pictured when pictures are asked for (``shot``: light, 1366x768 and 390x844).  A file
of its own, with its own server and accounts, so that a run's other process can
take it while the first walks the audit (the two are minutes of one process each)."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.i18n import LANGUAGES

from .support.browser import serious_violations, shooting, shot
from .test_browser_i18n import (
    AUDITS,
    World,
    context_in,
    fail_if_untranslated,
    read,
    server,
    walk,
    world,
)

__all__ = ["server", "world"]  # (this module's fixtures: its own server and accounts)

#: the languages whose every page :func:`test_every_page_is_in_the_browsers_language` reads:
#: those the audit's walk does not read as it goes
UNAUDITED = [language for language in LANGUAGES if (language, 1366, 768) not in AUDITS]


@pytest.mark.parametrize("language", UNAUDITED)
def test_every_page_is_in_the_browsers_language(
    browser: Any, server: str, world: World, language: str
) -> None:
    """The browser asks for ``language`` (Accept-Language from its locale): every page, each
    opened once and read once its script says it is ready, is in it and, if ``language`` is
    written right to left, mirrored but not its board nor its notation (:func:`read`), with
    no error, and every page passes the accessibility audit (axe-core, light scheme: no serious
    or critical violation).
    The walk is :func:`walk`'s short one, each page loaded once, read and audited: 10-13 s a
    language on the quiet 2-core machine, the audit about 4.5 s of it (the thirteen: about
    150 s of one process; a full walk, replaying the games and waiting for a report, took 30 s
    a language); a page's later states (a game over with its report, a refused record) are
    read in English and Arabic by the audit's full walk, which sees
    any text there the catalogue does not have (what is not marked for the catalogue is not,
    whatever the language); whether each of the catalogue's texts is translated is
    tests/test_i18n.py's, for every language."""
    context = context_in(browser, language)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        left: dict[str, set[str]] = {}
        for name in walk(page, server, world, full=False):
            if found := read(page, language, name):
                left[name] = found
            assert serious_violations(page) == [], name
            shot(page, f"{name}-{language}-1366x768-light")
        fail_if_untranslated(left)
        assert not errors, errors
    finally:
        context.close()
    if shooting():  # and each page on a phone, pictured
        phone = context_in(browser, language, 390, 844)
        try:
            for name in walk(phone.new_page(), server, world, full=False):
                shot(phone.pages[0], f"{name}-{language}-390x844-light")
        finally:
            phone.close()

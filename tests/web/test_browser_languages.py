"""The pages in each shipped language that tests/web/test_browser_i18n.py's audit does not walk at
1366x768 (every language but English and Arabic), each language reading its share of the
pages, :data:`READERS` languages a page, a page a load: in the browser's language
(:func:`~tests.web.test_browser_i18n.read`: no English left, every text the catalogue's,
mirrored where the language is written right to left) and with no error; pictured when
pictures are asked for (``shot``: every page, light, 1366x768 and 390x844).

Why a share, not every page in every language: what a page shows in one language it shows in
every other through the same templates, scripts and catalogue.  A text the catalogue does not
have shows in English whatever the language, and the audit's full walk reads every page in
English and Arabic in each of its states; whether each of the catalogue's texts is translated,
in every form its plurals take, is tests/server/test_i18n.py's, for every language.  What only a
page in a given language can show (its catalogue loaded by the browser, its words, its script, its
direction and its dates in the page) is read here in every language, on pages that differ from
one language to the next, and every page by :data:`READERS` of them.  The accessibility audit
(axe-core) is the full walk's: it judges structure, names and colours, the same templates and
CSS in every language (a translation left empty, which it would see, is
tests/server/test_i18n.py's). Reading every page in all thirteen took some 280 s of one test process
in a full run.

A file of its own, with its own server and accounts, so that a run's other process can take it
while the first walks the audit."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.i18n import LANGUAGES, RTL

from ..support.browser import shooting, shot
from .test_browser_i18n import (
    AUDITS,
    World,
    context_in,
    fail_if_untranslated,
    read,
    server,
    site,
    walk,
    world,
)

__all__ = ["server", "world"]  # (this module's fixtures: its own server and accounts)

#: the languages :func:`test_each_language_reads_its_share_of_the_pages` reads: those the
#: audit's walk does not read as it goes
UNAUDITED = [language for language in LANGUAGES if (language, 1366, 768) not in AUDITS]

#: how many of :data:`UNAUDITED` read each page
READERS = 3


def share(language: str, pages: list[str]) -> list[str]:
    """The pages of ``pages`` (in order) that ``language`` reads: page ``j`` is read by the
    :data:`READERS` languages of :data:`UNAUDITED` from index ``j * READERS`` on, round the
    list, so that the languages take the pages in turn."""
    me = UNAUDITED.index(language)
    count = len(UNAUDITED)
    return [
        page
        for j, page in enumerate(pages)
        if me in {(j * READERS + r) % count for r in range(READERS)}
    ]


def test_every_page_has_its_readers_and_every_language_its_pages() -> None:
    """Counted another way: each page of the site is read by exactly :data:`READERS` distinct
    languages, each language reads between ``floor`` and ``ceil`` of the even split, and a
    language written right to left reads some of them."""
    pages = [f"page {j}" for j in range(23)]  # (the site's count today; the rule holds for any)
    readers = {page: [lang for lang in UNAUDITED if page in share(lang, pages)] for page in pages}
    assert all(len(set(langs)) == READERS for langs in readers.values()), readers
    even = len(pages) * READERS / len(UNAUDITED)
    counts = [len(share(lang, pages)) for lang in UNAUDITED]
    assert all(int(even) <= n <= int(even) + 1 for n in counts), counts
    assert any(share(lang, pages) for lang in UNAUDITED if lang in RTL)


@pytest.mark.parametrize("language", UNAUDITED)
def test_each_language_reads_its_share_of_the_pages(
    browser: Any, server: str, world: World, language: str
) -> None:
    """The browser asks for ``language`` (Accept-Language from its locale): each page of its
    :func:`share`, opened once and read once its script says it is ready, is in it and, if
    ``language`` is written right to left, mirrored but not its board nor its notation
    (:func:`read`), with no error.  When pictures are asked for, every page is pictured in
    it (light, 1366x768 and 390x844)."""
    pages = share(language, list(site(world)))
    assert pages
    context = context_in(browser, language)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        left: dict[str, set[str]] = {}
        for name in walk(page, server, world, full=False, only=None if shooting() else pages):
            mine = name in pages or (name == "review (empty)" and "review" in pages)
            if mine and (found := read(page, language, name)):
                left[name] = found
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

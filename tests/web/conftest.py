"""The browser tests' fixtures (``tests/support/browser.py``: a live server per module, on each
of the module's ``DATABASES``; Playwright's Chromium; a page; two people) and the web app's
(``tests/server/conftest.py``)."""

from __future__ import annotations

from ..server.conftest import client, database_url
from ..support.browser import browser, browser_database, page, people, playwright, server

__all__ = ["browser", "browser_database", "client", "database_url", "page", "people"]
__all__ += ["playwright", "server"]

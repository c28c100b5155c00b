"""The web app's fixtures: a fresh database (SQLite, or a database of the session's PostgreSQL)
and the app started on it; the browser's fixtures (``tests/support/browser.py``) for the server
tests that watch a page too.  The other packages that need the app (``study/``, ``web/``) import
these from here."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app

from ..support.browser import browser, browser_database, page, people, playwright, server
from ..support.postgres import database

__all__ = ["browser", "browser_database", "client", "database_url", "page", "people"]
__all__ += ["playwright", "server"]


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or a database of the session's PostgreSQL cluster (a
    test module that needs only one overrides this fixture)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    return database(request.getfixturevalue("postgres_port"), f"t{secrets.token_hex(6)}")


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The app on :func:`database_url` (its address in ``app.state.url``), started."""
    app = create_app(Settings(db=database_url, workers=1, warm=False))
    app.state.url = database_url
    with TestClient(app) as test_client:
        yield test_client

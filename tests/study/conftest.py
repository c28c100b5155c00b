"""The web app's fixtures (``tests/server/conftest.py``), for the records' import and export
through the app."""

from __future__ import annotations

from ..server.conftest import client, database_url

__all__ = ["client", "database_url"]

"""The web app (``ludoteca serve``): lobby, game pages, JSON API and websockets.

Needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic); the rules engines do not.
"""

from .app import create_app, serve
from .settings import Settings

__all__ = ["Settings", "create_app", "serve"]

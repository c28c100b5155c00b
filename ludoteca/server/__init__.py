"""The web app (``ludoteca serve``): lobby, game pages, JSON API and websockets.

``create_app``, ``serve`` and ``Settings`` are read from their modules on first use, so that a
worker process, which imports only the computer's work (:mod:`.computer.workers`), does not load
the web framework and the database layer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, serve
    from .settings import Settings

__all__ = ["Settings", "create_app", "serve"]

_HOMES = {"create_app": ".app", "serve": ".app", "Settings": ".settings"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __name__), name)

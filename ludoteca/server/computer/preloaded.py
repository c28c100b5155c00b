"""Imported once, by the fork server that the worker processes are forked from
(:mod:`.pool`): it loads the compiled search of every game (compiling it first on a fresh
machine), so that every worker process starts with it loaded.  A module whose import has that
effect, by design; nothing else imports it.  A failure is logged and leaves each worker to
load the search itself, as a spawned one does."""

from __future__ import annotations

import logging

from ...compiled import warm
from ..play.catalogue import default_positions

try:
    for _state in default_positions():
        warm(_state.game)
except Exception:  # (the fork server must start whatever happens here)
    logging.getLogger("ludoteca.server").exception("the fork server could not load the search")

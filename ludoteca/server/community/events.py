"""Per-account event streams: what the challenges and the bots' games tell an account while it
listens (the Bot API's event stream, see ``docs/web.md``).  A listener holds a bounded queue of
JSON-ready events; an event for an account nobody listens for is dropped (the lobby polls the
same facts), and a listener that falls :data:`BACKLOG` events behind loses the newest."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["BACKLOG", "Events"]

log = logging.getLogger("ludoteca.server")

#: events a listener may have waiting
BACKLOG = 100


class Events:
    """The listeners of each account, and what is told to them (never waits, never raises)."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}

    @contextmanager
    def listen(self, user: int) -> Iterator[asyncio.Queue[dict[str, Any]]]:
        """A queue receiving the events told to ``user`` while the block runs."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(BACKLOG)
        self.listeners.setdefault(user, set()).add(queue)
        try:
            yield queue
        finally:
            mine = self.listeners.get(user, set())
            mine.discard(queue)
            if not mine:
                self.listeners.pop(user, None)

    def listening(self, user: int) -> bool:
        """Whether ``user`` has a listener now."""
        return bool(self.listeners.get(user))

    def tell(self, user: int, event: dict[str, Any]) -> None:
        """Queue ``event`` for each of ``user``'s listeners."""
        for queue in self.listeners.get(user, ()):
            try:
                queue.put_nowait(event)
            except asyncio.QueueFull:
                log.warning("events of account %s dropped: its listener is behind", user)

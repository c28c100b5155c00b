"""Spectators' messages, written after the players' work: the players' moves come first.

A move's update goes to its game's players at once, in the turn of the event loop that played
it; to the game's spectators it goes through an :class:`Outbox`, which writes at most
:data:`SLICE` seconds of them a turn of the loop and then yields, so a player whose move is
waiting in the same turn waits for one slice, not for every spectator of every game that
moved before.  When spectators' messages come faster than the slices write them (a burst of
moves, or of arrivals taking the loop's time), they wait here; past :data:`LIMIT` waiting, those
waiting are dropped and each of their spectators is sent the whole view instead, once (as a
connection that falls behind is, see :class:`.live.Watcher`).

A connection's messages keep their order: while one of them waits here, every later one for it
waits here too (``Watcher.push`` sees ``Watcher.deferred``), a chat line or a player's update
alike.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from .live import Watcher

__all__ = ["LIMIT", "SLICE", "Outbox"]

#: the longest the outbox writes in one turn of the event loop (seconds)
SLICE = 0.002
#: the most messages that may wait (ten seconds of ten thousand spectators' updates)
LIMIT = 100_000
#: messages written between looks at the clock
_STRIDE = 8

log = logging.getLogger("ludoteca.server")


class Outbox:
    """Messages for spectators, written a slice of time per turn of the event loop."""

    def __init__(self, slice_seconds: float = SLICE, limit: int = LIMIT) -> None:
        self.slice = slice_seconds
        self.limit = limit
        #: (a connection, its message; or None: it fell behind, the whole view goes next)
        self.waiting: deque[tuple[Watcher, str | None]] = deque()
        self._due = False

    def post(self, watcher: Watcher, text: str) -> None:
        """Send ``text`` to ``watcher`` after the work already due this turn (never waits)."""
        if len(self.waiting) >= self.limit:
            self._drop()
        self._add(watcher, text)

    def _add(self, watcher: Watcher, text: str | None) -> None:
        watcher.deferred += 1
        watcher.outbox = self
        self.waiting.append((watcher, text))
        if not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self._write)

    def _write(self) -> None:
        waiting = self.waiting
        end = time.perf_counter() + self.slice
        while waiting:
            for _ in range(min(_STRIDE, len(waiting))):
                watcher, text = waiting.popleft()
                watcher.deferred -= 1
                if text is None:
                    watcher.fall_behind()
                else:
                    watcher.write(text)
            if time.perf_counter() >= end:
                break
        if waiting:
            asyncio.get_running_loop().call_soon(self._write)
        else:
            self._due = False

    def _drop(self) -> None:
        """Forget every waiting message; their connections are sent the whole view instead,
        in their turn (it is made when sent, so no message posted later can overtake it)."""
        behind = dict.fromkeys(watcher for watcher, _text in self.waiting)
        log.warning(
            "%d messages to spectators dropped (over %d waiting): %d get the whole view",
            len(self.waiting),
            self.limit,
            len(behind),
        )
        self.waiting.clear()
        for watcher in behind:
            watcher.deferred = 0
            self._add(watcher, None)

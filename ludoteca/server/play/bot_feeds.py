"""The Bot API's game streams (see ``docs/web.md``): a game as a bot reads it (``gameFull``,
then a ``gameState`` at each change), fed to each open stream's queue by the hub's listeners,
and ``gameFinish`` told on the players' event streams when a game ends."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...core import Color
from ..community.events import Events
from ..schemas import Status
from .hub import Hub
from .live import LiveGame
from .seats import COLOURS, seat

__all__ = ["GameFeeds", "game_full", "game_state"]

log = logging.getLogger("ludoteca.server")

#: changes a game stream may have waiting (beyond, the stream ends: the bot reconnects)
BACKLOG = 64


def game_state(live: LiveGame, now: int) -> dict[str, Any]:
    """The game as it stands: its moves (in the engine's notation, space-separated), each side's
    milliseconds left (None: no live clock), status ("waiting", "live", "over"), result,
    how it ended, the side with a draw offer pending."""
    row = live.row
    timed = row.white_ms is not None
    return {
        "type": "gameState",
        "moves": " ".join(str(move) for move in live.state.moves),
        "wtime": live.time_left(Color.WHITE, now) if timed else None,
        "btime": live.time_left(Color.BLACK, now) if timed else None,
        "status": row.status,
        "result": row.result,
        "termination": row.termination,
        "draw_offer": row.draw_offer,
    }


def game_full(live: LiveGame, now: int) -> dict[str, Any]:
    """The whole game for a stream's first line: its id, game and rule set, the start
    (``setup``, or a position ``code``), the clock, whether rated, the players (account name;
    ``bot``: whether the seat is the computer's or a bot's) and its state."""
    row = live.row
    return {
        "type": "gameFull",
        "id": row.id,
        "game": row.game,
        "rules": row.rules,
        "setup": row.setup,
        "code": row.position,
        "clock": row.clock,
        "rated": row.rated,
        **{
            name: {"name": seat(name).display_of(row), "user": seat(name).user_of(row)}
            for name in COLOURS
        },
        "state": game_state(live, now),
    }


class GameFeeds:
    """The open game streams of ``hub``'s games; ``events``: where ``gameFinish`` is told."""

    def __init__(self, hub: Hub, events: Events) -> None:
        self.hub = hub
        self.events = events
        self.feeds: dict[str, set[asyncio.Queue[dict[str, Any] | None]]] = {}
        #: the games whose end was told lately (a game over still changes: rematch offers)
        self.finished: deque[str] = deque(maxlen=1000)
        hub.listeners.append(self.changed)

    @contextmanager
    def follow(self, game_id: str) -> Iterator[asyncio.Queue[dict[str, Any] | None]]:
        """A queue receiving the game's states while the block runs (``None``: it fell
        :data:`BACKLOG` behind, and the stream is to end)."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(BACKLOG + 1)
        self.feeds.setdefault(game_id, set()).add(queue)
        try:
            yield queue
        finally:
            mine = self.feeds.get(game_id, set())
            mine.discard(queue)
            if not mine:
                self.feeds.pop(game_id, None)

    def changed(self, live: LiveGame) -> None:
        """The hub's listener: each stream of the game is sent its state; a game that ended
        is told (``gameFinish``) to its players' event streams, once."""
        row = live.row
        queues = self.feeds.get(row.id, ())
        if queues:
            state = game_state(live, self.hub.now())
            for queue in queues:
                if queue.qsize() < BACKLOG:
                    queue.put_nowait(state)
                elif not queue.full():
                    queue.put_nowait(None)
        if row.status == Status.OVER and row.id not in self.finished:
            self.finished.append(row.id)
            for name in COLOURS:
                user = seat(name).user_of(row)
                if user is not None:
                    self.events.tell(user, {"type": "gameFinish", "game": {"id": row.id}})

"""This process among the others sharing the database: which games' duties it holds (leases),
the news it sends (a committed change, a chat line) and reads (a game changed elsewhere is read
back), and adopting the games whose process died.  Without Redis the process is alone: it holds
every game and tells no one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from .. import logs
from ..play.catalogue import replay
from ..play.live import LiveGame
from ..play.tasks import Tasks
from ..schemas import ChatMessage
from ..store import GameRow, Store
from .fanout import Fanout
from .presence import Presence

__all__ = ["Cluster"]

log = logging.getLogger("ludoteca.server")

#: the columns of a game's row that a copy in memory keeps as stored (its ply is its moves',
#: its times are the store's own)
_KEPT = tuple(
    column.key
    for column in GameRow.__table__.columns
    if column.key not in {"ply", "created", "updated"}
)


def _matches(live: LiveGame, row: GameRow, last: str | None) -> bool:
    """Whether a copy in memory stands as the store's ``row`` and ``last`` move say."""
    stack = live.state.move_stack
    if row.ply != len(stack):
        return False
    if stack and str(live.state.move_of(stack[-1])) != last:
        return False
    return all(getattr(live.row, key) == getattr(row, key) for key in _KEPT)


class Host(Protocol):
    """What the cluster uses of the hub of live games."""

    store: Store
    games: dict[str, LiveGame]
    tasks: Tasks

    async def get(self, game_id: str) -> LiveGame: ...

    def evict(self, live: LiveGame) -> bool: ...

    def after_change(self, live: LiveGame) -> None: ...

    def broadcast(self, live: LiveGame, publish: bool = False) -> None: ...


class Cluster:
    """The leases and news of the process whose live games its host holds (:meth:`bind`, by the
    hub itself), through ``fanout`` (alone without)."""

    host: Host

    def __init__(self, fanout: Fanout | None) -> None:
        self.fanout = fanout
        #: who has which game open, across the processes (None: alone, see :mod:`.presence`)
        self.presence: Presence | None = fanout.presence if fanout is not None else None
        self._reading: dict[str, bool] = {}  # games being read from the store: news heard since

    def bind(self, host: Host) -> None:
        """Hold the live games of ``host`` from now on."""
        self.host = host

    async def start(self, said: Callable[[str, ChatMessage], None]) -> None:
        """Listen to the other processes (games they changed; ``said`` for their chat lines)."""
        if self.fanout is not None:
            await self.fanout.start(self.news, said)

    async def news(self, game_id: str) -> None:
        """Another process changed a game: read it back, if held here, and tell the watchers; a
        game held here only from before (no watchers, no duty of this process's) leaves memory
        instead, to be read when next asked."""
        host = self.host
        live = host.games.get(game_id)
        if live is None:
            if game_id in self._reading:
                self._reading[game_id] = True  # :meth:`read` reads it again
            return
        if not self.holds(game_id) and host.evict(live):
            return
        async with live.lock:
            found = await host.store.game(game_id)
            if found is None:
                return
            row, moves = found
            for column in GameRow.__table__.columns:
                setattr(live.row, column.key, getattr(row, column.key))
            if [str(live.state.move_of(code)) for code in live.state.move_stack] != moves:
                live.state = replay(row, moves)
            live.version += 1
        host.after_change(live)
        host.broadcast(live)

    async def catch_up(self, live: LiveGame) -> bool:
        """Whether this process's copy of a game was behind the store, then read back at once
        (as :meth:`news` does; a game nobody here needs leaves memory instead, to be loaded
        afresh).  A copy is behind when another process committed a change whose news has not
        arrived yet: a request right after a move acknowledged by another process (a proxy
        that does not send a game's requests to one process) would otherwise see the game
        without it.  The check costs one query of two rows (:meth:`.Store.head`): the ply, the
        last move and every field of the row must match.  Alone, nothing is checked: this
        process made every change."""
        if self.fanout is None:
            return False
        head = await self.host.store.head(live.row.id)
        if head is None or _matches(live, *head):
            return False
        await self.news(live.row.id)
        return True

    def holds(self, game_id: str) -> bool:
        """Whether this process does the game's duties (its clock, the computer's turn)."""
        return self.fanout is None or self.fanout.holds(game_id)

    async def lease(self, game_id: str) -> bool:
        """Take the game's lease if no live process holds it; whether this process holds it."""
        return self.fanout is None or await self.fanout.acquire(game_id)

    async def follow(self, game_id: str) -> None:
        """Hear of the game's changes elsewhere from now on (call before reading it from the
        store, to hold it in memory)."""
        if self.fanout is not None:
            await self.fanout.follow(game_id)

    async def read(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        """The game's row and moves from the store (None: no such game), once :meth:`follow`
        has been awaited: read again while news of a change came during the read, which may
        have begun before that change was committed.  (One read of a game at a time: the hub
        loads its games one by one.)"""
        self._reading[game_id] = False
        try:
            while True:
                found = await self.host.store.game(game_id)
                if not self._reading[game_id]:
                    return found
                self._reading[game_id] = False
        finally:
            del self._reading[game_id]

    def release(self, game_id: str) -> None:
        """Give the game's duties up (it ended, or left memory), if held: no longer held from
        now on, the lease freed in Redis soon after."""
        if self.fanout is not None and self.fanout.drop(game_id):
            self.host.tasks.spawn(self.fanout.release(game_id))

    def forget(self, game_id: str) -> None:
        """The game left memory: give its duties up and stop hearing of it (at once, should it
        be loaded again before Redis is told)."""
        self.release(game_id)
        if self.fanout is not None:
            self.fanout.unfollow(game_id)
            self.host.tasks.spawn(self.fanout.settle(game_id))

    def watching(self, game_id: str, seats: frozenset[str]) -> None:
        """A websocket of this process holding ``seats`` started watching the game: the
        others are told (in the background, see :mod:`.presence`; nothing when alone)."""
        if self.presence is not None and seats:
            self.presence.enter(game_id, seats)

    def unwatching(self, game_id: str, seats: frozenset[str]) -> None:
        """A websocket of this process holding ``seats`` stopped watching the game."""
        if self.presence is not None and seats:
            self.presence.leave(game_id, seats)

    def changed(self, game_id: str) -> None:
        """Tell the others a game changed (after the change is committed)."""
        if self.fanout is not None:
            self.host.tasks.spawn(self.fanout.changed(game_id))

    def said(self, game_id: str, message: ChatMessage) -> None:
        """Pass a chat line on to the others' watchers."""
        if self.fanout is not None:
            self.host.tasks.spawn(self.fanout.said(game_id, message))

    async def ping(self) -> None:
        """Raise unless Redis answers (nothing to check when alone)."""
        if self.fanout is not None:
            await self.fanout.ping()

    async def adopt(self, every: float = 2.0) -> None:
        """Every ``every`` seconds (with Redis): take the lease of every live game that needs a
        process (a clock, the computer to move) and has none, and do its duties (loaded, or
        read back); so a dead process's games carry on.  A game whose duties this process
        holds and whose copy here is at another ply than the store's is read back too: the
        news of a move is sent after its commit, and a process killed in between (or a news
        lost on its way) would otherwise leave the game's clock and the computer's turn to a
        copy that never hears of that move."""
        host = self.host
        while True:
            await asyncio.sleep(every)
            try:
                attended = await host.store.attended()
            except Exception as error:  # the database is away: try again
                log.warning("adopting games failed (%s); trying again", error)
                continue
            for game_id, ply in attended.items():
                try:  # one game that fails to load leaves the others their turn
                    if self.holds(game_id):
                        live = host.games.get(game_id)
                        if live is not None and len(live.state.move_stack) != ply:
                            log.info(
                                "game %s: read back (this process's copy was not at the "
                                "store's ply %d)",
                                game_id,
                                ply,
                                extra=logs.game(game_id),
                            )
                            await self.news(game_id)
                    elif await self.lease(game_id):
                        log.info(
                            "game %s: its duties taken over (no process held them)",
                            game_id,
                            extra=logs.game(game_id),
                        )
                        if game_id in host.games:
                            await self.news(game_id)
                        else:
                            await host.get(game_id)  # loading it does its duties
                except Exception as error:  # the database or Redis is away: try again
                    self.release(game_id)  # (held without its duties done, no one would)
                    log.warning(
                        "adopting game %s failed (%s); trying again",
                        game_id,
                        error,
                        extra=logs.game(game_id),
                    )

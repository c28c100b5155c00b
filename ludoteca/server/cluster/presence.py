"""Who has a game open, across the processes of a cluster: presence in Redis.

A player "has a game open" while a websocket of theirs watches it, holding their seat.  Each
process counts its own such websockets per game and seat (:meth:`Presence.enter`,
:meth:`Presence.leave`, called by the hub, never waiting); while the count of a game's seat is
above zero, the process's id is a member of the Redis sorted set
``ludoteca:presence:GAME:SEAT``, its score the time (epoch ms) until which the process vouches
for it: now + :data:`TTL_MS`, renewed every :data:`REFRESH_SECONDS`.  When the process's last
such websocket closes its member is removed (at once, in the background); a process that dies
renews nothing, so its member no longer counts after :data:`TTL_MS`, and the key itself expires
that long after its last renewal.  One member per process, so a player watching through two
processes keeps the game open until both sockets close.

:meth:`Presence.present` asks Redis which of a game's seats some process has open (one round
trip, bounded by :data:`CHECK_SECONDS`); it raises when Redis fails, and the caller falls back
to what its own process knows (the notifier, see :mod:`..notify.notifier`).  The writes to Redis
are made by one task (:meth:`Presence.start`), in batches, each key written as the counts say
*when its turn comes*, so Redis ends as the last enter or leave asked whatever the order; a
Redis failure is logged and the write tried again a second later.  Processes compare times with
their own clocks: a skew of a few seconds only shortens or lengthens a dead process's presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import Any

__all__ = ["CHECK_SECONDS", "REFRESH_SECONDS", "TTL_MS", "Presence"]

log = logging.getLogger("ludoteca.server")

#: how long a process's word that a seat is open lasts unless renewed
TTL_MS = 45_000
#: how often a process renews its word for the seats open on it
REFRESH_SECONDS = 15.0
#: how long :meth:`Presence.present` waits for Redis
CHECK_SECONDS = 1.0
#: the pause after a failed write before it is tried again
RETRY_SECONDS = 1.0


def key(game_id: str, seat: str) -> str:
    """The Redis sorted set of the processes that have the game's seat open."""
    return f"ludoteca:presence:{game_id}:{seat}"


class Presence:
    """This process's websocket watchers of each game's seats, told to the others through
    ``redis`` (an asyncio client) under the process's id ``me``."""

    def __init__(self, redis: Any, me: str) -> None:
        self.redis = redis
        self.me = me
        #: per (game, seat): this process's open websockets holding it
        self.counts: dict[tuple[str, str], int] = {}
        self._dirty: set[tuple[str, str]] = set()  # to write to Redis as the counts say
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- this process's watchers (the hub's calls: never wait, never raise) -------------------
    def enter(self, game_id: str, seats: Iterable[str]) -> None:
        """A websocket holding ``seats`` started watching the game."""
        for seat in seats:
            held = (game_id, seat)
            self.counts[held] = self.counts.get(held, 0) + 1
            if self.counts[held] == 1:
                self._mark(held)

    def leave(self, game_id: str, seats: Iterable[str]) -> None:
        """A websocket holding ``seats`` stopped watching the game."""
        for seat in seats:
            held = (game_id, seat)
            left = self.counts.get(held, 0) - 1
            if left > 0:
                self.counts[held] = left
            else:
                self.counts.pop(held, None)
                self._mark(held)

    def here(self, game_id: str, seat: str) -> bool:
        """Whether a websocket of this process holds the game's seat."""
        return (game_id, seat) in self.counts

    def _mark(self, held: tuple[str, str]) -> None:
        self._dirty.add(held)
        self._wake.set()

    # --- the others' ----------------------------------------------------------------------------
    async def present(self, game_id: str, seats: Iterable[str]) -> set[str]:
        """Those of ``seats`` of the game that a websocket of any process holds (this one's
        included), as Redis says; raises if Redis fails or does not answer within
        :data:`CHECK_SECONDS`."""
        asked = list(seats)
        if not asked:
            return set()
        now = _now_ms()
        async with asyncio.timeout(CHECK_SECONDS):
            async with self.redis.pipeline(transaction=False) as pipe:
                for seat in asked:
                    pipe.zcount(key(game_id, seat), now, "+inf")
                counts = await pipe.execute()
        return {seat for seat, count in zip(asked, counts, strict=True) if count}

    # --- writing to Redis -----------------------------------------------------------------------
    def start(self) -> None:
        """Write the presence of this process's watchers to Redis from now on."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop writing, and take this process's presence out of Redis (at once, best effort:
        what is left runs out within :data:`TTL_MS`)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        held = set(self.counts)
        self.counts.clear()
        if held:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CHECK_SECONDS):
                    await self._write(held)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        renew_at = loop.time() + REFRESH_SECONDS
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, renew_at - loop.time())):
                    await self._wake.wait()
            self._wake.clear()
            todo, self._dirty = self._dirty, set()
            if loop.time() >= renew_at:
                todo |= set(self.counts)
                renew_at = loop.time() + REFRESH_SECONDS
            if not todo:
                continue
            try:
                await self._write(todo)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis is away: write again soon
                log.warning("telling Redis who has games open failed (%s); retrying", error)
                self._dirty |= todo
                await asyncio.sleep(RETRY_SECONDS)
                self._wake.set()

    async def _write(self, todo: set[tuple[str, str]]) -> None:
        """Make Redis say, for each game seat of ``todo``, what :attr:`counts` says now."""
        now = _now_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat in todo:
                name = key(game_id, seat)
                if (game_id, seat) in self.counts:
                    pipe.zadd(name, {self.me: now + TTL_MS})
                    pipe.zremrangebyscore(name, "-inf", now)  # (dead processes' members)
                    pipe.pexpire(name, TTL_MS)
                else:
                    pipe.zrem(name, self.me)
            await pipe.execute()


def _now_ms() -> int:
    return int(time.time() * 1000)

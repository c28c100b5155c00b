"""Several server processes: changes fanned out through Redis, and leases on each game's duties.

With ``ludoteca serve --redis URL`` every process publishes, after its commit, that a game
changed (and each chat line) on **the game's own channel**; a process subscribes to the channel
of each game it holds in memory (:meth:`Fanout.follow`, before it reads the game from the store,
so no change committed after that read goes unheard) and leaves it when the game leaves memory,
so a process hears only of the games it holds: adding processes adds capacity instead of
multiplying everyone's work.  A process holding the game reads it back from the store and sends
the update to its own watchers.  A game's duties (its clock's flag, the
computer's turn) belong to the process holding the game's **lease** (a Redis key with an expiry,
renewed while held): when that process dies the lease runs out and another takes the duties
over (see :meth:`.adoption.Cluster.adopt`).  Which seats of which games a websocket holds is
told to the others too (:attr:`Fanout.presence`, see :mod:`.presence`).  Without Redis there is
one process: it holds every lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from prometheus_client import CollectorRegistry, Counter

from ..schemas import ChatMessage
from .presence import Presence

__all__ = ["LEASE_MS", "Fanout", "channel"]

LEASE_MS = 10_000  # a lease lasts this long unless renewed
RENEW_SECONDS = 3.0
log = logging.getLogger("ludoteca.server")

#: renew a lease only if this process still holds it
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
#: give a lease up only if this process holds it
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def _lease(game_id: str) -> str:
    return f"ludoteca:lease:{game_id}"


def channel(game_id: str) -> str:
    """The Redis channel of a game's news."""
    return f"ludoteca:game:{game_id}"


#: how long :meth:`Fanout.follow` waits for Redis to confirm a subscription
CONFIRM_SECONDS = 2.0


class Fanout:
    """This process's link to the others: publish changes, hear theirs, hold leases."""

    def __init__(self, url: str, registry: CollectorRegistry | None = None) -> None:
        self.redis = aioredis.Redis.from_url(url)
        self.me = secrets.token_hex(8)  # this process, in messages and lease values
        self.held: set[str] = set()  # games whose lease this process holds
        self.followed: set[str] = set()  # games whose news this process wants (in memory)
        self._subscribed: set[str] = set()  # games whose channel Redis was asked to send
        self._subscribing = asyncio.Lock()  # (one change of the subscriptions at a time)
        self.heard = Counter(
            "ludoteca_fanout_heard",
            "News of other processes heard (games held here changed elsewhere, chat lines)",
            registry=registry or CollectorRegistry(),
        )
        self._pubsub: Any = None
        self._confirm: dict[str, asyncio.Future[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        #: the seats this process's websockets hold, told to the others
        self.presence = Presence(self.redis, self.me)

    async def start(
        self, changed: Callable[[str], Awaitable[None]], said: Callable[[str, ChatMessage], None]
    ) -> None:
        """Listen to the other processes: ``changed(game_id)`` when one changed a game,
        ``said(game_id, message)`` for a chat line; renew the held leases."""
        await self.redis.ping()
        pubsub = self._pubsub = self.redis.pubsub()
        await pubsub.subscribe(self._own())  # (a pubsub without a channel would not listen)
        self._tasks = [
            asyncio.create_task(self._listen(pubsub, changed, said)),
            asyncio.create_task(self._keep()),
        ]
        self.presence.start()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await self.presence.close()
        for game_id in list(self.held):
            await self.release(game_id)
        await self.redis.aclose()

    async def ping(self) -> None:
        await self.redis.ping()

    def _own(self) -> str:
        return f"ludoteca:process:{self.me}"

    async def follow(self, game_id: str) -> None:
        """Listen to the game's news from now on (confirmed by Redis before this returns, or
        after :data:`CONFIRM_SECONDS`, logged)."""
        if self._pubsub is None:
            return
        self.followed.add(game_id)
        await self.settle(game_id)
        confirmed = self._confirm.get(channel(game_id))
        if confirmed is not None:
            try:
                await asyncio.wait_for(asyncio.shield(confirmed), CONFIRM_SECONDS)
            except TimeoutError:
                log.warning("Redis did not confirm listening to game %s in time", game_id)

    def unfollow(self, game_id: str) -> None:
        """Stop wanting the game's news (it left memory) at once; :meth:`settle` tells Redis."""
        self.followed.discard(game_id)

    async def settle(self, game_id: str) -> None:
        """Subscribe to the game's channel, or leave it, as :attr:`followed` says *now*.  The
        changes are made one at a time, each reading the wish when its turn comes, so Redis
        ends as the last :meth:`follow` or :meth:`unfollow` asked, in whatever order the work
        runs (a game that leaves memory and is loaded again at once stays heard)."""
        if self._pubsub is None:
            return
        async with self._subscribing:
            name = channel(game_id)
            if game_id in self.followed and game_id not in self._subscribed:
                self._confirm.setdefault(name, asyncio.get_running_loop().create_future())
                await self._pubsub.subscribe(name)
                self._subscribed.add(game_id)
            elif game_id not in self.followed and game_id in self._subscribed:
                self._subscribed.discard(game_id)
                await self._pubsub.unsubscribe(name)

    async def changed(self, game_id: str) -> None:
        """Tell the others a game changed (after the change is committed)."""
        await self.redis.publish(channel(game_id), json.dumps({"from": self.me, "game": game_id}))

    async def said(self, game_id: str, message: ChatMessage) -> None:
        """Pass a chat line on to the others' watchers."""
        envelope = {"from": self.me, "game": game_id, "chat": message.model_dump(mode="json")}
        await self.redis.publish(channel(game_id), json.dumps(envelope))

    async def _listen(
        self,
        pubsub: Any,
        changed: Callable[[str], Awaitable[None]],
        said: Callable[[str, ChatMessage], None],
    ) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "subscribe":
                        confirmed = self._confirm.pop(message["channel"].decode(), None)
                        if confirmed is not None and not confirmed.done():
                            confirmed.set_result(None)
                        continue
                    if message.get("type") != "message":
                        continue
                    data = json.loads(message["data"])
                    if data.get("from") == self.me:
                        continue
                    self.heard.inc()
                    if "chat" in data:
                        said(data["game"], ChatMessage.model_validate(data["chat"]))
                    else:
                        await changed(data["game"])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: listen again once it is back
                log.warning("listening to the other processes failed (%s); retrying", error)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self._own(), *map(channel, self._subscribed))

    # --- leases ----------------------------------------------------------------------------------
    async def acquire(self, game_id: str) -> bool:
        """Take the game's lease if no live process holds it; whether this process holds it."""
        if game_id in self.held:
            return True
        if await self.redis.set(_lease(game_id), self.me, nx=True, px=LEASE_MS):
            self.held.add(game_id)
            return True
        return False

    def holds(self, game_id: str) -> bool:
        """Whether this process holds the game's lease."""
        return game_id in self.held

    def drop(self, game_id: str) -> bool:
        """Hold the game's lease no longer from now on (:meth:`release` frees it in Redis);
        whether it was held."""
        if game_id not in self.held:
            return False
        self.held.discard(game_id)
        return True

    async def release(self, game_id: str) -> None:
        """Free the game's lease in Redis if this process has it there (and hold it no
        longer)."""
        self.held.discard(game_id)
        with contextlib.suppress(Exception):
            await self._release(keys=[_lease(game_id)], args=[self.me])

    async def _keep(self) -> None:
        """Renew the held leases; forget those lost (this process was too slow)."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            for game_id in list(self.held):
                try:
                    kept = await self._renew(keys=[_lease(game_id)], args=[self.me, LEASE_MS])
                except Exception as error:
                    log.warning("renewing the lease of game %s failed (%s)", game_id, error)
                    continue
                if not kept:
                    self.held.discard(game_id)

"""Hearing of games changed by other processes (:class:`.Cluster`, :class:`.Fanout`), with a real
Redis where it takes one: a game that leaves memory and is loaded again before Redis is told
stays heard, a game left is no longer heard, and a change committed while a game is being read
from the store is read too."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from ludoteca.server.cluster.adoption import Cluster
from ludoteca.server.cluster.fanout import Fanout
from ludoteca.server.play.tasks import Tasks


class Host:
    """What the cluster uses of a hub: ``games`` in memory, background work, and a store whose
    :meth:`game` answers with ``versions`` in turn, each read paused until ``go`` is set."""

    def __init__(self, versions: list[str] | None = None) -> None:
        self.tasks = Tasks()  # the background work
        self.store = self
        self.games: dict[str, Any] = {}
        self.versions = list(versions or [])
        self.reads = 0
        self.reading = asyncio.Event()
        self.go = asyncio.Event()

    async def game(self, game_id: str) -> Any:
        self.reads += 1
        self.reading.set()
        await self.go.wait()
        self.go.clear()
        return self.versions.pop(0), []


def test_a_game_loaded_again_before_redis_hears_it_left_stays_heard(redis_url: str) -> None:
    """Leaving memory is told to Redis in the background; loading the game again at once (the
    next request came first) must not end up unsubscribed, and a game left for good must."""

    async def scenario() -> tuple[list[str], list[str]]:
        back, gone, marker = (f"g{secrets.token_hex(6)}" for _ in range(3))
        heard: list[str] = []
        got_marker = asyncio.Event()

        async def changed(game_id: str) -> None:
            heard.append(game_id)
            if game_id == marker:
                got_marker.set()

        host = Host()
        listener, teller = Fanout(redis_url), Fanout(redis_url)
        cluster = Cluster(listener)
        cluster.bind(host)  # type: ignore[arg-type]
        await listener.start(changed, lambda game_id, message: None)
        await teller.start(changed, lambda game_id, message: None)
        try:
            for game_id in (back, gone, marker):
                await cluster.follow(game_id)
            cluster.forget(back)  # left memory: Redis is told in the background ...
            await cluster.follow(back)  # ... but the game is loaded again first
            cluster.forget(gone)
            while host.tasks.running:  # every background change of subscriptions done
                await asyncio.gather(*host.tasks.running)
            for game_id in (back, gone, marker):  # (heard in the order published)
                await teller.changed(game_id)
            await asyncio.wait_for(got_marker.wait(), 10)
            return heard, [back, marker]
        finally:
            await listener.close()
            await teller.close()

    heard, expected = asyncio.run(scenario())
    assert heard == expected  # the game loaded again is heard; the one left is not


def test_a_change_heard_while_the_game_is_read_is_read_too() -> None:
    """News of a change that came while the game was being read (the read may have begun before
    the change was committed) makes the cluster read the game again; news of another game, or
    none, does not."""

    async def scenario() -> tuple[Any, int, Any, int]:
        host = Host(["before", "after", "only"])
        cluster = Cluster(None)
        cluster.bind(host)  # type: ignore[arg-type]
        reading = asyncio.get_running_loop().create_task(cluster.read("a"))
        await host.reading.wait()
        host.reading.clear()
        await cluster.news("other")  # not this game: nothing to read again
        await cluster.news("a")  # this one changed while it was read
        host.go.set()
        await host.reading.wait()  # so it is read again
        host.go.set()
        first, first_reads = await reading, host.reads
        host.go.set()  # a read without news: read once
        second = await cluster.read("b")
        return first, first_reads, second, host.reads - first_reads

    first, first_reads, second, second_reads = asyncio.run(scenario())
    assert (first, first_reads) == (("after", []), 2)
    assert (second, second_reads) == (("only", []), 1)

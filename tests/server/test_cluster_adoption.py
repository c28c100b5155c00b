"""Adopting the games of a dead process (:meth:`.Cluster.adopt`) with a real Redis: a game that
fails to load gives its lease back and is adopted at a later round, and it does not keep the
other games from theirs."""

from __future__ import annotations

import asyncio
from typing import Any

import redis

from ludoteca.server.cluster.adoption import Cluster
from ludoteca.server.cluster.fanout import Fanout
from ludoteca.server.play.tasks import Tasks


class Host:
    """What adoption uses of a hub: ``attended`` games, of which ``failing`` fail to load
    once; the games loaded, in order."""

    def __init__(self, attended: list[str], failing: set[str]) -> None:
        self.tasks = Tasks()  # the background work
        self.attended_ids = attended
        self.failing = set(failing)
        self.store = self
        self.games: dict[str, Any] = {}
        self.loaded: list[str] = []

    async def attended(self) -> list[str]:
        return list(self.attended_ids)

    async def get(self, game_id: str) -> Any:
        if game_id in self.failing:
            self.failing.discard(game_id)
            raise RuntimeError("the database timed out")
        self.loaded.append(game_id)
        self.games[game_id] = object()
        return self.games[game_id]


def test_a_game_that_fails_to_load_is_adopted_later_and_the_others_at_once(
    redis_url: str,
) -> None:
    url = redis_url.rsplit("/", 1)[0] + "/6"
    redis.Redis.from_url(url).flushdb()

    async def scenario() -> tuple[list[str], set[str], list[str]]:
        host = Host(["broken", "fine"], failing={"broken"})
        fanout = Fanout(url)
        cluster = Cluster(fanout)
        cluster.bind(host)  # type: ignore[arg-type]
        adopting = asyncio.get_running_loop().create_task(cluster.adopt(every=0.05))
        try:
            rounds: list[str] = []
            for _ in range(200):  # up to 10 s of rounds
                await asyncio.sleep(0.05)
                rounds = list(host.loaded)
                if rounds == ["fine", "broken"]:
                    break
            owners = [
                value and value.decode()
                for value in redis.Redis.from_url(url).mget(
                    ["ludoteca:lease:broken", "ludoteca:lease:fine"]
                )
            ]
            return rounds, set(fanout.held), [*owners, fanout.me]
        finally:
            adopting.cancel()
            await fanout.close()

    loaded, held, owners = asyncio.run(scenario())
    # the game that failed did not hold the round up; it was loaded at the next round, its
    # lease taken again (given back after the failure, or no process would have done its duties)
    assert loaded == ["fine", "broken"]
    assert held == {"broken", "fine"}
    assert owners[0] == owners[1] == owners[2]

"""Adopting the games of a dead process (:meth:`.Cluster.adopt`) with a real Redis: a game that
fails to load gives its lease back and is adopted at a later round, and it does not keep the
other games from theirs; a game whose duties the process holds is read back when its copy is
not at the store's ply (the news of a move lost with the process that made it)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import redis

from ludoteca.server.cluster.adoption import Cluster
from ludoteca.server.cluster.fanout import Fanout
from ludoteca.server.play.tasks import Tasks


class Host:
    """What adoption uses of a hub: ``attended`` games (at ply 0 in the store, or as
    ``plies`` says), of which ``failing`` fail to load once; the games loaded, in order, each
    a copy at ply 0."""

    def __init__(
        self, attended: list[str], failing: set[str], plies: dict[str, int] | None = None
    ) -> None:
        self.tasks = Tasks()  # the background work
        self.attended_ids = attended
        self.failing = set(failing)
        self.plies = plies or {}
        self.store = self
        self.games: dict[str, Any] = {}
        self.loaded: list[str] = []

    async def attended(self) -> dict[str, int]:
        return {game_id: self.plies.get(game_id, 0) for game_id in self.attended_ids}

    async def get(self, game_id: str) -> Any:
        if game_id in self.failing:
            self.failing.discard(game_id)
            raise RuntimeError("the database timed out")
        self.loaded.append(game_id)
        self.games[game_id] = SimpleNamespace(state=SimpleNamespace(move_stack=[]))
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


def test_a_held_game_behind_the_store_is_read_back(redis_url: str) -> None:
    """The process holding two games' duties has both at ply 0; the store has one of them at
    ply 3 (a move whose news never came: its process was killed right after the commit, as a
    run of test_server_cluster saw): that one is read back, at the next round, and only it."""
    url = redis_url.rsplit("/", 1)[0] + "/7"
    redis.Redis.from_url(url).flushdb()

    async def scenario() -> list[str]:
        host = Host(["behind", "level"], failing=set())
        fanout = Fanout(url)
        cluster = Cluster(fanout)
        cluster.bind(host)  # type: ignore[arg-type]
        read_back: list[str] = []

        async def news(game_id: str) -> None:
            read_back.append(game_id)
            host.plies.pop(game_id)  # read back: at the store's ply now

        cluster.news = news  # type: ignore[method-assign]
        adopting = asyncio.get_running_loop().create_task(cluster.adopt(every=0.05))
        try:
            for _ in range(200):  # until both are held and loaded (up to 10 s)
                await asyncio.sleep(0.05)
                if sorted(host.loaded) == ["behind", "level"]:
                    break
            assert sorted(fanout.held) == ["behind", "level"]
            host.plies["behind"] = 3  # moves committed elsewhere, unheard of here
            for _ in range(200):
                await asyncio.sleep(0.05)
                if read_back:
                    break
            await asyncio.sleep(0.2)  # a few more rounds: nothing more to read back
            return read_back
        finally:
            adopting.cancel()
            await fanout.close()

    assert asyncio.run(scenario()) == ["behind"]

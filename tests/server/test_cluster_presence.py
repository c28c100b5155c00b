"""A player with the game open is not notified, whichever process holds their websocket: two apps
on one PostgreSQL and one Redis, the player's websocket on one, the opponent's moves through the
other (see :mod:`ludoteca.server.cluster.presence`); a Redis that fails stops no move: the
notifier falls back on what its own process knows, and says so in the log; and a seat stays
open while any process vouches for it, no longer than its word lasts."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
import redis.asyncio as aioredis
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app
from ludoteca.server.cluster import presence as presence_module
from ludoteca.server.cluster.presence import Presence, key
from ludoteca.server.deps import COOKIE
from ludoteca.server.notify import notifier as notifier_module

from ..support.ports import reserved_port
from ..support.postgres import database
from ..support.webpush import PushService, push_service
from .test_server_community import sign_up
from .test_server_notify import drain, move, new_game, subscribe


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def settings(db: str, redis_url: str | None = None) -> Settings:
    return Settings(db=db, redis=redis_url, workers=1, warm=False, push_local=True)


def wait_for(test: object, what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.02)  # polling Redis: presence is written in the background, told no one


def test_a_player_watching_through_another_process_is_not_notified(
    postgres_port: int, redis_url: str, service: PushService
) -> None:
    db = database(postgres_port, f"p{secrets.token_hex(6)}")
    with ExitStack() as stack:
        a = stack.enter_context(TestClient(create_app(settings(db, redis_url))))
        b = stack.enter_context(TestClient(create_app(settings(db, redis_url))))
        ann, bob = sign_up(a, "Ann"), sign_up(a, "Bob")
        assert subscribe(a, bob, service.browser("bob")).status_code == 201
        game_id = new_game(a, ann, bob)  # Ann white, Bob black
        seen = redis.Redis.from_url(redis_url)
        stack.callback(seen.close)

        def open_on_b() -> bool:
            return bool(seen.zcount(key(game_id, "black"), "-inf", "+inf"))

        # Bob has the game open through B; Ann moves through A: Bob is not told
        b.cookies.set(COOKIE, bob.cookie)
        with b.websocket_connect(f"/ws/games/{game_id}") as watching:
            watching.send_json({"type": "hello"})
            assert watching.receive_json()["type"] == "state"
            wait_for(open_on_b, "B never said Bob has the game open")
            move(a, ann, game_id, "d6", 0)
            drain(a)
            assert service.received == []
            move(a, bob, game_id, "f4", 1)  # (tells Ann, who has no browser)
        # the websocket closed: B takes its word back at once, and Ann's next move tells Bob
        wait_for(lambda: not open_on_b(), "B still says Bob has the game open")
        move(a, ann, game_id, "b4", 2)
        drain(a)
        assert [push.path for push in service.received] == ["/push/bob"]


def test_a_failing_redis_stops_no_move_and_the_process_knowledge_holds(
    tmp_path: Path,
    service: PushService,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Presence on a Redis nobody answers at: the websocket and the moves go on; the watcher of
    this process is still seen (no notification), and once gone the player is told; once Redis
    failed it is not asked again for a while."""
    monkeypatch.setattr(notifier_module, "PRESENCE_PAUSE", 600.0)
    caplog.set_level(logging.WARNING, logger="ludoteca.server")
    app = create_app(settings(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"))
    with reserved_port() as port, TestClient(app) as a:
        services = a.app.state.services  # type: ignore[attr-defined]

        async def failing() -> Presence:
            presence = Presence(aioredis.Redis.from_url(f"redis://127.0.0.1:{port}/0"), "me")
            presence.start()
            return presence

        presence = a.portal.call(failing)  # type: ignore[union-attr]
        services.cluster.presence = services.notifier.presence = presence
        try:
            ann, bob = sign_up(a, "Ann"), sign_up(a, "Bob")
            assert subscribe(a, bob, service.browser("bob")).status_code == 201
            game_id = new_game(a, ann, bob)
            a.cookies.set(COOKIE, bob.cookie)
            with a.websocket_connect(f"/ws/games/{game_id}") as watching:
                watching.send_json({"type": "hello"})
                assert watching.receive_json()["type"] == "state"
                assert presence.here(game_id, "black")
                move(a, ann, game_id, "d6", 0)
                drain(a)
                assert service.received == []  # this process's watcher: not told
                move(a, bob, game_id, "f4", 1)
            move(a, ann, game_id, "b4", 2)
            drain(a)
            assert [push.path for push in service.received] == ["/push/bob"]
            assert not presence.here(game_id, "black")
        finally:
            a.portal.call(presence.close)  # type: ignore[union-attr]
    said = [record.getMessage() for record in caplog.records]
    asked = [line for line in said if "whether game" in line and "told all the same" in line]
    assert len(asked) == 1  # Ann's turn (Redis failed); Bob's, after, not asked
    assert any("telling Redis who has games open failed" in line for line in said)


def test_a_seat_is_open_while_any_process_vouches_for_it(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One member per process: a seat watched through two processes stays open until both
    websockets close; a process that dies (stops renewing) counts no longer once its word ran
    out (the expiry shortened for the test)."""
    monkeypatch.setattr(presence_module, "TTL_MS", 300)
    game_id = f"g{secrets.token_hex(6)}"

    async def scenario() -> list[set[str]]:
        first = Presence(aioredis.Redis.from_url(redis_url), "first")
        second = Presence(aioredis.Redis.from_url(redis_url), "second")
        seen: list[set[str]] = []

        async def settled() -> set[str]:
            for presence in (first, second):  # (what the background task writes, at once)
                todo, presence._dirty = presence._dirty, set()
                await presence._write(todo)
            return await first.present(game_id, ["white", "black"])

        try:
            first.enter(game_id, {"black"})
            second.enter(game_id, {"black"})
            second.enter(game_id, {"black", "white"})  # (two of its sockets)
            seen.append(await settled())
            second.leave(game_id, {"black", "white"})
            seen.append(await settled())  # its other socket still holds black
            second.leave(game_id, {"black"})
            first.leave(game_id, {"black"})
            seen.append(await settled())
            first.enter(game_id, {"white"})  # then it dies: nothing renews its word
            seen.append(await settled())
            await asyncio.sleep(0.4)
            seen.append(await second.present(game_id, ["white"]))
            return seen
        finally:
            await first.redis.aclose()
            await second.redis.aclose()

    assert asyncio.run(scenario()) == [
        {"black", "white"},
        {"black"},
        set(),
        {"white"},
        set(),
    ]

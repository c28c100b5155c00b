"""Each connection sends from its own queue: a client that stops reading delays no one, and
one that falls too far behind gets the whole view instead of the updates it missed.  The
spectators' messages wait in an outbox for the players' work of each turn of the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ludoteca.server.play.live import BACKLOG, Watcher
from ludoteca.server.play.outbox import Outbox


def test_a_stuck_reader_delays_no_one_and_catches_up_with_the_whole_view() -> None:
    async def scenario() -> list[str]:
        fast_seen: list[str] = []
        slow_seen: list[str] = []
        unblock = asyncio.Event()

        async def fast_send(text: str) -> None:
            fast_seen.append(text)

        async def slow_send(text: str) -> None:
            await unblock.wait()  # a client that does not read
            slow_seen.append(text)

        fast, slow = Watcher(), Watcher()
        pumps = [
            asyncio.create_task(fast.pump(fast_send, lambda: "whole")),
            asyncio.create_task(slow.pump(slow_send, lambda: "whole")),
        ]
        for i in range(BACKLOG + 50):  # what broadcasts do: push, never wait
            fast.push(f"u{i}")
            slow.push(f"u{i}")
            await asyncio.sleep(0)  # a turn of the event loop: the pumps send
        assert fast_seen == [f"u{i}" for i in range(BACKLOG + 50)]
        assert slow_seen == []
        unblock.set()
        for _ in range(20):
            await asyncio.sleep(0)  # turns of the event loop: the stuck pump catches up
        for pump in pumps:
            pump.cancel()
        return slow_seen

    slow_seen = asyncio.run(scenario())
    # the stuck one received its first update (the send it was blocked in), then the whole view
    # in place of everything it missed
    assert slow_seen == ["u0", "whole"]


def test_a_message_written_at_once_never_overtakes_one_waiting() -> None:
    async def scenario() -> list[str]:
        wire: list[str] = []
        can_take = [True]
        unblock = asyncio.Event()

        def send_now(text: str) -> bool:  # the connection's way of writing at once
            if can_take[0]:
                wire.append(text)
            return can_take[0]

        async def send(text: str) -> None:  # the queued way, stuck until unblocked
            await unblock.wait()
            wire.append(text)

        watcher = Watcher(send_now=send_now)
        pump = asyncio.create_task(watcher.pump(send, lambda: "whole"))
        watcher.push("a")  # nothing waits: written at once
        can_take[0] = False
        watcher.push("b")  # the connection cannot take it: queued
        await asyncio.sleep(0)  # the pump is now sending "b"
        can_take[0] = True
        watcher.push("c")  # "b" is still on its way: "c" waits behind it
        assert wire == ["a"]
        unblock.set()
        for _ in range(5):
            await asyncio.sleep(0)
        watcher.push("d")  # nothing waits again: at once
        assert wire == ["a", "b", "c", "d"]
        pump.cancel()
        return wire

    assert asyncio.run(scenario()) == ["a", "b", "c", "d"]


def test_spectators_messages_wait_for_the_players_work_of_the_turn() -> None:
    """The outbox writes a slice a turn of the event loop, then lets the turn's other work
    run: work scheduled meanwhile (a player's move) comes before the rest of the spectators."""

    async def scenario() -> list[str]:
        wire: list[str] = []
        outbox = Outbox(slice_seconds=0.0)  # (one stride of messages a turn)

        def connection(name: str) -> Watcher:
            return Watcher(send_now=lambda text: wire.append(f"{name}:{text}") is None)

        spectators = [connection(f"s{k}") for k in range(20)]
        for spectator in spectators:
            outbox.post(spectator, "u1")
        player = connection("p")
        asyncio.get_running_loop().call_soon(player.push, "move")  # due this turn
        for _ in range(10):
            await asyncio.sleep(0)
        assert not outbox.waiting and all(s.deferred == 0 for s in spectators)
        return wire

    wire = asyncio.run(scenario())
    assert sorted(wire) == sorted([f"s{k}:u1" for k in range(20)] + ["p:move"])
    assert 0 < wire.index("p:move") < 20  # after the first slice, before the last spectator


def test_a_connections_messages_keep_their_order_through_the_outbox() -> None:
    async def scenario() -> list[str]:
        wire: list[str] = []
        outbox = Outbox(slice_seconds=0.0)
        others = [Watcher(send_now=lambda text: True) for _ in range(30)]
        for other in others:
            outbox.post(other, "x")
        watcher = Watcher(send_now=lambda text: wire.append(text) is None)
        outbox.post(watcher, "state")
        watcher.push("chat line")  # not a game message, yet behind the state still waiting
        assert wire == []
        for _ in range(10):
            await asyncio.sleep(0)
        watcher.push("later")  # nothing waits any more: at once
        assert wire == ["state", "chat line", "later"]
        return wire

    asyncio.run(scenario())


def test_an_outbox_over_its_limit_sends_its_spectators_the_whole_view_instead() -> None:
    async def scenario() -> dict[str, list[str]]:
        seen: dict[str, list[str]] = {"a": [], "b": []}
        outbox = Outbox(limit=4)
        watchers = {name: Watcher() for name in seen}  # (no way to write at once: the pump)

        def sender(name: str) -> Callable[[str], Awaitable[None]]:
            async def send(text: str) -> None:
                seen[name].append(text)

            return send

        pumps = [
            asyncio.create_task(w.pump(sender(name), lambda: "whole"))
            for name, w in watchers.items()
        ]
        for i in range(3):
            outbox.post(watchers["a"], f"a{i}")
        outbox.post(watchers["b"], "b0")
        outbox.post(watchers["b"], "b1")  # a fifth message: the four waiting are dropped
        assert [text for _w, text in outbox.waiting] == [None, None, "b1"]
        for _ in range(10):
            await asyncio.sleep(0)
        for pump in pumps:
            pump.cancel()
        return seen

    seen = asyncio.run(scenario())
    # (the whole view is made when sent: after "b1" was, which it includes)
    assert seen == {"a": ["whole"], "b": ["whole"]}

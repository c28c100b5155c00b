"""Each connection sends from its own queue: a client that stops reading delays no one, and
one that falls too far behind gets the whole view instead of the updates it missed."""

from __future__ import annotations

import asyncio

from ludoteca.server.play.live import BACKLOG, Watcher


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

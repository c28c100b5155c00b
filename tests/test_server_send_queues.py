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

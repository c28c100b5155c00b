"""The server's garbage collector runs by the clock: young passes over what is new, survivors
frozen, and a full pass only when the memory has doubled (see ludoteca.server.collector)."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from ludoteca.server import collector as module
from ludoteca.server.collector import Collector


class Node:
    """A thing that can be in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


def test_young_passes_collect_new_cycles_and_freeze_what_survives() -> None:
    async def scenario() -> None:
        collector = Collector(period=0.05)
        collector.start()
        try:
            assert not gc.isenabled()  # (allocations start no pass any more)
            kept, kept_ref = cycle()
            _dropped, _ = cycle()
            collected = asyncio.Event()  # set when a pass by the clock collects the new cycle
            dropped_ref = weakref.ref(_dropped, lambda _: collected.set())
            del _dropped
            await asyncio.wait_for(collected.wait(), timeout=30)
            assert dropped_ref() is None  # a new cycle: found by a young pass
            assert kept_ref() is not None
            assert not any(thing is kept for thing in gc.get_objects())  # frozen: in no generation
            del kept  # garbage now, but frozen: young passes no longer look at it
            collector.young()
            assert kept_ref() is not None
            assert collector.full() >= 2  # the full pass finds it (two nodes at least)
            assert kept_ref() is None
        finally:
            collector.stop()

    enabled = gc.isenabled()
    asyncio.run(scenario())
    assert gc.isenabled() == enabled and gc.get_freeze_count() == 0


def test_a_full_pass_comes_once_the_memory_has_doubled_and_not_too_soon(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    peak, clock = [1000], [0.0]
    monkeypatch.setattr(module, "_peak_memory", lambda: peak[0])
    monkeypatch.setattr(module, "_clock", lambda: clock[0])

    async def scenario() -> list[int]:
        collector = Collector(period=3600, full_every=100)  # (passes by hand)
        collector.start()
        passes = []
        try:
            for at, memory in ((10, 1500), (200, 1999), (201, 2001), (202, 2001), (250, 5000)):
                clock[0], peak[0] = at, memory
                collector.young()
                passes.append(collector.full_passes)
            clock[0] = 302  # 100 s after the last
            collector.young()
            passes.append(collector.full_passes)
        finally:
            collector.stop()
        return passes

    # from 1000 (at 0 s): a full pass past 2000; from 2001 (at 201 s) the next past 4002, but
    # not before 301 s
    assert asyncio.run(scenario()) == [0, 0, 1, 1, 1, 2]


def test_collection_is_given_back_as_it_was_when_the_last_collector_stops() -> None:
    async def scenario() -> None:
        first, second = Collector(period=3600), Collector(period=3600)
        first.start()
        second.start()
        first.stop()
        assert not gc.isenabled()  # (the second still runs)
        second.stop()

    assert gc.isenabled()
    asyncio.run(scenario())
    assert gc.isenabled()
    gc.disable()
    try:
        asyncio.run(scenario())
        assert not gc.isenabled()  # (off before: off after)
    finally:
        gc.enable()

"""A game works out one hint at a time (docs/web.md): asking again for the same position waits
for the same answer, and a hint still waiting for an older position is dropped.  The analysis
runs in a thread here, on a stand-in whose answers the test releases."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

import ludoteca
from ludoteca.ai import Limit
from ludoteca.server.computer import computer as computer_module
from ludoteca.server.computer.computer import Computer
from ludoteca.server.schemas import Mode, Status


class Analysis:
    """Stands in for the hint job: records the moves of each position asked about, and answers
    (a hint whose line is those moves) once the test opens its gate."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []
        self.started = threading.Event()
        self.gate = threading.Event()

    def hint(
        self, game: str, rules: str, start: Any, moves: list[str], seconds: float, language: str
    ) -> Any:
        self.asked.append(list(moves))
        self.started.set()
        self.gate.wait(30)
        line = list(moves)
        return {
            "move": "-",
            "score": 0,
            "white_share": 0.5,
            "text": "",
            "pv": line,
            "exact": False,
            "gesture": [],
        }


def game_at(state: ludoteca.State, version: int) -> Any:
    """What the computer reads of a live game against it (White the person, to move)."""
    row = SimpleNamespace(mode=Mode.COMPUTER, status=Status.LIVE, game="morris", rules="morris")
    return SimpleNamespace(row=row, state=state, version=version, hint=None)


def test_a_hint_for_an_older_position_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    analysis = Analysis()
    monkeypatch.setattr(computer_module.workers, "hint", analysis.hint)
    state = ludoteca.new_game("morris")

    async def scenario() -> tuple[BaseException | Any, Any, Any]:
        pool = ThreadPoolExecutor(1)
        computer = Computer(pool, 1, pool, Limit(depth=1), CollectorRegistry())
        live = game_at(state, version=0)
        first = asyncio.ensure_future(computer.hint(live, frozenset({"white"})))
        again = asyncio.ensure_future(computer.hint(live, frozenset({"white"})))  # same one
        await asyncio.to_thread(analysis.started.wait, 30)
        # the game moves on (White d6, Black f4) before the answer comes: a hint for the new
        # position is asked for
        state.push(state.read_move("d6"))
        state.push(state.read_move("f4"))
        live.version = 2
        newer = asyncio.ensure_future(computer.hint(live, frozenset({"white"})))
        await asyncio.sleep(0)  # a turn of the event loop: the newer job is queued
        analysis.gate.set()
        outcomes = await asyncio.gather(first, again, newer, return_exceptions=True)
        pool.shutdown()
        return outcomes[0], outcomes[1], outcomes[2]

    first, again, newer = asyncio.run(scenario())
    assert isinstance(first, asyncio.CancelledError) and isinstance(again, asyncio.CancelledError)
    assert newer.pv == ["d6", "f4"]
    assert analysis.asked == [[], ["d6", "f4"]]  # the older one asked once, both waiting for it

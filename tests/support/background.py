"""Background work for the stand-ins of a hub in the cluster tests: what ``Host.background``
does, each task kept in :attr:`Background.tasks` until it is done."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


class Background:
    """A hub's ``background(work)``: ``work`` runs as a task, kept in :attr:`tasks` until done."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def background(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

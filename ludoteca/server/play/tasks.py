"""The background work of the live games (computer turns, reports being made, news told to the
other processes, explorer values): every task kept until it is done, all cancelled together
when the server stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

__all__ = ["Tasks"]

log = logging.getLogger("ludoteca.server")


class Tasks:
    """The running background tasks (:attr:`running`) of a server process."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task, kept until done; a failure is logged, not raised."""

        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("background work failed")

        self.track(asyncio.get_running_loop().create_task(run()))

    def track(self, task: asyncio.Task[Any]) -> None:
        """Keep ``task`` (made elsewhere) until it is done."""
        self.running.add(task)
        task.add_done_callback(self.running.discard)

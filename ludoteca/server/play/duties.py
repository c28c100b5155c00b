"""What a live game needs from the server without anyone asking: the computer thinking when it
is its turn, the flag falling when the running clock runs out, and ending the games abandoned
long ago.  A game's duties are done by the process holding its lease (every game, alone).
Their times are the hub's clock (:meth:`Host.now`: a test's, when injected), as the
players' moves are."""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Callable
from typing import Protocol

from .. import logs
from ..cluster.adoption import Cluster
from ..computer.computer import Computer
from ..errors import ActionError
from ..schemas import Status
from ..store import Store
from . import conduct
from .clock import ticking
from .conduct import Change, Context
from .live import LiveGame
from .tasks import Tasks

__all__ = ["ABANDONED", "ABANDONED_COMPUTER", "Duties"]

log = logging.getLogger("ludoteca.server")

#: a game without a move for this long is abandoned (ended, no result): against the computer,
#: and otherwise
ABANDONED_COMPUTER = datetime.timedelta(hours=1)
ABANDONED = datetime.timedelta(days=1)
#: a computer move that failed (its job and its fallback's both killed on a starved machine,
#: say) is tried again after these seconds, then given up (logged each time)
RETRY_AFTER: tuple[float, ...] = (2.0, 10.0, 30.0)


class Host(Protocol):
    """What the duties use of the hub."""

    store: Store
    computer: Computer
    cluster: Cluster
    games: dict[str, LiveGame]
    tasks: Tasks

    async def carry_out(
        self, live: LiveGame, decide: Callable[[], Change | None], tell: bool = True
    ) -> None: ...

    def broadcast(self, live: LiveGame, publish: bool = False) -> None: ...

    def evict_idle(self) -> int: ...

    def now(self) -> int: ...


class Duties:
    """The duties of the games of a hub (:meth:`bind`, by the hub itself)."""

    hub: Host

    def bind(self, hub: Host) -> None:
        """Do the duties of ``hub``'s games from now on."""
        self.hub = hub

    def after_change(self, live: LiveGame) -> None:
        """Set the computer thinking when it is its turn; set the flag of a running clock (in
        the process holding the game's lease, which is asked for first).  Days per move have
        no timer: their deadlines are swept (see :mod:`.correspondence`)."""
        if live.timer is not None:
            if live.timer is not asyncio.current_task():  # (a flag falling ends its own timer)
                live.timer.cancel()
            live.timer = None
        hub, row = self.hub, live.row
        duties = row.status == Status.LIVE and (ticking(row.clock) or live.computer_to_move())
        if not hub.cluster.holds(row.id):
            if duties:
                hub.tasks.spawn(self._lease_then_duties(live))
            return
        if row.status == Status.OVER:
            hub.cluster.release(row.id)
        if ticking(row.clock) and row.status == Status.LIVE:
            left = live.time_left(live.state.turn, self.hub.now())
            live.timer = asyncio.get_running_loop().create_task(
                self._flag_later(live, live.ply, left)
            )
        if live.computer_to_move() and not live.thinking and live.failed_for != live.version:
            live.thinking_for = live.version
            task = asyncio.get_running_loop().create_task(self._computer(live, live.version))
            hub.tasks.track(task)

    async def _lease_then_duties(self, live: LiveGame) -> None:
        if await self.hub.cluster.lease(live.row.id):
            self.after_change(live)

    async def _flag_later(self, live: LiveGame, ply: int, left: int) -> None:
        await asyncio.sleep(max(left, 0) / 1000 + 0.02)

        def decide() -> Change | None:
            now = self.hub.now()
            if (
                live.ply != ply
                or live.row.status != Status.LIVE
                or live.time_left(live.state.turn, now) > 0
            ):
                return None
            return conduct.flag(live, Context(now))

        try:
            await self.hub.carry_out(live, decide)
        except ActionError:
            return  # ended elsewhere meanwhile (another process): it reloads when asked

    async def _computer(self, live: LiveGame, version: int) -> None:
        """Think in a worker process; play the move if the position is still the same.  A move
        that failed is tried again after each delay of :data:`RETRY_AFTER`, then given up."""
        hub = self.hub
        try:
            hub.broadcast(live)
            text = await hub.computer.move(live)
            await hub.carry_out(
                live, lambda: conduct.computer_move(live, version, text, Context(hub.now())), False
            )
        except Exception:
            log.exception(
                "computer move failed in game %s", live.row.id, extra=logs.game(live.row.id)
            )
            if live.failing != version:
                live.failing, live.failures = version, 0
            live.failures += 1
            live.failed_for = version
        if live.thinking_for == version:
            live.thinking_for = None
        self.after_change(live)
        hub.broadcast(live, publish=True)
        if live.failed_for == version and live.failures <= len(RETRY_AFTER):
            await asyncio.sleep(RETRY_AFTER[live.failures - 1])
            if live.version == version and live.failed_for == version:
                live.failed_for = None  # try again
                self.after_change(live)

    async def sweep(self, every: float = 60.0) -> None:
        """Every ``every`` seconds, until cancelled (runs for the server): evict idle games, and
        end the abandoned ones (:meth:`abandon`)."""
        while True:
            await asyncio.sleep(every)
            dropped = self.hub.evict_idle()
            if dropped:
                log.info("%d idle games left memory; %d stay", dropped, len(self.hub.games))
            await self.abandon()

    async def abandon(self) -> list[str]:
        """End the games without a move for :data:`ABANDONED` (:data:`ABANDONED_COMPUTER`
        against the computer), except those in memory (someone is watching or just asked)."""
        hub = self.hub
        ids = await hub.store.abandon(ABANDONED, ABANDONED_COMPUTER, keep=list(hub.games))
        if ids:
            log.info("%d abandoned games ended", len(ids))
        return ids

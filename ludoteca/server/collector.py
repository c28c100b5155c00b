"""The cyclic garbage collector, run by the clock instead of by allocations.

CPython starts a young pass when the objects allocated outnumber those freed by a threshold.
In a server where connections come and go, the closing connections' frees offset the
newcomers' allocations, so the young generation grows for seconds before a pass looks at it
(185,000 objects after 15 s with ten thousand watchers) and that pass stops the event loop for
100-250 ms; its survivors then make the middle passes as long.

Here automatic collection is off.  Every :data:`PERIOD` seconds a young pass looks at what was
made since the last one (a millisecond or so), and what survives it is frozen
(:func:`gc.freeze`): moved where no pass looks.  Frozen objects are still freed by reference
counting as usual; only reference cycles among them, garbage a full pass alone finds, stay.
The server leaves little of that (closed connections are freed by reference counting, see
:mod:`.websocket`; the full passes of ``bench/load.py`` runs found none), so a full pass
(unfreeze, collect everything, freeze again) runs only when the process's peak memory has
doubled since the last one, as Go's collector paces itself by the heap's growth, and at most
once in :data:`FULL_EVERY` seconds: such a pass stops the event loop for a second or two with
ten thousand connections.  Each full pass is logged with its length.  (The size of the frozen
generation is no measure to pace by: counting it walks every object.)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import resource
import time

__all__ = ["FULL_EVERY", "GROWTH", "PERIOD", "Collector"]

#: seconds between young passes
PERIOD = 0.1
#: how many times the peak memory may grow between full passes
GROWTH = 2.0
#: the fewest seconds between full passes
FULL_EVERY = 600.0

log = logging.getLogger("ludoteca.server")
_clock = time.monotonic  # (when the last full pass ended is read from it)

_running = 0  # collectors started and not stopped (several apps may run in one process)
_was_enabled = True  # whether automatic collection was on before the first started


class Collector:
    """Young passes every ``period`` seconds on the running loop, survivors frozen; a full pass
    when the peak memory has grown ``growth`` times since the last one, ``full_every`` seconds
    after it at the soonest."""

    def __init__(
        self, period: float = PERIOD, growth: float = GROWTH, full_every: float = FULL_EVERY
    ) -> None:
        self.period = period
        self.growth = growth
        self.full_every = full_every
        #: when the last full pass ended (monotonic seconds)
        self.last_full = 0.0
        #: the peak memory after the last full pass (the platform's unit)
        self.baseline = 0
        self.full_passes = 0
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Collect everything once, freeze it, and take over from automatic collection."""
        global _running, _was_enabled
        if _running == 0:
            _was_enabled = gc.isenabled()
        _running += 1
        gc.disable()
        gc.collect()
        gc.freeze()
        self.baseline = _peak_memory()
        self.last_full = _clock()
        self._timer = asyncio.get_running_loop().call_later(self.period, self._tick)

    def stop(self) -> None:
        """Stop; the last collector stopped in the process gives collection back to Python
        (as it was, with everything frozen unfrozen)."""
        global _running
        if self._timer is None:
            return
        self._timer.cancel()
        self._timer = None
        _running -= 1
        if _running == 0:
            gc.unfreeze()
            if _was_enabled:
                gc.enable()

    def _tick(self) -> None:
        self.young()
        self._timer = asyncio.get_running_loop().call_later(self.period, self._tick)

    def young(self) -> None:
        """A young pass, its survivors frozen; a full pass instead when due."""
        gc.collect(0)
        gc.freeze()
        if (
            _peak_memory() > self.growth * self.baseline
            and _clock() >= self.last_full + self.full_every
        ):
            self.full()

    def full(self) -> int:
        """Collect everything (the event loop waits); how many objects were unreachable."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.baseline = _peak_memory()
        self.last_full = _clock()
        self.full_passes += 1
        log.info(
            "full garbage collection: %d objects unreachable, in %.0f ms",
            found,
            (time.perf_counter() - started) * 1000,
        )
        return found


def _peak_memory() -> int:
    """The process's peak resident memory so far (kB on Linux, bytes on macOS)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

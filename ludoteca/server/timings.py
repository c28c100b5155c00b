"""Where a move's time goes, for ``/metrics``: the event loop's lag and each stage of a change.

``ludoteca_event_loop_lag_seconds`` is how late the event loop runs a callback it was asked to
run at a given time (:meth:`Timings.watch_loop` sleeps :data:`LAG_INTERVAL` and measures the
overshoot): the time any ready work waits for the loop.  ``ludoteca_stage_seconds{stage}``
times the stages of a websocket intent, in order: ``parse`` (reading and checking the message),
``check`` (the game's rules deciding the change, under its lock), ``batch`` (a move waiting for
its batch's commit to start), ``commit`` (the batch's write transaction), ``apply`` (the change
applied to the game in memory), ``fanout`` (the views of every watcher made and queued, and
other processes told) and ``send`` (one message written to its websocket).
``ludoteca_commit_moves`` counts the moves each commit carries.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Histogram

__all__ = ["LAG_INTERVAL", "STAGES", "Timings"]

#: how often the event loop's lag is sampled, in seconds
LAG_INTERVAL = 0.05
#: the stages of a change, in the order they happen
STAGES = ("parse", "check", "batch", "commit", "apply", "fanout", "send")
_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Timings:
    """The histograms of one server process, registered in ``registry``."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        registry = registry or CollectorRegistry()
        self.lag = Histogram(
            "ludoteca_event_loop_lag_seconds",
            "How late the event loop runs a timer: the wait of any ready work",
            buckets=_BUCKETS,
            registry=registry,
        )
        self.stages = Histogram(
            "ludoteca_stage_seconds",
            "Time in each stage of a change (parse, check, batch, commit, apply, fanout, send)",
            ["stage"],
            buckets=_BUCKETS,
            registry=registry,
        )
        self.batch_moves = Histogram(
            "ludoteca_commit_moves",
            "Moves committed together in one transaction",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
            registry=registry,
        )
        self._stage = {name: self.stages.labels(stage=name) for name in STAGES}

    def observe(self, stage: str, seconds: float) -> None:
        """Count ``seconds`` spent in ``stage`` (one of :data:`STAGES`)."""
        self._stage[stage].observe(seconds)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the block as the stage ``name``."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self._stage[name].observe(time.perf_counter() - started)

    async def watch_loop(self, interval: float = LAG_INTERVAL) -> None:
        """Sample the event loop's lag every ``interval`` seconds until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + interval
            await asyncio.sleep(interval)
            self.lag.observe(max(0.0, loop.time() - due))

"""Where a move's time goes, for ``/metrics``: the event loop's lag and each stage of a change.

``ludoteca_event_loop_lag_seconds`` is how late the event loop runs a callback it was asked to
run at a given time (:meth:`Timings.watch_loop` sleeps :data:`LAG_INTERVAL` and measures the
overshoot): the time any ready work waits for the loop.  ``ludoteca_stage_seconds{stage}``
times the stages of a websocket intent, in order: ``parse`` (reading and checking the message),
``check`` (the game's rules deciding the change, under its lock), ``batch`` (a move waiting for
its batch's commit to start), ``commit`` (the batch's write transaction), ``apply`` (the change
applied to the game in memory), ``fanout`` (the views of every watcher made and queued, and
other processes told) and ``send`` (one message written to its websocket).
``ludoteca_commit_moves`` counts the moves each commit carries.  ``ludoteca_sweep_seconds{sweep}``
times each pass of the periodic sweeps (its wall time, waits included: ``correspondence``, the
deadlines' sweep; ``tournaments``, the tournaments' scheduler), and ``ludoteca_sweep_ended``
counts the games each deadlines' sweep ended on time.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector

__all__ = ["LAG_INTERVAL", "STAGES", "SWEEPS", "Histogram", "Timings"]

#: how often the event loop's lag is sampled, in seconds
LAG_INTERVAL = 0.05
#: the stages of a change, in the order they happen
STAGES = ("parse", "check", "batch", "commit", "apply", "fanout", "send")
#: the periodic sweeps timed, each pass whole
SWEEPS = ("correspondence", "tournaments")
_SWEEP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Histogram:
    """Counts of observations per bucket (upper bounds ``bounds``, then +Inf) and their sum,
    observed from the event loop's thread alone: no lock, a few hundred nanoseconds an
    observation (prometheus_client's own histogram takes a lock per observation, which at a
    thousand moves a second and a dozen observations a move is a noticeable part of the loop's
    time).  A scrape from another thread reads counts at most an observation behind."""

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def buckets(self) -> list[tuple[str, float]]:
        """The cumulative counts as Prometheus writes them: ``(le, count)``, +Inf last."""
        total, out = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), self.counts, strict=True):
            total += count
            out.append((bound, float(total)))
        return out


class _Timer:
    """Times a ``with`` block into a histogram (a class, not a generator: a third of the
    cost)."""

    __slots__ = ("histogram", "started")

    def __init__(self, histogram: Histogram) -> None:
        self.histogram = histogram
        self.started = 0.0

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, *_: object) -> None:
        self.histogram.observe(time.perf_counter() - self.started)


class _Family(Collector):
    """A histogram family for ``/metrics``: its histograms by label value (``None``: no
    label)."""

    def __init__(self, name: str, text: str, label: str | None, parts: dict[str, Histogram]):
        self.name, self.text, self.label, self.parts = name, text, label, parts

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(
            self.name, self.text, labels=[self.label] if self.label else None
        )
        for value, histogram in self.parts.items():
            labels = [value] if self.label else []
            family.add_metric(labels, histogram.buckets(), histogram.sum)
        yield family


class Timings:
    """The histograms of one server process, registered in ``registry``."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        registry = registry or CollectorRegistry()
        self.bounds = _BUCKETS  # of the lag and the stages (seconds)
        self.lag = Histogram(_BUCKETS)
        self._stage = {name: Histogram(_BUCKETS) for name in STAGES}
        self.batch_moves = Histogram((1, 2, 4, 8, 16, 32, 64, 128, 256, 512))
        self._sweep = {name: Histogram(_SWEEP_BUCKETS) for name in SWEEPS}
        self.sweep_ended = Histogram((0, 1, 4, 16, 64, 256, 1024, 4096))
        for family in (
            _Family(
                "ludoteca_event_loop_lag_seconds",
                "How late the event loop runs a timer: the wait of any ready work",
                None,
                {"": self.lag},
            ),
            _Family(
                "ludoteca_stage_seconds",
                "Time in each stage of a change (parse, check, batch, commit, apply, fanout, send)",
                "stage",
                self._stage,
            ),
            _Family(
                "ludoteca_commit_moves",
                "Moves committed together in one transaction",
                None,
                {"": self.batch_moves},
            ),
            _Family(
                "ludoteca_sweep_seconds",
                "Wall time of each pass of a periodic sweep (correspondence, tournaments)",
                "sweep",
                self._sweep,
            ),
            _Family(
                "ludoteca_sweep_ended",
                "Games each pass of the correspondence sweep ended on time",
                None,
                {"": self.sweep_ended},
            ),
        ):
            registry.register(family)

    def observe(self, stage: str, seconds: float) -> None:
        """Count ``seconds`` spent in ``stage`` (one of :data:`STAGES`)."""
        self._stage[stage].observe(seconds)

    def stage(self, name: str) -> _Timer:
        """Time the block (``with timings.stage(name):``) as the stage ``name``."""
        return _Timer(self._stage[name])

    def sweep(self, name: str) -> _Timer:
        """Time the block as one pass of the sweep ``name`` (one of :data:`SWEEPS`)."""
        return _Timer(self._sweep[name])

    async def watch_loop(self, interval: float = LAG_INTERVAL) -> None:
        """Sample the event loop's lag every ``interval`` seconds until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + interval
            await asyncio.sleep(interval)
            self.lag.observe(max(0.0, loop.time() - due))

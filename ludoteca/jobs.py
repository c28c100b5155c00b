"""Long jobs cut into independent pieces, run on this machine's processes or on a Ray cluster.

A *piece* is one call ``function(item)``: a game of a tournament, a material class of a table
build, a batch of an opening book.  :func:`parallel_map` runs the pieces of a job where a
:class:`Pool` says:

- by default on a pool of ``workers`` local processes (``concurrent.futures``);
- with ``ray`` set, as Ray remote tasks (one CPU each) on the cluster at that address
  (``ray.init(address=...)``: ``"auto"`` is the cluster this machine joined with ``ray start``,
  ``"ray://host:10001"`` a remote head, ``"local"`` a Ray instance of this process's own).  Every
  node of the cluster needs this package installed, at the same version as the driver.

The function and the items must be picklable (top-level functions, ``functools.partial`` of
them, plain data); the function is sent once per job, not once per piece.  Only as many pieces
run at once as the pool has workers (on Ray: the cluster's CPUs), and an item is taken from
``items`` only when a worker is free, so ``items`` may be endless: closing the generator starts
no further piece.  A piece's result depends only on its item, so a job gives the same results
on processes as on Ray.  On Ray a piece whose worker process or node dies while it runs is
run again on a node still there, up to :data:`RETRIES` times; a piece that raises is not run
again.
"""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TypeVar

from tqdm import tqdm

__all__ = ["Pool", "parallel_map", "ray_connect"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Pool:
    """Where the pieces of a job run: ``workers`` local processes, or, when ``ray`` is set
    (an address for ``ray.init``), the Ray cluster there (``workers`` is then not used)."""

    workers: int = 1
    ray: str | None = None

    def describe(self) -> str:
        """For people: ``"2 local processes"`` or ``"the Ray cluster at ADDRESS"``."""
        if self.ray is not None:
            return f"the Ray cluster at {self.ray}"
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"


def parallel_map(
    function: Callable[[T], R],
    items: Iterable[T],
    pool: Pool | None = None,
    *,
    ordered: bool = False,
    progress: str | None = None,
) -> Generator[tuple[T, R]]:
    """Yield ``(item, function(item))`` for every item, the pieces run on ``pool`` (default:
    one local process): as they complete, or with ``ordered`` in the order of ``items``.

    ``progress`` is the label of a progress bar on standard error (a count of pieces, with the
    total when ``items`` has a length).  A piece that raises stops the job: the pieces not
    started are dropped, the running ones cancelled where possible, and the piece's exception
    (its own type and message, also from a Ray worker) is raised from the generator."""
    pool = pool or Pool()
    bar = None
    if progress is not None:
        total = len(items) if isinstance(items, Sized) else None
        bar = tqdm(total=total, desc=progress, unit="piece", file=sys.stderr, disable=None)
    runs = _ray_pieces if pool.ray is not None else _local_pieces
    done = runs(function, iter(items), pool, ordered)
    try:
        for pair in done:
            if bar is not None:
                bar.update()
            yield pair
    finally:
        done.close()
        if bar is not None:
            bar.close()


class _Order:
    """Hands results back in the order the items were taken, holding the early ones."""

    def __init__(self, ordered: bool) -> None:
        self.ordered = ordered
        self.next = 0
        self.held: dict[int, tuple[Any, Any]] = {}

    def ready(self, number: int, item: Any, result: Any) -> Iterator[tuple[Any, Any]]:
        if not self.ordered:
            yield item, result
            return
        self.held[number] = (item, result)
        while self.next in self.held:
            yield self.held.pop(self.next)
            self.next += 1


def _local_pieces(
    function: Callable[[T], R], source: Iterator[T], pool: Pool, ordered: bool
) -> Generator[tuple[T, R]]:
    workers = max(1, pool.workers)
    order = _Order(ordered)
    with ProcessPoolExecutor(max_workers=workers) as executor:
        running: dict[Future[R], tuple[int, T]] = {}
        taken = 0
        try:
            while True:
                while len(running) < workers and (item := next(source, _END)) is not _END:
                    running[executor.submit(function, item)] = (taken, item)
                    taken += 1
                if not running:
                    return
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: running[f][0]):
                    number, item = running.pop(future)
                    yield from order.ready(number, item, future.result())
        finally:
            for future in running:
                future.cancel()


_END: Any = object()
#: how many times Ray runs a piece again whose worker process or node died (Ray's default for
#: tasks, stated here as this module's promise; ``tests/solve/test_ray_nodes.py`` kills a node)
RETRIES = 3
#: the address this process is connected to (``ray.init`` can be called once at a time)
_connected: list[str] = []


def ray_connect(address: str) -> None:
    """Connect this process to the Ray cluster at ``address`` (once; a different address
    disconnects from the first).  Raises :class:`~ludoteca.core.LudotecaError` with a sentence
    when no cluster answers there, :class:`~ludoteca.extras.MissingExtraError` when Ray is not
    installed (``ludoteca[cluster]``)."""
    from .core import LudotecaError
    from .extras import require

    ray = require("ray", extra="cluster")

    if _connected == [address] and ray.is_initialized():
        return
    if ray.is_initialized():
        ray.shutdown()
    _connected.clear()
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if colon and port.isdigit():  # Ray waits minutes for an address where nothing listens
        try:
            socket.create_connection((host, int(port)), timeout=10).close()
        except OSError as error:
            raise LudotecaError(f"no Ray cluster answers at {address}: {error}") from None
    own: dict[str, Any] = {"include_dashboard": False} if address == "local" else {}
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING, **own)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise LudotecaError(f"no Ray cluster answers at {address}: {error}") from None
    _connected.append(address)


def _call(function: Callable[[T], R], item: T) -> R:
    return function(item)


def _ray_pieces(
    function: Callable[[T], R], source: Iterator[T], pool: Pool, ordered: bool
) -> Generator[tuple[T, R]]:
    assert pool.ray is not None
    ray_connect(pool.ray)
    import ray
    from ray.exceptions import RayTaskError

    width = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    task: Any = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(_call)
    shared = ray.put(function)
    order = _Order(ordered)
    running: dict[Any, tuple[int, T]] = {}
    taken = 0
    try:
        while True:
            while len(running) < width and (item := next(source, _END)) is not _END:
                running[task.remote(shared, item)] = (taken, item)
                taken += 1
            if not running:
                return
            finished, _ = ray.wait(list(running), num_returns=1)
            for ref in finished:
                number, item = running.pop(ref)
                try:
                    result = ray.get(ref)
                except RayTaskError as error:
                    cause = error.cause
                    raise (cause if isinstance(cause, Exception) else error) from None
                yield from order.ready(number, item, result)
    finally:
        for ref in running:
            ray.cancel(ref)

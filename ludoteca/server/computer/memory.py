"""How much memory a worker process holds of its own: :func:`own_memory`.

What a worker keeps between jobs (the compiled search it was forked with, the solved tables
it read, the opening books, Python's heap) is anonymous memory: ``RssAnon`` of
``/proc/PID/status``, plus what of it is swapped out (``VmSwap``).  The pages of table files
it maps (:func:`~ludoteca.games.morris.table.mapped`) and of libraries are left out: the
system's cache holds them once for every process and takes them back when memory runs short,
so they are not the worker's to give back.  Pages still shared with the fork server are
counted, so the figure is the worker's whole anonymous footprint (as ``top``'s ``RES`` minus
its ``SHR`` of files), not only what it added.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["MIB", "own_memory"]

MIB = 1024 * 1024
_FIELDS = (b"RssAnon:", b"VmSwap:")


def own_memory(pid: int) -> int | None:
    """Bytes of anonymous memory the process ``pid`` holds (resident plus swapped out); ``None``
    where the system does not say (no ``/proc``: not Linux) or the process has ended."""
    try:
        status = Path(f"/proc/{pid}/status").read_bytes()
    except OSError:
        return None
    found = [line.split()[1] for line in status.splitlines() if line.startswith(_FIELDS)]
    if not found:
        return None
    return sum(int(kib) for kib in found) * 1024

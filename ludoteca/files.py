"""Files built once and shared: writing a file that no reader ever sees half written
(:func:`write_atomically`), and a file built by one process at a time while the others wait
for it (:func:`read_or_build`)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TypeVar

from filelock import FileLock

__all__ = ["read_or_build", "write_atomically"]

T = TypeVar("T")


def read_or_build(
    path: Path,
    read: Callable[[Path], T],
    build: Callable[[], T],
    save: Callable[[BinaryIO, T], object],
) -> tuple[T, bool]:
    """What ``read(path)`` gives, else what ``build()`` gives, saved to ``path`` through
    ``save(file, built)`` (:func:`write_atomically`); and whether it was read.  One process at
    a time, by the lock file of ``path`` (:func:`_lock_of`): a process that asks meanwhile (two
    test processes, or a server's workers, wanting the same table) waits for the build under
    way, then reads its file.  A file ``read`` refuses (raising ``OSError``, ``ValueError`` or
    ``KeyError``: damaged) is built again and overwritten."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(_lock_of(path)):
        if path.exists():
            try:
                return read(path), True
            except (OSError, ValueError, KeyError):
                pass
        built = build()
        write_atomically(path, lambda out: save(out, built))
        return built, False


def _lock_of(path: Path) -> Path:
    """The lock file of ``path``: in a folder of this user's under the temporary folder, named
    by a digest of the absolute path, so that the folder of ``path`` (a user's table cache)
    holds only its files."""
    folder = Path(tempfile.gettempdir()) / f"ludoteca-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:32]
    return folder / f"{digest}.lock"


def write_atomically(
    path: Path, write: Callable[[BinaryIO], object], durable: bool = False
) -> None:
    """Write ``path`` through ``write(file)``: into a temporary file of its own in the same
    folder (made if missing), then renamed into place, so that a reader sees the old file or the
    whole new one, and processes writing the same path at once (two builds of one table) each
    finish with a whole file in place.  With ``durable`` the data reach the disk before the
    rename (it survives a power cut).  A write that fails leaves no temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise

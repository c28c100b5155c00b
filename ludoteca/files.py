"""Writing a file that no reader ever sees half written: :func:`write_atomically`."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["write_atomically"]


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

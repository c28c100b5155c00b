"""TCP ports for the child processes the tests start (servers, PostgreSQL, Redis).

A port found free by binding port 0 is free only until someone else binds it; under
``pytest -n 2`` that someone is often the other test process, picking a port for its own child
in the same way.  So every port handed to a child is reserved, among the suite's processes, by
an exclusive lock on a file named after it, held until the child has stopped: a process that
draws a port another one holds draws again."""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_FOLDER = Path(tempfile.gettempdir()) / "ludoteca-test-ports"


class ReservedPort:
    """A port on 127.0.0.1 that no other test process is handed until :meth:`release`."""

    def __init__(self) -> None:
        _FOLDER.mkdir(exist_ok=True)
        while True:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                number = int(probe.getsockname()[1])
            lock = os.open(_FOLDER / str(number), os.O_CREAT | os.O_RDWR, 0o666)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another test process's child has it, or will
                os.close(lock)
                continue
            self.number, self._lock = number, lock
            return

    def release(self) -> None:
        """Let other test processes draw this port again (once its child has stopped)."""
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1


@contextmanager
def reserved_port() -> Iterator[int]:
    """A :class:`ReservedPort`'s number, reserved until the block ends."""
    port = ReservedPort()
    try:
        yield port.number
    finally:
        port.release()

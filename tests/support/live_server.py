"""An ASGI app served by uvicorn in a thread of the test's own process, for tests that need real
HTTP on a socket (raw requests, many clients at once)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn


@contextmanager
def serving(app: Any) -> Iterator[int]:
    """Serve ``app`` until the block ends; its port on 127.0.0.1.

    The socket is bound and listening before the server starts (so no other process can take
    its port, and a client may connect at once: the connection waits in the backlog until the
    app has started)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()

"""The server's event loop: uvloop, with connections accepted in batches.

uvloop (libuv) accepts one new connection a turn of the event loop; when the loop is busy (a
thousand games moving, ten thousand watchers) a turn takes 10-100 ms, so new connections are
accepted at 10-100 a second while they arrive at hundreds: the kernel's accept queue fills,
further connections are dropped and their clients time out in the opening handshake.  Here a
listening TCP socket is read by the loop like any other file, and each time it is ready the
server accepts every connection waiting (up to :data:`ACCEPTS`), each then served by uvloop
as usual (``connect_accepted_socket``).  uvicorn takes the loop as ``loop=`` (an import
string naming :func:`new_loop`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import uvloop

__all__ = ["ACCEPTS", "BatchListener", "Loop", "new_loop"]

#: the most connections accepted each time a listening socket is ready
ACCEPTS = 1024
#: how long accepting pauses when the process is out of file descriptors
RESOURCE_PAUSE = 1.0

_log = logging.getLogger("ludoteca.server")


class BatchListener(asyncio.AbstractServer):
    """A listening socket whose waiting connections are accepted all at once when it is
    ready, each served by ``factory``'s protocol; the server uvicorn keeps and closes."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        sockets: list[socket.socket],
        factory: Callable[[], asyncio.BaseProtocol],
    ) -> None:
        self._loop = loop
        self._sockets = sockets
        self._factory = factory
        self._opening: set[asyncio.Task[Any]] = set()
        self._serving = False
        self._closed = asyncio.Event()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    async def start_serving(self) -> None:
        if self._serving or self._closed.is_set():
            return
        self._serving = True
        for sock in self._sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    async def serve_forever(self) -> None:
        await self.start_serving()
        await self._closed.wait()

    def close(self) -> None:
        """Stop accepting and close the listening sockets (open connections stay open)."""
        if self._closed.is_set():
            return
        for sock in self._sockets:
            if self._serving:
                self._loop.remove_reader(sock.fileno())
            sock.close()
        self._serving = False
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        if self._opening:
            await asyncio.gather(*self._opening, return_exceptions=True)

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(ACCEPTS):
            try:
                connection, _address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    _log.error("accepting connections paused for a second: %s", error)
                    self._loop.remove_reader(sock.fileno())
                    self._loop.call_later(RESOURCE_PAUSE, self._resume, sock)
                    return
                raise
            connection.setblocking(False)
            task = self._loop.create_task(self._open(connection))
            self._opening.add(task)
            task.add_done_callback(self._opening.discard)

    def _resume(self, sock: socket.socket) -> None:
        if self._serving:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    async def _open(self, connection: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, connection)
        except OSError:
            connection.close()


def _listen(host: str | Iterable[str] | None, port: int, backlog: int) -> list[socket.socket]:
    """Listening sockets for every address of ``host`` (all interfaces when None)."""
    hosts = [host] if host is None or isinstance(host, str) else list(host)
    found: list[socket.socket] = []
    try:
        for one in hosts:
            for family, kind, proto, _name, address in socket.getaddrinfo(
                one, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            ):
                sock = socket.socket(family, kind, proto)
                found.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
                sock.listen(backlog)
                sock.setblocking(False)
    except OSError:
        for sock in found:
            sock.close()
        raise
    return found


class Loop(uvloop.Loop):
    """uvloop's loop whose plain TCP servers (a host and port, no TLS) accept in batches."""

    async def create_server(  # type: ignore[override]
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        host: str | Iterable[str] | None = None,
        port: int | None = None,
        *,
        sock: socket.socket | None = None,
        ssl: Any = None,
        backlog: int = 100,
        start_serving: bool = True,
        **options: Any,
    ) -> asyncio.AbstractServer:
        if sock is not None or ssl is not None or port is None or options:
            create: Callable[..., Awaitable[asyncio.AbstractServer]] = super().create_server
            return await create(
                protocol_factory,
                host,
                port,
                sock=sock,
                ssl=ssl,
                backlog=backlog,
                start_serving=start_serving,
                **options,
            )
        listener = BatchListener(self, _listen(host, port, backlog), protocol_factory)
        if start_serving:
            await listener.start_serving()
        return listener


def new_loop() -> asyncio.AbstractEventLoop:
    """A new :class:`Loop` (what uvicorn's ``loop=`` setting names)."""
    return Loop()

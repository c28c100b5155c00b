"""The server's websocket protocol: uvicorn's own (``websockets-sansio``), and a message written
at once when the connection can take it.

Through ASGI every message a connection sends is a coroutine call through the middleware's
``send`` wrappers, after a task switch to the connection's sending task: at ten thousand
watchers that is most of the cost of a message.  :class:`DirectProtocol` adds an ASGI
extension, ``scope["extensions"][SEND_NOW]["send"]``: a plain function ``send(text) -> bool``
that writes a text message now, in the caller's turn of the event loop, and returns True; or
returns False, writing nothing, when it could not be written at once (before the opening
handshake's answer, once the connection is closing, or while the transport's buffer is over its
high-water mark).  The caller then sends through ASGI as usual, which waits for the buffer to
drain.  Ordering is the caller's: a message written at once must not overtake one still
waiting to be sent through ASGI.  uvicorn takes the protocol as ``ws=``.

A closed connection leaves no reference cycle behind, so reference counting frees it at once:
the HTTP protocol that upgraded it lets go of its parser (which held the protocol's own
callbacks), the websocket parser (a generator holding its protocol) is dropped once the
connection is lost, and the extension holds the protocol weakly.  Otherwise every connection
that closes is left to the cyclic garbage collector: with thousands of watchers coming and
going, its pauses grew to hundreds of milliseconds and the garbage to megabytes a second.
"""

from __future__ import annotations

import functools
import struct
import weakref
from asyncio import BaseTransport
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

__all__ = ["SEND_NOW", "DirectProtocol", "text_frame"]

#: the ASGI extension's name in a websocket's scope
SEND_NOW = "ludoteca.send_now"


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol with the :data:`SEND_NOW` extension."""

    def connection_made(self, transport: BaseTransport) -> None:
        upgraded = transport.get_protocol()  # (the HTTP protocol whose request this answers)
        super().connection_made(transport)
        if isinstance(upgraded, HttpToolsProtocol):  # (once its upgrade has returned)
            self.loop.call_soon(setattr, upgraded, "parser", None)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser = None  # type: ignore[assignment]  # (no data comes any more)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)  # (none for a refused handshake)
        if scope is not None:
            me = weakref.ref(self)

            def send(text: str) -> bool:
                protocol = me()
                return protocol is not None and protocol.send_now(text)

            scope["extensions"][SEND_NOW] = {"send": send}

    def send_now(self, text: str) -> bool:
        """Write ``text`` as one text message now, if the connection can take it (see the
        module's docstring); whether it did."""
        conn = self.conn
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        if conn.extensions or conn.writes or conn.expect_continuation_frame:
            # (compressed, or in the middle of something: the protocol's own way)
            conn.send_text(text.encode())
            self.transport.write(b"".join(conn.data_to_send()))
        else:
            self.transport.write(text_frame(text))
        return True


@functools.lru_cache(maxsize=4)
def text_frame(text: str) -> bytes:
    """``text`` as one unmasked, uncompressed websocket frame (RFC 6455 5.2), as a server sends
    it.  The last few are kept: a broadcast sends one text to many connections."""
    data = text.encode()
    length = len(data)
    if length < 126:
        head = struct.pack("!BB", 0x81, length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", 0x81, 126, length)
    else:
        head = struct.pack("!BBQ", 0x81, 127, length)
    return head + data

"""Hard limits and security basics for the web app.

- :class:`HeadLimit`: uvicorn's HTTP protocol (httptools) with the request line and headers
  capped at :data:`MAX_HEAD` bytes, counted as they arrive: a longer head is answered 431 at
  once and the connection closed, whatever its length (httptools has no cap of its own);
- :class:`BodyLimit`: an ASGI middleware that refuses a request body larger than the limit
  while it streams in (``Content-Length`` or chunked), with a 413 and nothing done;
- :class:`SecurityHeaders`: a content security policy without inline script, and the usual
  headers that stop sniffing, framing and referrer leaks;
- :func:`nesting`: how deeply a JSON text nests, read without parsing it (so a hostile message
  of a thousand brackets is refused before the JSON reader recurses into it);
- :func:`origin_allowed`: the websocket Origin check;
- :class:`RateLimit`: at most so many events per client in a sliding window.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BodyLimit", "HeadLimit", "RateLimit", "SecurityHeaders", "nesting", "origin_allowed"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_MESSAGE = 4096  # bytes in one websocket message
MAX_HEAD = 16 * 1024  # bytes in one HTTP request's request line and headers
MAX_BODY = 256 * 1024  # bytes in one HTTP request body (records included)
GAMES_PER_MINUTE = 30  # new games from one address in a minute
CHAT_LINES_PER_MINUTE = 20  # chat lines from one account in a minute (all its connections)
SOCKETS_PER_CLIENT = 32  # open game websockets from one address
MAX_NESTING = 16  # arrays and objects inside each other in one websocket message

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


class HeadLimit(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a request whose request line and headers pass
    :data:`MAX_HEAD` bytes: answered 431 as soon as the bytes received since the last request
    ended (or the connection opened) pass it, before the parser buffers more, and the connection
    closed.  uvicorn takes it as ``http=``.  (Bytes of a pipelined request that arrive with the
    end of the previous one are not counted: at most one read's worth more is let through.)"""

    _in_head = True
    _head_bytes = 0

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD:
                if not self.transport.is_closing():
                    self.transport.write(_TOO_LARGE)
                    self.transport.close()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_head, self._head_bytes = True, 0
        super().on_message_complete()


_HEAD_REFUSED = f"request heads are limited to {MAX_HEAD} bytes".encode()
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_HEAD_REFUSED)).encode() + b"\r\n\r\n"
) + _HEAD_REFUSED


class BodyLimit:
    """Refuse HTTP request bodies over ``limit`` bytes, counted as they arrive."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        received = 0
        started = refused = False

        async def counted() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # answer now; the application sees the client gone and its own answer,
                    # if any, is dropped
                    refused = True
                    if not started:
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": f"request bodies are limited to {self.limit} bytes"})
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


class SecurityHeaders:
    """Add the security headers to every HTTP response."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [
                    *message.get("headers", ()),
                    *(h for h in self.HEADERS if h[0] not in names),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a websocket may connect (or a state-changing request be made): no Origin (not a
    browser), the page's own host, or an origin listed in ``allowed`` (``"*"`` allows every
    origin)."""
    if origin is None:
        return True
    allowed = set(allowed)
    if "*" in allowed or origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc == host


class RateLimit:
    """At most ``events`` per ``seconds`` for each key (a client's address); memory stays
    bounded by forgetting keys whose window has passed."""

    def __init__(
        self, events: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.events = events
        self.seconds = seconds
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def peek(self, key: str) -> bool:
        """Whether an event for ``key`` would be allowed now (nothing is counted)."""
        times = self._seen.get(key)
        if not times:
            return True
        limit = self.clock() - self.seconds
        return sum(1 for t in times if t > limit) < self.events

    def allow(self, key: str) -> bool:
        """Count an event for ``key`` if the window has room; whether it had."""
        now = self.clock()
        if len(self._seen) > 10_000:
            for stale in [k for k, q in self._seen.items() if q[-1] <= now - self.seconds]:
                del self._seen[stale]
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.events:
            return False
        times.append(now)
        return True

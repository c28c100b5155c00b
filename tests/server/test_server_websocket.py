"""The server's websocket protocol writes a message at once when the connection can take it
(see ludoteca.server.websocket), in order with the messages sent through ASGI."""

from __future__ import annotations

import asyncio
import gc
import socket
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import uvicorn
import websockets
from websockets.frames import Frame, Opcode

from ludoteca.server.loop import Loop
from ludoteca.server.websocket import SEND_NOW, DirectProtocol, text_frame

#: the kernel's send and receive buffers of a connection that does not read (bytes)
BUFFER = 16_384

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_one_the_websockets_library_writes(length: int) -> None:
    text = ("é" * length)[:length] if length % 2 else "x" * length  # (multi-byte text too)
    expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
    assert text_frame(text) == expected


async def _serving(
    app: App,
    client: Callable[[str], Awaitable[None]],
    servers: list[uvicorn.Server] | None = None,
    protocol: type[DirectProtocol] = DirectProtocol,
) -> None:
    """Serve ``app`` with the protocol (or ``protocol``, a subclass) on a free port, run
    ``client(url)``, stop (the server is put on ``servers`` while it runs)."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, ws=protocol, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    if servers is not None:
        servers.append(server)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        await asyncio.wait_for(client(f"ws://127.0.0.1:{port}/"), 30)
    finally:
        server.should_exit = True
        await task


def test_messages_sent_at_once_and_through_asgi_arrive_in_order() -> None:
    told: list[bool] = []
    long = "c" * 70_000

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        now = scope["extensions"][SEND_NOW]["send"]
        await receive()  # the connection
        told.append(now("too early"))  # the handshake is not answered yet
        await send({"type": "websocket.accept"})
        told.append(now("a"))
        await send({"type": "websocket.send", "text": "b"})
        told.append(now(long))
        told.append(now("d"))
        assert (await receive())["text"] == "bye"
        await send({"type": "websocket.close"})
        told.append(now("too late"))  # closing

    received: list[str] = []

    async def client(url: str) -> None:
        async with websockets.connect(url, max_size=None) as ws:
            for _ in range(4):
                received.append(str(await ws.recv()))
            await ws.send("bye")
            await ws.wait_closed()

    asyncio.Runner(loop_factory=Loop).run(_serving(app, client))
    assert received == ["a", "b", long, "d"]
    assert told == [False, True, True, True, False]


def test_a_client_that_does_not_read_is_written_to_until_its_buffer_is_full() -> None:
    """Writing at once follows the transport's flow control: refused once the buffer is over
    its high-water mark (the ASGI way would wait there), taken again once the client read."""
    counts: list[int] = []
    told: list[bool] = []
    message = "m" * 1000
    drained = asyncio.Event()
    servers: list[uvicorn.Server] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        now = scope["extensions"][SEND_NOW]["send"]
        (protocol,) = (p for p in servers[0].server_state.connections if p.scope is scope)
        # (small kernel buffers: loopback's own grow to hold hundreds of megabytes)
        protocol.transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, BUFFER
        )
        await receive()
        await send({"type": "websocket.accept"})
        sent = 0
        while sent < 50_000 and now(message):  # (50 MB)
            sent += 1
        counts.append(sent)
        told.append(now(message))  # still full
        await drained.wait()
        told.append(now("again"))

    async def client(url: str) -> None:
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER)
        reader.connect(("127.0.0.1", int(url.rstrip("/").rsplit(":", 1)[1])))
        async with websockets.connect(url, sock=reader, max_size=None, max_queue=None) as ws:
            while not counts:
                await asyncio.sleep(0.01)  # not reading: the buffers fill
            for _ in range(counts[0]):
                assert await ws.recv() == message
            drained.set()
            assert await ws.recv() == "again"

    asyncio.Runner(loop_factory=Loop).run(_serving(app, client, servers))
    assert 0 < counts[0] < 50_000
    assert told == [False, True]


def test_a_closed_connection_leaves_no_cycle_for_the_collector() -> None:
    """Connections that open, exchange a message and close are freed by reference counting:
    with the cyclic collector off, none of the server's protocol objects is left in a cycle
    (before, each left its HTTP protocol and its websocket state to the collector)."""
    closed = 50
    lost: list[None] = []
    all_lost = asyncio.Event()

    class Counted(DirectProtocol):
        """The protocol, telling when the server has seen every connection go (its own
        ``connection_lost`` done: the last moment it could leave something behind)."""

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            lost.append(None)
            if len(lost) == closed:
                all_lost.set()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        assert scope["extensions"][SEND_NOW]["send"]("hello")
        await receive()  # until the client closes

    async def client(url: str) -> None:
        for _ in range(closed):
            async with websockets.connect(url) as ws:
                assert await ws.recv() == "hello"
        await all_lost.wait()  # (the server has seen the last one close)

    gc.collect()
    gc.disable()
    try:
        asyncio.Runner(loop_factory=Loop).run(_serving(app, client, protocol=Counted))
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = Counter(type(thing).__name__ for thing in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    server_side = ("Counted", "ServerProtocol", "HttpToolsProtocol", "HttpRequestParser")
    assert {name: left[name] for name in server_side} == dict.fromkeys(server_side, 0)
    assert len(lost) == closed

"""The server's event loop accepts every connection waiting at once (see ludoteca.server.loop)."""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

import pytest
import uvloop

from ludoteca.server import loop as server_loop
from ludoteca.server.loop import Loop

WAITING = 200


async def turns_to_accept(loop_class: type[uvloop.Loop], limit: int) -> tuple[int, int]:
    """Open WAITING connections while the loop is not running them, then count the turns of
    the loop until all are served (at most ``limit``); (turns, connections served)."""
    made: list[asyncio.BaseTransport] = []

    class Counting(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            made.append(transport)

    loop = asyncio.get_running_loop()
    assert type(loop) is loop_class
    server = await loop.create_server(Counting, "127.0.0.1", 0, backlog=WAITING * 2)
    port = server.sockets[0].getsockname()[1]
    clients = []
    for _ in range(WAITING):  # the kernel completes them; they wait to be accepted
        client = socket.socket()
        client.connect(("127.0.0.1", port))
        clients.append(client)
    turns = 0
    while len(made) < WAITING and turns < limit:
        await asyncio.sleep(0)
        turns += 1
    for client in clients:
        client.close()
    for transport in made:
        transport.close()
    server.close()
    await server.wait_closed()
    return turns, len(made)


def test_every_waiting_connection_is_accepted_in_a_few_turns() -> None:
    turns, served = asyncio.Runner(loop_factory=Loop).run(turns_to_accept(Loop, 50))
    assert served == WAITING and turns < 10


def test_plain_uvloop_accepts_one_connection_a_turn() -> None:
    # why the server has a loop of its own: with uvloop's, a busy loop (a turn of 10-100 ms)
    # accepts 10-100 connections a second
    turns, served = asyncio.Runner(loop_factory=uvloop.Loop).run(turns_to_accept(uvloop.Loop, 50))
    assert served < WAITING and turns == 50


def test_a_connection_is_served_and_closing_stops_accepting() -> None:
    async def main() -> None:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(await reader.readline())
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"ping\n")
        assert await reader.readline() == b"ping\n"
        writer.close()
        server.close()
        await server.wait_closed()
        try:
            await asyncio.open_connection("127.0.0.1", port)
        except ConnectionRefusedError:
            return
        raise AssertionError("a closed server still accepted a connection")

    asyncio.Runner(loop_factory=Loop).run(main())


def test_out_of_file_descriptors_pauses_accepting_then_resumes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_loop, "RESOURCE_PAUSE", 0.2)
    accept = socket.socket.accept
    failures = [OSError(errno.EMFILE, "Too many open files")]

    def short_of_descriptors(self: socket.socket) -> tuple[socket.socket, Any]:
        if failures:
            raise failures.pop()
        return accept(self)

    monkeypatch.setattr(socket.socket, "accept", short_of_descriptors)

    async def main() -> None:
        made: list[asyncio.BaseTransport] = []

        class Counting(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                made.append(transport)

        loop = asyncio.get_running_loop()
        server = await loop.create_server(Counting, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        client = socket.socket()
        client.connect(("127.0.0.1", port))
        started = loop.time()
        for _ in range(100):  # the first accept fails: the connection waits out the pause
            await asyncio.sleep(0.01)
            if made:
                break
        assert not failures and len(made) == 1
        assert loop.time() - started >= 0.15  # (not retried at once, in a busy loop)
        client.close()
        made[0].close()
        server.close()
        await server.wait_closed()

    asyncio.Runner(loop_factory=Loop).run(main())

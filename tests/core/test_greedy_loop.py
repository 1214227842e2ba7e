"""uvloop with a greedy accept (hakiki.core.greedy_loop): a burst of connections is taken in
one turn of the loop, each becomes an ordinary transport, and nothing leaks."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from collections.abc import Callable
from typing import Any

import pytest
import uvloop

from hakiki.core import greedy_loop
from hakiki.core.greedy_loop import GreedyAcceptLoop, GreedyServer

BURST = 48
TURNS = 12


class Echo(asyncio.Protocol):
    """Records that it was made, and echoes what it receives."""

    def __init__(self, made: list[Echo]) -> None:
        made.append(self)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)  # type: ignore[attr-defined]


def run(loop_factory: Callable[[], asyncio.AbstractEventLoop], main: Any) -> Any:
    loop = loop_factory()
    try:
        return loop.run_until_complete(main())
    finally:
        loop.close()


def accepted_within_turns(loop_factory: Callable[[], asyncio.AbstractEventLoop]) -> int:
    """How many of a burst of connections, all waiting in the kernel's queue, a server has
    taken after a few turns of its loop."""

    async def main() -> int:
        loop = asyncio.get_running_loop()
        made: list[Echo] = []
        server = await loop.create_server(lambda: Echo(made), "127.0.0.1", 0, backlog=128)
        port = server.sockets[0].getsockname()[1]
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(BURST)]
        try:
            for _ in range(TURNS):
                await asyncio.sleep(0)
            return len(made)
        finally:
            for client in clients:
                client.close()
            server.close()
            await server.wait_closed()

    return int(run(loop_factory, main))


def test_a_burst_of_connections_is_accepted_in_a_few_turns_of_the_loop() -> None:
    assert accepted_within_turns(greedy_loop.new_event_loop) == BURST


def test_plain_uvloop_takes_one_connection_a_turn_which_is_why_this_loop_exists() -> None:
    assert accepted_within_turns(uvloop.new_event_loop) <= TURNS


def test_connections_carry_data_and_close_without_leaking_descriptors() -> None:
    async def main() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        made: list[Echo] = []
        server = await loop.create_server(lambda: Echo(made), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]

        async def one(n: int) -> None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"ping {n}".encode())
            assert await reader.readexactly(len(f"ping {n}")) == f"ping {n}".encode()
            writer.close()
            await writer.wait_closed()

        await one(0)
        before = len(os.listdir("/proc/self/fd"))
        for batch in range(10):
            await asyncio.gather(*(one(batch * 20 + n) for n in range(20)))
        for _ in range(20):
            await asyncio.sleep(0.01)
            if len(os.listdir("/proc/self/fd")) <= before:
                break
        after = len(os.listdir("/proc/self/fd"))
        server.close()
        await server.wait_closed()
        return len(made), after - before

    made, leaked = run(greedy_loop.new_event_loop, main)
    assert made == 201
    assert leaked <= 0


def test_closing_stops_accepting_and_frees_the_port() -> None:
    async def main() -> int:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: Echo([]), "127.0.0.1", 0)
        port = int(server.sockets[0].getsockname()[1])
        assert server.is_serving()
        server.close()
        await server.wait_closed()
        assert not server.is_serving()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2)
        return port

    port = run(greedy_loop.new_event_loop, main)
    with socket.socket() as again:  # SO_REUSEADDR: the port is free at once
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))


def test_a_socket_given_by_the_caller_is_served_greedily() -> None:
    async def main() -> int:
        loop = asyncio.get_running_loop()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        made: list[Echo] = []
        server = await loop.create_server(lambda: Echo(made), sock=listener)
        assert isinstance(server, GreedyServer)
        port = listener.getsockname()[1]
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
        for _ in range(TURNS):
            await asyncio.sleep(0)
        for client in clients:
            client.close()
        server.close()
        await server.wait_closed()
        return len(made)

    assert run(greedy_loop.new_event_loop, main) == 10


def test_tls_servers_keep_uvloops_own_accept() -> None:
    import ssl

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server = await loop.create_server(lambda: Echo([]), "127.0.0.1", 0, ssl=context)
        greedy = isinstance(server, GreedyServer)
        server.close()
        await server.wait_closed()
        return greedy

    assert run(greedy_loop.new_event_loop, main) is False


class ExhaustedListener:
    """A listening socket whose accept fails as when the process has no descriptors left."""

    def __init__(self) -> None:
        self.calls = 0

    def accept(self) -> tuple[socket.socket, Any]:
        self.calls += 1
        raise OSError(errno.EMFILE, "Too many open files")


def test_out_of_descriptors_pauses_accepting_then_resumes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(greedy_loop, "ACCEPT_RETRY_SECONDS", 0.05)

    async def main() -> tuple[bool, bool, int]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, GreedyAcceptLoop)
        server = await loop.create_server(lambda: Echo([]), "127.0.0.1", 0)
        assert isinstance(server, GreedyServer)
        exhausted = ExhaustedListener()
        server._accept(exhausted)  # type: ignore[arg-type]
        paused = not server.is_serving()
        await asyncio.sleep(0.2)
        resumed = server.is_serving()
        server.close()
        await server.wait_closed()
        return paused, resumed, exhausted.calls

    paused, resumed, calls = run(greedy_loop.new_event_loop, main)
    assert paused and resumed
    assert calls == 1  # no spinning on the error

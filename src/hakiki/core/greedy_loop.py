"""uvloop with a greedy accept: the event loop one `hakiki serve` process runs on.

uvloop is the faster loop for Hakiki (a sandbox call costs about a third less CPU than on
asyncio's), but libuv accepts one connection per turn of the loop (libuv#3696). A server
whose turns take tens of milliseconds under load then leaves a burst of new connections
waiting in the kernel's queue for up to a second (docs/benchmarks.md, the sandbox tail).
:class:`GreedyAcceptLoop` is uvloop with its plain-TCP servers accepting every connection
waiting when the listening socket is readable, as asyncio's loop does; each accepted socket
becomes an ordinary uvloop transport (``connect_accepted_socket``).

Several processes sharing one listening socket keep uvloop's one-at-a-time accept: there it
spreads a burst over the processes instead of letting the first one awake take it all.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any

import uvloop

logger = logging.getLogger("hakiki.serve")

# The errors that mean "out of descriptors or memory for now": stop accepting for a moment
# rather than spin (asyncio's loop does the same).
_RESOURCE_ERRORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_RETRY_SECONDS = 1.0


class GreedyAcceptLoop(uvloop.Loop):
    """uvloop whose TCP servers without TLS accept greedily (see the module's docstring)."""

    async def create_server(  # type: ignore[override]
        self,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        host: str | list[str] | None = None,
        port: int | None = None,
        *,
        sock: socket.socket | None = None,
        backlog: int = 100,
        ssl: Any = None,
        **options: Any,
    ) -> asyncio.AbstractServer:
        if ssl is not None or options.get("reuse_port") or options.get("start_serving") is False:
            create: Any = super().create_server  # uvloop's stubs overload it by argument
            server: asyncio.AbstractServer = await create(
                protocol_factory, host, port, sock=sock, backlog=backlog, ssl=ssl, **options
            )
            return server
        sockets = [sock] if sock is not None else _bound(host, port)
        greedy = GreedyServer(self, protocol_factory, sockets, backlog)
        greedy.start()
        return greedy


def new_event_loop() -> GreedyAcceptLoop:
    """The loop factory uvicorn's ``loop`` setting names (settings.GREEDY_UVLOOP)."""
    return GreedyAcceptLoop()


def _bound(host: str | list[str] | None, port: int | None) -> list[socket.socket]:
    """Listening sockets for every address ``host`` resolves to (all of them for None)."""
    hosts: Iterable[str | None] = [host] if host is None or isinstance(host, str) else host
    seen: set[tuple[int, Any]] = set()
    sockets: list[socket.socket] = []
    try:
        for name in hosts:
            for family, kind, proto, _, address in socket.getaddrinfo(
                name, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            ):
                if (family, address) in seen:
                    continue
                seen.add((family, address))
                listener = socket.socket(family, kind, proto)
                sockets.append(listener)
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                listener.bind(address)
    except OSError:
        for listener in sockets:
            listener.close()
        raise
    return sockets


class GreedyServer(asyncio.AbstractServer):
    """Listening sockets whose readiness accepts every waiting connection (up to ``backlog``
    per turn), each handed to uvloop as a transport of its own."""

    def __init__(
        self,
        loop: GreedyAcceptLoop,
        protocol_factory: Callable[[], asyncio.BaseProtocol],
        sockets: list[socket.socket],
        backlog: int,
    ) -> None:
        self._loop = loop
        self._protocol_factory = protocol_factory
        self._sockets = sockets
        self._backlog = backlog
        self._serving = False
        self._opening: set[asyncio.Task[Any]] = set()
        self._closed = asyncio.Event()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    def start(self) -> None:
        for listener in self._sockets:
            listener.setblocking(False)
            listener.listen(self._backlog)
        self._watch()

    def _watch(self) -> None:
        if self._closed.is_set():
            return
        self._serving = True
        for listener in self._sockets:
            self._loop.add_reader(listener.fileno(), self._accept, listener)

    def _unwatch(self) -> None:
        self._serving = False
        for listener in self._sockets:
            self._loop.remove_reader(listener.fileno())

    def _accept(self, listener: socket.socket) -> None:
        for _ in range(self._backlog):
            try:
                connection, _address = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue  # the client gave up while it waited in the queue
            except OSError as exc:
                if exc.errno not in _RESOURCE_ERRORS:
                    raise
                logger.error("cannot accept a connection (%s); retrying in a second", exc)
                self._unwatch()
                self._loop.call_later(ACCEPT_RETRY_SECONDS, self._watch)
                return
            self._open(connection)

    def _open(self, connection: socket.socket) -> None:
        connection.setblocking(False)
        task = self._loop.create_task(
            self._loop.connect_accepted_socket(self._protocol_factory, connection)
        )
        self._opening.add(task)
        task.add_done_callback(lambda done: self._opened(done, connection))

    def _opened(self, task: asyncio.Task[Any], connection: socket.socket) -> None:
        self._opening.discard(task)
        if task.cancelled() or task.exception() is not None:
            connection.close()
            if not task.cancelled():
                logger.warning("could not open an accepted connection: %s", task.exception())

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._unwatch()
        for listener in self._sockets:
            listener.close()
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        if self._opening:
            await asyncio.gather(*self._opening, return_exceptions=True)

    async def start_serving(self) -> None:
        if not self._serving:
            self._watch()

    async def serve_forever(self) -> None:
        await self.start_serving()
        await self._closed.wait()

    def close_clients(self) -> None:
        """Open connections belong to the server's protocol (uvicorn closes its own)."""

    def abort_clients(self) -> None:
        """As close_clients."""

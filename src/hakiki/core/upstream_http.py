"""A lean HTTP/1.1 transport for httpx, for calls to upstream registries on the hot path.

httpx's own pool (httpcore 1.0) scans every pooled connection twice per request, with a
``poll`` system call and a fresh attribute dictionary for each idle one, and writes a request's
head and body as two sends: with 64 calls in flight that was about 1 ms of the event loop per
upstream call, more than the rest of a live combined screening (docs/benchmarks.md). This
transport keeps idle connections in a last-in-first-out stack per origin (O(1) per request),
writes each request in one send and parses responses with httptools (the C parser uvicorn
uses). It speaks what the registries' JSON APIs need: HTTP/1.1, keep-alive, Content-Length or
chunked bodies, TLS with certifi's roots like httpx. Errors and time-outs are raised as httpx's
own exceptions, so callers handle them as before. With a proxy configured in the environment,
``upstream_client`` uses httpx's default transport instead (which honours it).
"""

from __future__ import annotations

import asyncio
import ssl
import time
import urllib.request
from collections import defaultdict, deque
from typing import Any, cast

import certifi
import httptools
import httpx

KEEPALIVE_SECONDS = 5.0  # as httpx: servers close idle connections after a few seconds
MAX_CONNECTIONS = 100  # per transport, as httpx's default pool


def upstream_client(timeout: httpx.Timeout | float) -> httpx.AsyncClient:
    """An AsyncClient for an upstream registry's API: the lean transport, unless a proxy is
    configured (then httpx's, which honours it)."""
    if set(urllib.request.getproxies()) - {"no"}:  # NO_PROXY alone configures no proxy
        return httpx.AsyncClient(timeout=timeout)
    return httpx.AsyncClient(timeout=timeout, transport=UpstreamTransport())


class _Connection(asyncio.Protocol):
    """One keep-alive connection; one request at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self._parser = httptools.HttpResponseParser(self)
        self._waiter: asyncio.Future[None] | None = None
        self._reset()

    def _reset(self) -> None:
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.keep_alive = False
        self._started = False

    async def exchange(self, data: bytes) -> None:
        """Send a request and wait for its whole response (``status``, ``headers``, ``body``)."""
        assert self.transport is not None
        self._reset()
        self._waiter = asyncio.get_running_loop().create_future()
        self.transport.write(data)
        try:
            await self._waiter
        finally:
            self._waiter = None

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def _fail(self, error: Exception) -> None:
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass of it

    def data_received(self, data: bytes) -> None:
        if self._waiter is None:  # bytes nobody asked for: the connection cannot be trusted
            self.close()
            return
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(httpx.RemoteProtocolError(f"malformed response: {error}"))
            self.close()

    def eof_received(self) -> bool | None:
        if self.status and not self._framed():  # a body that ends with the connection
            self.keep_alive = False
            self.on_message_complete()
            return None
        self._fail(
            httpx.RemoteProtocolError(
                "server closed the connection mid-response"
                if self._started
                else "server disconnected without sending a response"
            )
        )
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(httpx.ReadError(str(exc) if exc else "connection lost"))

    def _framed(self) -> bool:
        return any(n.lower() in (b"content-length", b"transfer-encoding") for n, _ in self.headers)

    # httptools callbacks
    def on_message_begin(self) -> None:
        self._started = True

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        self.status = self._parser.get_status_code()
        self.keep_alive = self._parser.should_keep_alive()

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


class UpstreamTransport(httpx.AsyncBaseTransport):
    def __init__(self, max_connections: int = MAX_CONNECTIONS) -> None:
        self._idle: defaultdict[tuple[str, str, int], deque[_Connection]] = defaultdict(deque)
        self._slots = asyncio.BoundedSemaphore(max_connections)
        self._ssl: ssl.SSLContext | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeouts: dict[str, float | None] = request.extensions.get("timeout", {})
        url = request.url
        scheme = url.scheme
        if scheme not in ("http", "https") or not url.host:
            raise httpx.UnsupportedProtocol(f"cannot send to {url}")
        port = url.port or (443 if scheme == "https" else 80)
        origin = (scheme, url.host, port)
        body = await request.aread()
        head = [request.method.encode(), b" ", url.raw_path, b" HTTP/1.1\r\n"]
        for name, value in request.headers.raw:
            head += [name, b": ", value, b"\r\n"]
        data = b"".join([*head, b"\r\n", body])

        try:
            await asyncio.wait_for(self._slots.acquire(), timeouts.get("pool"))
        except TimeoutError:
            raise httpx.PoolTimeout("no upstream connection free", request=request) from None
        try:
            conn = self._take_idle(origin) or await self._connect(origin, timeouts, request)
            try:
                await asyncio.wait_for(conn.exchange(data), timeouts.get("read"))
            except TimeoutError:
                conn.close()
                raise httpx.ReadTimeout(
                    "upstream did not answer in time", request=request
                ) from None
            except BaseException:
                conn.close()
                raise
        finally:
            self._slots.release()
        if conn.keep_alive and not conn.closed:
            conn.idle_since = time.monotonic()
            self._idle[origin].append(conn)
        else:
            conn.close()
        return httpx.Response(
            conn.status,
            headers=conn.headers,
            stream=httpx.ByteStream(b"".join(conn.body)),
            request=request,
            extensions={"http_version": b"HTTP/1.1"},
        )

    def _take_idle(self, origin: tuple[str, str, int]) -> _Connection | None:
        stack = self._idle.get(origin)
        now = time.monotonic()
        while stack:
            conn = stack.pop()
            if not conn.closed and now - conn.idle_since < KEEPALIVE_SECONDS:
                return conn
            conn.close()
        return None

    async def _connect(
        self, origin: tuple[str, str, int], timeouts: dict[str, Any], request: httpx.Request
    ) -> _Connection:
        scheme, host, port = origin
        tls: dict[str, Any] = {}
        if scheme == "https":
            tls = {"ssl": self._tls(), "server_hostname": host}
        loop = asyncio.get_running_loop()
        try:
            _, conn = await asyncio.wait_for(
                loop.create_connection(_Connection, host, port, **tls), timeouts.get("connect")
            )
        except TimeoutError:
            raise httpx.ConnectTimeout(f"could not connect to {host}", request=request) from None
        except (OSError, ssl.SSLError) as error:
            raise httpx.ConnectError(str(error), request=request) from error
        return conn

    def _tls(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context(cafile=certifi.where())
        return self._ssl

    async def aclose(self) -> None:
        for stack in self._idle.values():
            while stack:
                stack.pop().close()


__all__ = ["UpstreamTransport", "upstream_client"]

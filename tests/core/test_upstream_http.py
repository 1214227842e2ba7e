"""The lean upstream transport against a raw local server: keep-alive reuse, every body framing,
and each upstream failure raised as httpx's own exception (the providers' error handling)."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import AsyncIterator

import httpx
import pytest
import uvloop

from hakiki.core.upstream_http import UpstreamTransport, upstream_client

JSON = b'{"ok": true}'


def reply(body: bytes, *, extra: bytes = b"", length: bool = True) -> bytes:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra
    if length:
        head += b"Content-Length: %d\r\n" % len(body)
    return head + b"\r\n" + body


class Upstream:
    """A scripted HTTP/1.1 server: the request path picks the behaviour."""

    def __init__(self) -> None:
        self.connections = 0
        self.requests: list[bytes] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                body = await reader.readexactly(length)
                self.requests.append(head + body)
                path = head.split(b" ")[1]
                if path == b"/slow":
                    await asyncio.sleep(5)
                if path == b"/drop":
                    break
                if path == b"/garbage":
                    writer.write(b"NOT HTTP AT ALL\r\n\r\n")
                elif path == b"/chunked":
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        b'5\r\n{"ok"\r\n7\r\n: true}\r\n0\r\n\r\n'
                    )
                elif path == b"/gzip":
                    writer.write(reply(gzip.compress(JSON), extra=b"Content-Encoding: gzip\r\n"))
                elif path == b"/until-close":
                    writer.write(reply(JSON, extra=b"Connection: close\r\n", length=False))
                    await writer.drain()
                    break
                elif path == b"/close":
                    writer.write(reply(JSON, extra=b"Connection: close\r\n"))
                    await writer.drain()
                    break
                else:
                    writer.write(reply(JSON))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def upstream() -> AsyncIterator[tuple[Upstream, str]]:
    fake = Upstream()
    server = await asyncio.start_server(fake.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    yield fake, f"http://127.0.0.1:{port}"
    server.close()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=2, transport=UpstreamTransport()) as http:
        yield http


async def test_keep_alive_reuses_one_connection_and_sends_the_body(
    upstream: tuple[Upstream, str], client: httpx.AsyncClient
) -> None:
    fake, url = upstream
    for n in range(3):
        response = await client.post(f"{url}/ok", json={"n": n}, headers={"x-api-key": "k"})
        assert response.status_code == 200 and response.json() == {"ok": True}
    assert fake.connections == 1
    assert fake.requests[2].startswith(b"POST /ok HTTP/1.1\r\n")
    assert b"x-api-key: k\r\n" in fake.requests[2] and fake.requests[2].endswith(b'{"n":2}')


@pytest.mark.parametrize("path", ["/chunked", "/gzip", "/until-close", "/close"])
async def test_every_body_framing_is_read(
    upstream: tuple[Upstream, str], client: httpx.AsyncClient, path: str
) -> None:
    _, url = upstream
    assert (await client.get(url + path)).json() == {"ok": True}
    assert (await client.get(url + "/ok")).json() == {"ok": True}  # works after a close too


async def test_concurrent_calls_each_get_their_own_answer(
    upstream: tuple[Upstream, str], client: httpx.AsyncClient
) -> None:
    fake, url = upstream
    responses = await asyncio.gather(*(client.get(f"{url}/ok") for _ in range(20)))
    assert all(r.json() == {"ok": True} for r in responses)
    assert fake.connections <= 20
    await asyncio.gather(*(client.get(f"{url}/ok") for _ in range(20)))
    assert fake.connections <= 20  # the second wave reused them


async def test_failures_are_httpx_errors_and_poison_no_connection(
    upstream: tuple[Upstream, str],
) -> None:
    fake, url = upstream
    async with httpx.AsyncClient(timeout=0.3, transport=UpstreamTransport()) as client:
        with pytest.raises(httpx.ReadTimeout):
            await client.get(f"{url}/slow")
        with pytest.raises(httpx.RemoteProtocolError):
            await client.get(f"{url}/drop")
        with pytest.raises(httpx.RemoteProtocolError):
            await client.get(f"{url}/garbage")
        task = asyncio.create_task(client.get(f"{url}/slow"))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        before = fake.connections
        assert (await client.get(f"{url}/ok")).json() == {"ok": True}
        assert fake.connections == before + 1  # none of the broken ones was reused


async def test_an_unreachable_upstream_is_a_connect_error() -> None:
    async with httpx.AsyncClient(timeout=1, transport=UpstreamTransport()) as client:
        with pytest.raises(httpx.ConnectError):
            await client.get("http://127.0.0.1:1/")
        with pytest.raises(httpx.UnsupportedProtocol):
            await client.get("ftp://127.0.0.1/")


def test_under_uvloop_as_the_server_runs_it() -> None:
    async def main() -> list[object]:
        fake = Upstream()
        server = await asyncio.start_server(fake.handle, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/ok"
        async with httpx.AsyncClient(timeout=2, transport=UpstreamTransport()) as client:
            responses = await asyncio.gather(*(client.get(url) for _ in range(10)))
        server.close()
        return [r.json() for r in responses]

    assert uvloop.run(main()) == [{"ok": True}] * 10


async def test_a_proxy_in_the_environment_gets_httpx_own_transport(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "example.org")
    async with upstream_client(1) as lean:
        assert isinstance(lean._transport, UpstreamTransport)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    async with upstream_client(1) as proxied:
        assert not isinstance(proxied._transport, UpstreamTransport)

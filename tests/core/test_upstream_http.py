"""The upstream client (aiohttp) against a raw local server: keep-alive reuse, every body
framing, the answer's size cap, proxies from the environment, and each upstream failure raised
as UpstreamTimeout or UpstreamUnreachable naming its cause (the providers' error handling)."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import AsyncIterator

import pytest
import uvloop

from hakiki.core import upstream_http
from hakiki.core.upstream_http import UpstreamClient, UpstreamTimeout, UpstreamUnreachable

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
                elif path == b"/huge":
                    writer.write(reply(b"x" * 5000))
                elif path == b"/huge-chunked":
                    chunk = b"x" * 1000
                    writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                    writer.write((b"3e8\r\n" + chunk + b"\r\n") * 5 + b"0\r\n\r\n")
                elif path == b"/gzip-bomb":
                    bomb = gzip.compress(b" " * 100_000)
                    writer.write(reply(bomb, extra=b"Content-Encoding: gzip\r\n"))
                elif path == b"/status-503":
                    writer.write(reply(JSON).replace(b"200 OK", b"503 Service Unavailable"))
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
async def client() -> AsyncIterator[UpstreamClient]:
    http = UpstreamClient(timeout=2)
    yield http
    await http.aclose()


async def test_keep_alive_reuses_one_connection_and_sends_the_body(
    upstream: tuple[Upstream, str], client: UpstreamClient
) -> None:
    fake, url = upstream
    for n in range(3):
        answer = await client.post_json(f"{url}/ok", {"n": n}, headers={"x-api-key": "k"})
        assert answer.status_code == 200 and answer.json() == {"ok": True}
    assert fake.connections == 1
    request = fake.requests[2].lower()
    assert request.startswith(b"post /ok http/1.1\r\n")
    assert b"x-api-key: k\r\n" in request and b"content-type: application/json" in request
    assert fake.requests[2].endswith(b'{"n":2}')


@pytest.mark.parametrize("path", ["/chunked", "/gzip", "/until-close", "/close"])
async def test_every_body_framing_is_read(
    upstream: tuple[Upstream, str], client: UpstreamClient, path: str
) -> None:
    _, url = upstream
    assert (await client.post_json(url + path, {}, {})).json() == {"ok": True}
    assert (await client.post_json(url + "/ok", {}, {})).json() == {"ok": True}  # after a close


async def test_any_status_is_an_answer(
    upstream: tuple[Upstream, str], client: UpstreamClient
) -> None:
    _, url = upstream
    answer = await client.post_json(url + "/status-503", {}, {})
    assert answer.status_code == 503 and answer.json() == {"ok": True}


async def test_concurrent_calls_each_get_their_own_answer(
    upstream: tuple[Upstream, str], client: UpstreamClient
) -> None:
    fake, url = upstream
    answers = await asyncio.gather(*(client.post_json(f"{url}/ok", {}, {}) for _ in range(20)))
    assert all(a.json() == {"ok": True} for a in answers)
    assert fake.connections <= 20
    await asyncio.gather(*(client.post_json(f"{url}/ok", {}, {}) for _ in range(20)))
    assert fake.connections <= 20  # the second wave reused them


@pytest.mark.parametrize("path", ["/huge", "/huge-chunked", "/gzip-bomb"])
async def test_an_answer_over_the_cap_is_refused_whatever_its_framing(
    upstream: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    _, url = upstream
    monkeypatch.setattr(upstream_http, "MAX_ANSWER_BYTES", 4096)
    client = UpstreamClient(timeout=2)
    try:
        with pytest.raises(UpstreamUnreachable) as refused:
            await client.post_json(url + path, {}, {})
        assert refused.value.cause == "AnswerTooLarge"
        assert (await client.post_json(url + "/ok", {}, {})).json() == {"ok": True}
    finally:
        await client.aclose()


async def test_failures_name_their_cause_and_poison_no_connection(
    upstream: tuple[Upstream, str],
) -> None:
    fake, url = upstream
    client = UpstreamClient(timeout=0.3)
    try:
        with pytest.raises(UpstreamTimeout, match=r"0\.3s"):
            await client.post_json(f"{url}/slow", {}, {})
        with pytest.raises(UpstreamUnreachable) as dropped:
            await client.post_json(f"{url}/drop", {}, {})
        assert dropped.value.cause == "ServerDisconnectedError"
        with pytest.raises(UpstreamUnreachable) as garbage:
            await client.post_json(f"{url}/garbage", {}, {})
        assert not isinstance(garbage.value, UpstreamTimeout)
        task = asyncio.create_task(client.post_json(f"{url}/slow", {}, {}))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        before = fake.connections
        assert (await client.post_json(f"{url}/ok", {}, {})).json() == {"ok": True}
        assert fake.connections == before + 1  # none of the broken ones was reused
    finally:
        await client.aclose()


async def test_a_call_can_have_a_timeout_of_its_own(upstream: tuple[Upstream, str]) -> None:
    _, url = upstream
    client = UpstreamClient(timeout=30)
    try:
        with pytest.raises(UpstreamTimeout, match=r"0\.2s"):
            await client.post_json(f"{url}/slow", {}, {}, within=0.2)
    finally:
        await client.aclose()


async def test_an_unreachable_upstream_is_named() -> None:
    client = UpstreamClient(timeout=1)
    try:
        with pytest.raises(UpstreamUnreachable) as refused:
            await client.post_json("http://127.0.0.1:1/", {}, {})
        assert refused.value.cause == "ClientConnectorError"
        with pytest.raises(UpstreamUnreachable):
            await client.post_json("ftp://127.0.0.1/", {}, {})
    finally:
        await client.aclose()


async def test_a_closed_client_refuses_work() -> None:
    client = UpstreamClient(timeout=1)
    await client.aclose()
    assert client.is_closed
    with pytest.raises(RuntimeError, match="closed"):
        await client.post_json("http://127.0.0.1:1/", {}, {})


@pytest.mark.processes
def test_under_uvloop_as_several_server_processes_run_it() -> None:
    async def main() -> list[object]:
        fake = Upstream()
        server = await asyncio.start_server(fake.handle, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/ok"
        client = UpstreamClient(timeout=2)
        answers = await asyncio.gather(*(client.post_json(url, {}, {}) for _ in range(10)))
        await client.aclose()
        server.close()
        return [a.json() for a in answers]

    assert uvloop.run(main()) == [{"ok": True}] * 10


async def test_a_proxy_in_the_environment_is_used(
    upstream: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scripted server stands in for the proxy: the request reaches it in absolute form."""
    fake, proxy = upstream
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", proxy)
    client = UpstreamClient(timeout=2)
    try:
        answer = await client.post_json("http://registry.invalid/ok", {}, {})
    finally:
        await client.aclose()
    assert answer.json() == {"ok": True}
    assert fake.requests[-1].startswith(b"POST http://registry.invalid/ok HTTP/1.1")


async def test_no_proxy_bypasses_the_proxy(
    upstream: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, url = upstream
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:1")  # nothing listens there
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    client = UpstreamClient(timeout=2)
    try:
        assert (await client.post_json(url + "/ok", {}, {})).json() == {"ok": True}
    finally:
        await client.aclose()
    assert fake.requests[-1].startswith(b"POST /ok HTTP/1.1")

"""The HTTP client for upstream registries on the hot path (Prembly, Smile ID): aiohttp.

A live combined screening makes one upstream call; with httpx that call cost more of the event
loop than the rest of the request: its client layer (request building, URL and header merging,
a cookie jar consulted on every response) was about a fifth of the server's CPU, and its pool
(httpcore) checked every pooled connection on each request (docs/benchmarks.md). aiohttp's
client parses in C, pools keep-alive connections per origin, and here has no cookie jar.

    client = UpstreamClient(timeout=10.0)
    answer = await client.post_json(url, {"number": "..."}, headers={"x-api-key": "..."})
    answer.status_code, answer.json()

Failures are raised as :class:`UpstreamTimeout` (no answer within the timeout) or
:class:`UpstreamUnreachable` (refused, reset, a malformed answer, an answer over
``MAX_ANSWER_BYTES``), each naming the cause, so a provider tells "slow" from "down". Proxies
in the environment (``HTTPS_PROXY``, ``NO_PROXY``) are honoured, looked up once per origin
(aiohttp's ``trust_env`` reads the environment and ~/.netrc on every request: with it a live
call cost 30% more CPU than with httpx); TLS uses certifi's roots.
"""

from __future__ import annotations

import ssl
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import certifi
import orjson

if TYPE_CHECKING:
    import aiohttp

MAX_CONNECTIONS = 100  # per client, as httpx's default pool
MAX_ANSWER_BYTES = 8 * 1024 * 1024  # a registry's JSON answer is a few kilobytes
_CHUNK = 64 * 1024


class UpstreamUnreachable(Exception):
    """The upstream could not be asked or its answer could not be read; ``cause`` names why."""

    def __init__(self, cause: str, detail: str = "") -> None:
        super().__init__(f"{cause}: {detail}" if detail else cause)
        self.cause = cause


class UpstreamTimeout(UpstreamUnreachable):
    """No whole answer within the client's timeout."""


@dataclass(frozen=True, slots=True)
class UpstreamAnswer:
    status_code: int
    content: bytes

    def json(self) -> Any:
        """The body as JSON; ValueError when it is not JSON."""
        return orjson.loads(self.content)


class UpstreamClient:
    """One pool of keep-alive connections; open it in the event loop that uses it (the
    session is made on the first call). ``timeout`` bounds each call from start to the last
    byte of the answer."""

    def __init__(self, timeout: float, *, max_connections: int = MAX_CONNECTIONS) -> None:
        self.timeout = timeout
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None
        self._closed = False
        self._proxies: dict[tuple[str, str], str | None] = {}

    @property
    def is_closed(self) -> bool:
        return self._closed

    def _open(self) -> aiohttp.ClientSession:
        if self._closed:
            raise RuntimeError("this upstream client is closed")
        if self._session is None:
            import aiohttp  # imported by the first upstream call, not by every process's start

            tls = ssl.create_default_context(cafile=certifi.where())
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections, ssl=tls),
                cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=self.timeout),
                trust_env=False,  # read per request, it was a tenth of a call: see _proxy
                json_serialize=lambda value: orjson.dumps(value).decode(),
                auto_decompress=True,
            )
        return self._session

    async def post_json(
        self, url: str, body: Any, headers: dict[str, str], *, within: float | None = None
    ) -> UpstreamAnswer:
        """POST ``body`` as JSON and read the whole answer (any status); ``within`` seconds
        replaces the client's timeout for this call."""
        return await self._send("POST", url, headers, within, json=body)

    async def get(
        self,
        url: str,
        params: dict[str, str],
        headers: dict[str, str],
        *,
        within: float | None = None,
    ) -> UpstreamAnswer:
        """GET ``url`` with the query ``params`` and read the whole answer (any status)."""
        return await self._send("GET", url, headers, within, params=params)

    async def _send(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        within: float | None,
        **request: Any,
    ) -> UpstreamAnswer:
        session = self._open()
        import aiohttp  # loaded by _open: a look-up in sys.modules

        seconds = self.timeout if within is None else within
        options: dict[str, Any] = dict(request)
        if seconds != self.timeout:
            options["timeout"] = aiohttp.ClientTimeout(total=seconds)
        proxy = self._proxy(url)
        if proxy is not None:
            options["proxy"] = proxy
        try:
            async with session.request(method, url, headers=headers, **options) as response:
                return UpstreamAnswer(response.status, await _bounded_body(response))
        except TimeoutError:
            raise UpstreamTimeout("timeout", f"no answer within {seconds:g}s") from None
        except aiohttp.ClientError as error:
            raise UpstreamUnreachable(type(error).__name__, str(error)) from error
        except OSError as error:
            raise UpstreamUnreachable(type(error).__name__, str(error)) from error

    def _proxy(self, url: str) -> str | None:
        """The environment's proxy for ``url``'s origin (HTTP(S)_PROXY, ALL_PROXY, NO_PROXY),
        looked up once per origin."""
        parts = urlsplit(url)
        origin = (parts.scheme, parts.netloc)
        if origin not in self._proxies:
            proxies = urllib.request.getproxies()
            bypass = parts.hostname is not None and urllib.request.proxy_bypass(parts.hostname)
            chosen = proxies.get(parts.scheme) or proxies.get("all")
            self._proxies[origin] = None if bypass else chosen
        return self._proxies[origin]

    async def aclose(self) -> None:
        self._closed = True
        if self._session is not None:
            await self._session.close()
            self._session = None


async def _bounded_body(response: aiohttp.ClientResponse) -> bytes:
    declared = response.content_length
    if declared is not None and declared > MAX_ANSWER_BYTES:
        raise UpstreamUnreachable("AnswerTooLarge", f"{declared} bytes declared")
    if declared is not None and "Content-Encoding" not in response.headers:
        return await response.read()  # no decompression: the declared size is the size
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_chunked(_CHUNK):
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise UpstreamUnreachable("AnswerTooLarge", f"over {MAX_ANSWER_BYTES} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


__all__ = ["UpstreamAnswer", "UpstreamClient", "UpstreamTimeout", "UpstreamUnreachable"]

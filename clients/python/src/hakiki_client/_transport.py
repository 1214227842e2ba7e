"""The HTTP side of the client: authentication, idempotency keys, retries with backoff, errors.

Every POST carries an ``Idempotency-Key`` (yours, or one made per call), so a retry after a
timeout or a 5xx can never run or charge the call twice: the server replays its first answer.
429 is retried after ``Retry-After``; 500, 502, 503 (except ``channel_unavailable``, which
does not pass with time) and 504, and connection failures, after an exponential backoff with
jitter. Anything else that is not 2xx raises :class:`HakikiError`.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
# A 503 that waiting does not cure: no live provider for the channel on this server.
PERMANENT_ERRORS = frozenset({"channel_unavailable"})


class HakikiError(Exception):
    """An answer that is not 2xx: the API's error envelope, read."""

    def __init__(self, status: int, body: Any, request_id: str | None) -> None:
        envelope = body if isinstance(body, dict) else {}
        self.status = status
        self.error: str = str(envelope.get("error", "http_error"))
        self.message: str = str(envelope.get("message", body))
        self.details: list[dict[str, Any]] = list(envelope.get("details") or [])
        self.request_id = request_id
        self.body = body
        super().__init__(f"{status} {self.error}: {self.message}")


@dataclass(frozen=True)
class RetryPolicy:
    """``attempts`` in all (1: never retry); the n-th retry waits a random time up to
    ``base * 2**n`` seconds, at most ``cap``; a 429 waits its ``Retry-After`` (at most
    ``cap``)."""

    attempts: int = 4
    base: float = 0.5
    cap: float = 30.0

    def delay(self, retry: int, response: httpx.Response | None) -> float:
        if response is not None and response.status_code == 429:
            try:
                return min(float(response.headers.get("Retry-After", "1")), self.cap)
            except ValueError:
                return min(1.0, self.cap)
        return random.uniform(0, min(self.cap, self.base * 2**retry))


def _retryable(response: httpx.Response) -> bool:
    if response.status_code not in RETRIED_STATUSES:
        return False
    if response.status_code == 503:
        try:
            return response.json().get("error") not in PERMANENT_ERRORS
        except ValueError:
            return True
    return True


def _result(response: httpx.Response) -> Any:
    request_id = response.headers.get("X-Request-Id")
    if response.is_success and (response.status_code == 204 or not response.content):
        return None
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    if not response.is_success:
        raise HakikiError(response.status_code, body, request_id)
    return body


@dataclass
class Request:
    method: str
    path: str
    params: Mapping[str, Any] | None = None
    json: Any = None
    data: Mapping[str, Any] | None = None
    files: Mapping[str, Any] | None = None
    content: bytes | str | None = None
    content_type: str | None = None
    idempotency_key: str | None = None

    def arguments(self, auth: str) -> dict[str, Any]:
        headers = {"Authorization": auth}
        if self.method == "POST":
            headers["Idempotency-Key"] = self.idempotency_key or f"hkc-{uuid.uuid4()}"
        if self.content_type:
            headers["Content-Type"] = self.content_type
        params = {k: v for k, v in (self.params or {}).items() if v is not None}
        out: dict[str, Any] = {"headers": headers, "params": params}
        if self.json is not None:
            out["json"] = self.json
        if self.data is not None or self.files is not None:
            out["data"] = {k: v for k, v in (self.data or {}).items() if v is not None}
            out["files"] = self.files or {}
        if self.content is not None:
            out["content"] = self.content
        return out


class _Base:
    def __init__(self, client_id: str, secret: str, retry: RetryPolicy | None) -> None:
        if not client_id or not secret:
            raise ValueError("client_id and secret are both needed (hk_test_... and hks_...)")
        self._auth = f"Bearer {client_id}:{secret}"
        self.retry = retry or RetryPolicy()


class Transport(_Base):
    """Synchronous calls over an ``httpx.Client``."""

    def __init__(
        self,
        client_id: str,
        secret: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(client_id, secret, retry)
        self._http = http or httpx.Client(base_url=base_url, timeout=timeout)
        self._sleep = sleep

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request(self, request: Request) -> Any:
        arguments = request.arguments(self._auth)  # one idempotency key for every attempt
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = self._http.request(request.method, request.path, **arguments)
            except httpx.TransportError:
                if last:
                    raise
                self._sleep(self.retry.delay(attempt, None))
                continue
            if last or not _retryable(response):
                return _result(response)
            self._sleep(self.retry.delay(attempt, response))
        raise AssertionError("unreachable")


class AsyncTransport(_Base):
    """The same over an ``httpx.AsyncClient``."""

    def __init__(
        self,
        client_id: str,
        secret: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(client_id, secret, retry)
        self._http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout)
        self._sleep = sleep

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncTransport:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def request(self, request: Request) -> Any:
        arguments = request.arguments(self._auth)
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = await self._http.request(request.method, request.path, **arguments)
            except httpx.TransportError:
                if last:
                    raise
                await self._sleep(self.retry.delay(attempt, None))
                continue
            if last or not _retryable(response):
                return _result(response)
            await self._sleep(self.retry.delay(attempt, response))
        raise AssertionError("unreachable")

"""A typed Python client of the Hakiki API.

    from hakiki_client import Hakiki

    with Hakiki("hk_test_...", "hks_...", "http://127.0.0.1:8000") as hakiki:
        answer = hakiki.post_screening_aml_with_id({"channel": "bvn", "number": "22222222200"})
        print(answer["status"])

One method per operation of the OpenAPI document (``<method>_<path>``: ``get_account_wallet``,
``post_fraud_phone``, ``get_kyc_status_by_reference(reference)``), its body and answer typed by
TypedDicts generated from the document (``hakiki_client.models``). Every POST is sent with an
Idempotency-Key (pass ``idempotency_key=`` to choose it), so retries are safe: 429 is retried
after Retry-After, 5xx and connection failures with exponential backoff (``RetryPolicy``).
Errors raise ``HakikiError`` (``status``, ``error``, ``message``, ``details``). Webhooks:
``hakiki_client.webhooks.verify``.
"""

from __future__ import annotations

from typing import Any

import httpx

from hakiki_client import _generated as models
from hakiki_client._generated import AsyncOperations, Operations
from hakiki_client._transport import (
    DEFAULT_BASE_URL,
    AsyncTransport,
    HakikiError,
    Request,
    RetryPolicy,
    Transport,
)
from hakiki_client.webhooks import WebhookVerificationError, verify

__all__ = [
    "AsyncHakiki",
    "Hakiki",
    "HakikiError",
    "RetryPolicy",
    "WebhookVerificationError",
    "models",
    "verify",
]
__version__ = "0.1.0"


class Hakiki(Operations):
    """Synchronous client: ``Hakiki(client_id, secret, base_url)``; a context manager."""

    def __init__(
        self,
        client_id: str,
        secret: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        self.transport = Transport(
            client_id, secret, base_url, timeout=timeout, retry=retry, http=http
        )

    def _send(self, request: Request) -> Any:
        return self.transport.request(request)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> Hakiki:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncHakiki(AsyncOperations):
    """Asynchronous client: the same methods, awaited; an async context manager."""

    def __init__(
        self,
        client_id: str,
        secret: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.transport = AsyncTransport(
            client_id, secret, base_url, timeout=timeout, retry=retry, http=http
        )

    async def _send(self, request: Request) -> Any:
        return await self.transport.request(request)

    async def aclose(self) -> None:
        await self.transport.aclose()

    async def __aenter__(self) -> AsyncHakiki:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

"""One delivery attempt: sign the event, POST it, log the attempt.

No transaction is open while the receiver is called (on SQLite there is one writer), so the
attempt is recorded afterwards; a process dying in between means the receiver may get the
event again, which Standard Webhooks receivers expect (they deduplicate on ``webhook-id``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import orjson

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read, transaction
from hakiki.core.ids import new_id
from hakiki.webhooks import repository
from hakiki.webhooks.signing import signed_headers
from hakiki.webhooks.urls import UrlRefused, check_public_host

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from hakiki.core.runtime import Runtime

# Seconds before the 2nd, 3rd, ... attempt (Svix's schedule): about 28 hours in all.
BACKOFF = (5, 300, 1800, 7200, 18000, 36000, 36000)
MAX_ATTEMPTS = len(BACKOFF) + 1

logger = logging.getLogger("hakiki.webhooks")


class DeliveryFailed(Exception):
    """The receiver did not answer 2xx; the job retries on the backoff schedule."""


def event_payload(event: dict[str, Any]) -> dict[str, Any]:
    """The JSON body of an event (docs/api.md, "Webhooks")."""
    payload: dict[str, Any] = {
        "id": event["event_id"],
        "type": event["type"],
        "occurred_at": as_utc(event["occurred_at"]).isoformat().replace("+00:00", "Z"),
        "sequence": event["sequence"],
    }
    if event["resource_id"] is not None:
        payload["resource_id"] = event["resource_id"]
    payload["data"] = event["data"]
    return payload


def _secrets_in_use(vault: Vault, target: dict[str, Any]) -> list[str]:
    in_use = [vault.decrypt(target["secret_encrypted"])]
    expires = target["previous_secret_expires_at"]
    if target["previous_secret_encrypted"] and expires and as_utc(expires) > utcnow():
        in_use.append(vault.decrypt(target["previous_secret_encrypted"]))
    return in_use


async def _post(
    runtime: Runtime, url: str, headers: dict[str, str], body: bytes
) -> tuple[int | None, str | None]:
    """The receiver's status code (None without an answer) and what went wrong, if anything."""
    settings = runtime.settings
    try:
        if not settings.webhooks_allow_private:  # the name may resolve elsewhere by now
            await check_public_host(urlsplit(url).hostname or "")
        client = runtime.outbound_http()
        timeout = settings.webhook_timeout_seconds
        async with client.stream(
            "POST", url, content=body, headers=headers, timeout=timeout
        ) as response:
            status = response.status_code
    except UrlRefused as exc:
        return None, f"refused: {exc}"
    except httpx.TimeoutException:
        return None, f"timed out after {settings.webhook_timeout_seconds:g} s"
    except httpx.HTTPError as exc:
        return None, f"{exc.__class__.__name__}: {exc}"[:500]
    if 200 <= status < 300:
        return status, None
    if 300 <= status < 400:
        return status, f"HTTP {status} (redirects are not followed)"
    return status, f"HTTP {status}"


async def give_up(conn: AsyncConnection, delivery_id: str, error: str) -> None:
    """End a delivery still pending whose job can no longer run (so it can be resent), in the
    transaction that ends the job."""
    logger.warning("webhook delivery %s given up: %s", delivery_id, error)
    await repository.fail_pending_delivery(conn, delivery_id, utcnow())


async def attempt_delivery(runtime: Runtime, delivery_id: str) -> None:
    """Send a pending delivery once; raise DeliveryFailed unless the receiver took it (after
    the last attempt, the job's give-up ends the delivery failed)."""
    async with read(runtime.db) as conn:
        target = await repository.delivery_target(conn, delivery_id)
    if target is None or target["status"] != "pending":
        return  # delivered or given up already: a duplicate job sends nothing
    now = utcnow()
    if target["deleted_at"] is not None:
        async with transaction(runtime.db) as conn:
            await repository.update_delivery(conn, delivery_id, status="failed", updated_at=now)
        return
    body = orjson.dumps(event_payload(target))
    headers = signed_headers(
        target["event_id"], now, body.decode(), _secrets_in_use(runtime.vault, target)
    )
    started = time.monotonic()
    status_code, error = await _post(runtime, target["url"], headers, body)
    latency_ms = round((time.monotonic() - started) * 1000)
    finished = utcnow()
    delivered = error is None
    outcome: dict[str, Any] = {
        "status": "delivered" if delivered else "pending",
        "last_attempt_at": now,
        "updated_at": finished,
    }
    if delivered:
        outcome["delivered_at"] = finished
    attempt = {
        "id": new_id("wha"),
        "delivery_id": delivery_id,
        "attempted_at": now,
        "status_code": status_code,
        "latency_ms": latency_ms,
        "error": error,
    }
    async with transaction(runtime.db) as conn:
        await repository.record_attempt(conn, attempt, outcome)
    if not delivered:
        raise DeliveryFailed(error)


TEST_EVENT = "webhook.test"


async def send_test(
    runtime: Runtime, org_id: str, environment: str, endpoint_id: str
) -> tuple[int | None, str | None] | None:
    """Send one signed ``webhook.test`` event to the organisation's endpoint now (the console's
    Test button): not stored, never retried. The receiver's status code and what went wrong
    (as for a delivery), or None when the organisation has no such endpoint."""
    async with read(runtime.db) as conn:
        target = await repository.get_endpoint(conn, org_id, environment, endpoint_id)
    if target is None:
        return None
    now = utcnow()
    message_id = new_id("evt")
    body = orjson.dumps(
        {
            "id": message_id,
            "type": TEST_EVENT,
            "occurred_at": now.isoformat().replace("+00:00", "Z"),
            "sequence": 1,
            "data": {"endpoint_id": endpoint_id, "test": True},
        }
    )
    headers = signed_headers(message_id, now, body.decode(), _secrets_in_use(runtime.vault, target))
    return await _post(runtime, target["url"], headers, body)

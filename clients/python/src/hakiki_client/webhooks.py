"""Verifying Hakiki's webhooks (Standard Webhooks, as the server signs them).

The server sends ``webhook-id``, ``webhook-timestamp`` (Unix seconds) and
``webhook-signature``: one ``v1,<base64 HMAC-SHA256>`` per secret in use, separated by spaces
(two while a rotated secret is in its grace period), over ``{id}.{timestamp}.{body}`` with the
key ``base64decode(secret without "whsec_")``. Verify the raw body, before parsing it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE = 300  # seconds either side of now, against replays


class WebhookVerificationError(Exception):
    """The event is not Hakiki's, was altered, or is too old (or from the future)."""


def sign(secret: str, message_id: str, timestamp: int, body: bytes | str) -> str:
    """The ``v1,...`` signature of one message, as the server makes it."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    text = body.decode() if isinstance(body, bytes) else body
    digest = hmac.new(key, f"{message_id}.{timestamp}.{text}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> dict[str, Any]:
    """The event (``id``, ``type``, ``occurred_at``, ``sequence``, ``resource_id``, ``data``)
    once its signature holds; else :class:`WebhookVerificationError`. ``headers`` may use any
    case. Deduplicate on the event's ``id`` (delivery is at least once) and drop an event whose
    ``sequence`` is below one you processed for the same ``resource_id``."""
    lower = {k.lower(): v for k, v in headers.items()}
    message_id = lower.get("webhook-id")
    stamp = lower.get("webhook-timestamp")
    signatures = lower.get("webhook-signature")
    if not (message_id and stamp and signatures):
        raise WebhookVerificationError("webhook-id, webhook-timestamp or webhook-signature missing")
    try:
        timestamp = int(stamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    expected = sign(secret, message_id, timestamp, body).encode()
    for candidate in signatures.split():
        if hmac.compare_digest(candidate.encode(), expected):
            event: dict[str, Any] = json.loads(body)
            return event
    raise WebhookVerificationError("no signature matches this secret")

"""Standard Webhooks secrets and signatures.

A secret is ``whsec_`` + base64 of 32 random bytes. A message is signed with the
``standardwebhooks`` library (HMAC-SHA256 over ``{id}.{timestamp}.{body}``); while a rotated
secret is in its grace period the header carries one ``v1,`` signature per secret, separated by
spaces, so receivers holding either secret accept it.
"""

from __future__ import annotations

import base64
import secrets
from datetime import datetime

from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signed_headers(
    message_id: str, timestamp: datetime, body: str, secrets_in_use: list[str]
) -> dict[str, str]:
    """The Standard Webhooks headers for ``body``, signed with every secret in use."""
    signatures = [Webhook(secret).sign(message_id, timestamp, body) for secret in secrets_in_use]
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(timestamp.timestamp())),
        "webhook-signature": " ".join(signatures),
        "content-type": "application/json",
    }

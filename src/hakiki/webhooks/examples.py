"""Examples of the webhook endpoints' answers, shown in the OpenAPI document: a lender's
onboarding service subscribed to the verification events, and one delivery that succeeded on
its second attempt."""

from __future__ import annotations

from typing import Any

ENDPOINT_WITH_SECRET: dict[str, Any] = {
    "id": "whe_06h0p82n0h22k85pt58x5hhg6r",
    "url": "https://lender.example/hooks/hakiki",
    "description": "Onboarding service",
    "events": ["verification.completed", "verification.failed"],
    "created_at": "2026-11-24T01:16:38.020425Z",
    "updated_at": "2026-11-24T01:16:38.020425Z",
    "previous_secret_expires_at": None,
    "secret": "whsec_TTzMZma3rQ5g8rwLbKyC70QPBUzD6iFvBHQ7uQ6EHiY=",
}

ENDPOINT: dict[str, Any] = {k: v for k, v in ENDPOINT_WITH_SECRET.items() if k != "secret"}


DELIVERY: dict[str, Any] = {
    "id": "whd_06h0p9c1k7q4m2r8t5v3x0z6b4",
    "endpoint_id": "whe_06h0p82n0h22k85pt58x5hhg6r",
    "event_id": "evt_06h0p9c1jz8w3n6q1s4y7x9a2c",
    "event_type": "verification.completed",
    "status": "delivered",
    "attempt_count": 2,
    "created_at": "2026-11-24T01:20:02.114300Z",
    "last_attempt_at": "2026-11-24T01:20:07.139021Z",
    "delivered_at": "2026-11-24T01:20:07.327188Z",
    "attempts": [
        {
            "attempted_at": "2026-11-24T01:20:02.120518Z",
            "status_code": 503,
            "latency_ms": 412,
            "error": "HTTP 503",
        },
        {
            "attempted_at": "2026-11-24T01:20:07.139021Z",
            "status_code": 200,
            "latency_ms": 188,
            "error": None,
        },
    ],
}

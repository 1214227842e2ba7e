"""A data subject's consent as the tests send it (docs/privacy.md#consent)."""

from __future__ import annotations

from typing import Any

import orjson

CONSENT: dict[str, Any] = {
    "obtained_at": "2026-11-20T09:14:00Z",
    "method": "checkbox",
    "notice_version": "privacy-notice-2026-09",
    "purposes": ["identity_verification"],
    "language": "en",
}
# A multipart endpoint's consent: the same object as one form field of JSON.
CONSENT_FORM = orjson.dumps(CONSENT).decode()

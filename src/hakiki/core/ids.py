"""Identifiers: sortable, prefixed, random (ULID-like: 48-bit millisecond time + 80 random bits,
in Crockford's base32, lower case)."""

from __future__ import annotations

import base64
import os
import time

_STANDARD = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_CROCKFORD = b"0123456789abcdefghjkmnpqrstvwxyz"  # in ASCII order, so ids sort by time
_TO_CROCKFORD = bytes.maketrans(_STANDARD, _CROCKFORD)


def new_id(prefix: str) -> str:
    """``prefix_`` + 26 characters that sort by creation time."""
    millis = time.time_ns() // 1_000_000
    raw = millis.to_bytes(6, "big") + os.urandom(10)
    encoded = base64.b32encode(raw)[:26].translate(_TO_CROCKFORD)
    return f"{prefix}_{encoded.decode()}"

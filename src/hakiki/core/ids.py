"""Identifiers: sortable, prefixed, random (ULID-like: 48-bit millisecond time + 80 random bits)."""

from __future__ import annotations

import secrets
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, rem = divmod(value, 32)
        chars.append(_ALPHABET[rem])
    return "".join(reversed(chars))


def new_id(prefix: str) -> str:
    """``prefix_`` + 26 characters that sort by creation time."""
    millis = time.time_ns() // 1_000_000
    return f"{prefix}_{_encode(millis, 10)}{_encode(secrets.randbits(80), 16)}"

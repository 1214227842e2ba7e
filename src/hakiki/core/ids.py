"""Identifiers: sortable, prefixed, random (ULID-like: 48-bit millisecond time + 80 random bits,
in Crockford's base32, lower case)."""

from __future__ import annotations

import os
import time

_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"  # in ASCII order, so ids sort by time
# Two characters at a time (10 bits): the 128 bits, padded to 130, are 13 pairs.
_PAIRS = [first + second for first in _CROCKFORD for second in _CROCKFORD]
_SHIFTS = range(120, -10, -10)


def new_id(prefix: str) -> str:
    """``prefix_`` + 26 characters that sort by creation time: the 16 bytes (48-bit
    milliseconds, 80 random bits) in base32 as RFC 4648 pads them, with Crockford's digits."""
    millis = time.time_ns() // 1_000_000
    bits = (millis << 80 | int.from_bytes(os.urandom(10), "big")) << 2
    return f"{prefix}_{''.join([_PAIRS[(bits >> shift) & 1023] for shift in _SHIFTS])}"

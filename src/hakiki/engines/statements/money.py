"""Amounts as printed ("1,234.50", "-1,000.00", "(20.00)", "KES 5") to minor units."""

from __future__ import annotations

import re

_AMOUNT = re.compile(r"^\(?-?\s*(?:[A-Z]{3}\s*)?-?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\)?$")


def to_minor(text: str) -> int | None:
    """Signed minor units, or None when the text is not an amount."""
    cleaned = text.strip().replace("\u00a0", "").replace(" ", "")
    if not cleaned:
        return None
    match = _AMOUNT.match(cleaned.upper())
    if match is None:
        return None
    whole = int(match.group(1).replace(",", ""))
    cents = int((match.group(2) or "0").ljust(2, "0"))
    value = whole * 100 + cents
    negative = cleaned.startswith(("-", "(")) or "-" in cleaned[:5]
    return -value if negative else value


def show(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100:,}.{abs(minor) % 100:02d}"

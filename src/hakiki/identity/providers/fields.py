"""Normalising the fields identity registries return, shared by the provider adapters: names,
dates, genders, and upstream text scrubbed of the looked-up number."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

_DATE_FORMATS = (
    "%Y-%m-%d",  # 1985-05-15
    "%d-%b-%Y",  # 15-May-1985, 2-Aug-1904 (BVN)
    "%d-%m-%Y",  # 15-05-1985 (NIN)
    "%d %b %Y",  # 21 JAN 1990 (legacy NIN)
    "%d/%m/%Y",  # 21/08/1994 (passport v2 label)
    "%d-%B-%Y",  # 15-January-1985
    "%d %B %Y",
    "%Y/%m/%d",
)
_TWO_DIGIT_YEAR_FORMATS = ("%d-%b-%y",)  # 07-Jul-95
_ISO_PREFIX = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ]")
_LONG_DIGITS = re.compile(r"\d{6,}")
_NAME_WORD_START = re.compile(r"(^|[\s\-'’.])([^\W\d_])")


def scrub(text: str, number: str) -> str:
    """Upstream text, without the looked-up number (or any long digit run), kept short."""
    if not text:
        return ""
    for secret in (number, re.sub(r"\s", "", number)):
        if secret:
            text = text.replace(secret, "[redacted]")
    text = _LONG_DIGITS.sub("[redacted]", text)
    text = " ".join(text.split())
    return text[:200]


def pick(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            text = " ".join(str(value).split())
            if text:
                return text
    return None


def title_name(value: str | None) -> str | None:
    """``"OKAFOR-NWOSU"`` -> ``"Okafor-Nwosu"``, ``"o'neil"`` -> ``"O'Neil"``."""
    if not value:
        return None
    text = " ".join(value.split()).lower()
    if not text:
        return None
    return _NAME_WORD_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)


def iso_date(value: str | None) -> str | None:
    """A date in any of the formats Prembly uses, as ISO 8601 (``YYYY-MM-DD``), else None."""
    if not value:
        return None
    text = value.strip()
    match = _ISO_PREFIX.match(text)
    if match:
        text = match.group(1)
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    for fmt in _TWO_DIGIT_YEAR_FORMATS:
        try:
            parsed = datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        if parsed > date.today():  # a birth date is never in the future: 1930, not 2030
            parsed = parsed.replace(year=parsed.year - 100)
        return parsed.isoformat()
    return None


def normalise_gender(value: str | None) -> str | None:
    if not value:
        return None
    text = value.strip().lower()
    if text in ("m", "male", "man"):
        return "male"
    if text in ("f", "female", "woman"):
        return "female"
    return None

"""Legal Entity Identifiers (ISO 17442): 18 letters or digits and two check digits, ISO 7064
MOD 97-10 over the whole code with letters read as 10 (A) to 35 (Z)."""

from __future__ import annotations

import re

_LEI = re.compile(r"^[A-Z0-9]{18}\d{2}$")


def _as_number(code: str) -> int:
    return int("".join(str(int(ch, 36)) for ch in code))


def is_lei(value: str) -> bool:
    """Whether ``value`` (upper case, no spaces) is an LEI with valid check digits."""
    return bool(_LEI.match(value)) and _as_number(value) % 97 == 1


def normalise_lei(raw: str) -> str:
    return "".join(raw.split()).upper()

"""What every bureau adapter speaks: a query in, a ``BureauPull`` out.

An adapter never raises for upstream trouble: timeouts, 5xx answers and bodies it cannot read
become ``UNAVAILABLE`` (02, not charged); refused credentials become ``FAILED`` (09, not
charged). It never logs or echoes the identity number.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, Protocol

from hakiki.credit.schemas import CreditReport


@dataclass(frozen=True)
class BureauQuery:
    country: str
    id_type: str
    id_number: str
    report_reason: str
    loan_amount: int | None  # minor units, when the lender says

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class PullOutcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"


@dataclass(frozen=True)
class BureauPull:
    outcome: PullOutcome
    bureau: str
    report: CreditReport | None = None
    message: str = ""


class BureauProvider(Protocol):
    name: str

    def supports(self, query: BureauQuery) -> bool: ...

    async def pull(self, query: BureauQuery) -> BureauPull: ...

    async def aclose(self) -> None: ...


_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def minor_units(value: Any) -> int | None:
    """A bureau's amount ("5903.77000", "1,234.50", 12) in minor units (cents, kobo)."""
    if value is None or isinstance(value, bool):
        return None
    text = str(value).replace(",", "").strip()
    if not _NUMBER.match(text):
        return None
    try:
        return int((Decimal(text) * 100).to_integral_value())
    except InvalidOperation:
        return None


def count(value: Any) -> int:
    """A bureau's count ("3", 3, None) as a non-negative integer (0 when unreadable)."""
    try:
        return max(0, int(str(value).strip()))
    except (TypeError, ValueError):
        return 0

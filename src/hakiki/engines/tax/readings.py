"""Reading what a revenue authority answers into closed vocabularies: PIN statuses, taxpayer
types, certificate verdicts, dates and amounts. Pure functions: the clock is a parameter."""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Literal

from hakiki.engines.tax.formats import TaxpayerType

PinStatus = Literal["active", "suspended", "cancelled", "stopped", "dormant", "inactive", "unknown"]
CertificateVerdict = Literal["valid", "expired", "invalid"]

_PIN_STATUSES: dict[str, PinStatus] = {
    "active": "active",
    "suspended": "suspended",
    "cancelled": "cancelled",
    "canceled": "cancelled",
    "stopped": "stopped",
    "dormant": "dormant",
    "inactive": "inactive",
    "deregistered": "cancelled",
}
_WORDS = re.compile(r"[^a-z]+")


def pin_status(text: str | None) -> PinStatus:
    """KRA's StatusOfPIN (Active, Suspended, Cancelled, Stopped; Dormant and Inactive are
    seen too) as one word of a closed set; ``unknown`` for anything else."""
    key = _WORDS.sub("", (text or "").lower())
    return _PIN_STATUSES.get(key, "unknown")


def taxpayer_type(text: str | None) -> TaxpayerType | None:
    """KRA's TypeOfTaxpayer (``Individual`` / ``Non Individual``)."""
    key = _WORDS.sub("", (text or "").lower())
    if key == "individual":
        return "individual"
    if key in ("nonindividual", "company", "business", "organisation", "organization"):
        return "non_individual"
    return None


_INVALID = frozenset(
    {"revoked", "cancelled", "canceled", "suspended", "withdrawn", "invalid", "inactive"}
)


def certificate_verdict(
    status_text: str | None, expiry: date | None, today: date
) -> CertificateVerdict:
    """A compliance certificate's standing on ``today``: past its expiry date (or said to be
    expired) it is ``expired``; revoked, cancelled, suspended or invalid it is ``invalid``;
    otherwise ``valid``. The expiry date wins over a status that says active."""
    words = set(re.findall(r"[a-z]+", (status_text or "").lower()))
    if "expired" in words or (expiry is not None and expiry < today):
        return "expired"
    if words & _INVALID:
        return "invalid"
    return "valid"


_DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y", "%Y/%m/%d", "%d-%b-%Y", "%d %b %Y")
_ISO_PREFIX = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ]")


def read_date(text: str | None) -> date | None:
    """A date as revenue authorities write it (``2025-12-31``, ``31/12/2025``, an ISO
    timestamp), or None."""
    value = (text or "").strip()
    if not value:
        return None
    prefix = _ISO_PREFIX.match(value)
    if prefix:
        value = prefix.group(1)
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    return None


def minor_units(text: str | int | float | None) -> int | None:
    """An amount written in major units (``"100,000.50"``, ``2500``) in minor units
    (10000050, 250000); None when it is missing, negative or not a number."""
    if text is None or isinstance(text, bool):
        return None
    value = str(text).replace(",", "").strip()
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return None
    if not amount.is_finite() or amount < 0:
        return None
    return int((amount * 100).to_integral_value())


def same_number(a: str | None, b: str | None) -> bool:
    """Two taxpayer numbers are the same when they are once spaces, dashes and case go."""
    if not a or not b:
        return False
    return _compact(a) == _compact(b)


def _compact(value: str) -> str:
    return re.sub(r"[\s\-]", "", value).upper()

"""Reading a revenue authority's words: PIN statuses, taxpayer types, certificate verdicts,
dates and amounts."""

from __future__ import annotations

from datetime import date

import pytest

from hakiki.engines.tax.readings import (
    certificate_verdict,
    minor_units,
    pin_status,
    read_date,
    same_number,
    taxpayer_type,
)

TODAY = date(2026, 5, 1)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Active", "active"),
        ("SUSPENDED", "suspended"),
        ("Cancelled", "cancelled"),
        ("Stopped", "stopped"),
        ("Dormant", "dormant"),
        ("In-active", "inactive"),
        ("Pending approval", "unknown"),
        (None, "unknown"),
    ],
)
def test_pin_status(text: str | None, status: str) -> None:
    assert pin_status(text) == status


def test_taxpayer_type() -> None:
    assert taxpayer_type("Individual") == "individual"
    assert taxpayer_type("Non Individual") == "non_individual"
    assert taxpayer_type("Non-Individual") == "non_individual"
    assert taxpayer_type("") is None and taxpayer_type("Trust?") is None


@pytest.mark.parametrize(
    ("status", "expiry", "verdict"),
    [
        ("Active", date(2026, 12, 31), "valid"),
        ("Active", date(2026, 5, 1), "valid"),  # valid through its last day
        ("Active", date(2026, 4, 30), "expired"),  # the date wins over the word
        ("Expired", None, "expired"),
        ("TCC has expired", date(2030, 1, 1), "expired"),
        ("Revoked", date(2026, 12, 31), "invalid"),
        ("Suspended", None, "invalid"),
        ("Invalid", None, "invalid"),
        (None, None, "valid"),
    ],
)
def test_certificate_verdict(status: str | None, expiry: date | None, verdict: str) -> None:
    assert certificate_verdict(status, expiry, TODAY) == verdict


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2025-12-31", date(2025, 12, 31)),
        ("31/12/2025", date(2025, 12, 31)),
        ("31-12-2025", date(2025, 12, 31)),
        ("2025-12-31T00:00:00", date(2025, 12, 31)),
        ("31-Dec-2025", date(2025, 12, 31)),
        ("31/02/2025", None),
        ("tomorrow", None),
        ("", None),
        (None, None),
    ],
)
def test_read_date(text: str | None, value: date | None) -> None:
    assert read_date(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("150,000.00", 15_000_000),
        ("7500", 750_000),
        (2500, 250_000),
        (12.5, 1_250),
        ("0.005", 0),  # half a cent rounds to even
        ("-10", None),
        ("NaN", None),
        ("Infinity", None),
        ("ten", None),
        (True, None),
        (None, None),
    ],
)
def test_minor_units(text: str | int | float | None, value: int | None) -> None:
    assert minor_units(text) == value


def test_same_number() -> None:
    assert same_number("a123456789z", "A123456789Z")
    assert same_number("123-456-789", "123456789")
    assert not same_number("A123456789Z", "A123456789Y")
    assert not same_number(None, "A123456789Z") and not same_number("", "")

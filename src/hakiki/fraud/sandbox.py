"""The fraud category's sandbox: what the shared fraud database "knows" about a test value,
and the documented test values of every fraud endpoint (docs/sandbox.md)."""

from __future__ import annotations

from hakiki.core.endpoints import TestValue


def report_values() -> list[TestValue]:
    return []


def report_list_values() -> list[TestValue]:
    return []


def id_scan_values() -> list[TestValue]:
    return []


def phone_values() -> list[TestValue]:
    return []


def face_scan_values() -> list[TestValue]:
    return []


def address_values() -> list[TestValue]:
    return []


def identity_risk_values() -> list[TestValue]:
    return []


def bulk_upload_values() -> list[TestValue]:
    return []


def bulk_list_values() -> list[TestValue]:
    return []

"""The screening category's sandbox test values (docs/sandbox.md). The mock answers
themselves come from the identity sandbox (identity numbers) and the sandbox watchlists
(names, lists/sandbox.py)."""

from __future__ import annotations

from hakiki.core.endpoints import TestValue


def aml_with_id_values() -> list[TestValue]:
    return []


def channels_values() -> list[TestValue]:
    return []


def name_screening_values(key: str) -> list[TestValue]:
    return []

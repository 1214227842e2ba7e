"""The KYC category's sandbox test values (docs/sandbox.md)."""

from __future__ import annotations

from hakiki.core.endpoints import TestValue


def document_values(document: str) -> list[TestValue]:
    return []

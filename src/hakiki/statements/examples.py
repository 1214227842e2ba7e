"""Examples shown in the OpenAPI document."""

from __future__ import annotations

from typing import Any

ANALYSIS: dict[str, Any] = {
    "analysis_id": "sta_01jf3v9k2m7x8q4r5s6t7u8v9w",
    "live": False,
    "status": "pending",
    "progress": 0,
    "statement_type": "mpesa",
    "file_format": "pdf",
    "duplicate_of": None,
    "layout": None,
    "verdict": None,
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "failure_code": None,
    "failure_reason": None,
    "file_deleted": False,
    "created_at": "2026-11-24T06:00:00Z",
    "started_at": None,
    "completed_at": None,
}

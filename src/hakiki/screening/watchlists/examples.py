"""Examples of the organisation watchlist answers, shown in the OpenAPI document."""

from __future__ import annotations

from typing import Any

WATCHLIST: dict[str, Any] = {
    "id": "wl_06h0p82ecpm205hbqrq746d0kw",
    "live": False,
    "name": "Former employees dismissed for fraud",
    "list_type": "watchlist",
    "status": "ready",
    "size_bytes": 182,
    "sha256": "1c5b0b8e6a8a0f0f3f0dd0e9b6a5b56bb1a8d5d3e8e0bf1f5a9c5f0b7a0e4d11",
    "rows_read": 3,
    "rows_accepted": 2,
    "rows_refused": 1,
    "issue_count": 1,
    "issues": [{"line": 4, "problem": "empty name; row skipped", "refused": True}],
    "failure_reason": None,
    "created_at": "2026-11-27T20:00:00Z",
    "completed_at": "2026-11-27T20:00:01Z",
}

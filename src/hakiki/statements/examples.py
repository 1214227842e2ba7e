"""Examples shown in the OpenAPI document."""

from __future__ import annotations

from typing import Any

ANALYSIS: dict[str, Any] = {
    "analysis_id": "sta_01jf3v9k2m7x8q4r5s6t7u8v9w",
    "live": False,
    "state": "pending",
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

ACCEPTED: dict[str, Any] = {
    **ANALYSIS,
    "callback_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
}

DETAIL: dict[str, Any] = {
    **ANALYSIS,
    "state": "completed",
    "progress": 100,
    "layout": "mpesa_openpdf_v1",
    "verdict": "genuine",
    "started_at": "2026-11-24T06:00:01Z",
    "completed_at": "2026-11-24T06:00:02Z",
    "holder": {
        "name": "JANE WANJIKU MWANGI",
        "phone": "0722000111",
        "period_start": "2024-01-02",
        "period_end": "2024-02-28",
    },
    "summary": {"TOTAL": {"paid_in": 14837400, "paid_out": 1831200}},
    "metrics": {"transactions": 35, "months_covered": 2, "total_inflow": 14837400},
    "score": {"version": "cashflow-1", "score": 773, "band": "A", "reasons": []},
    "signals": [],
    "transactions": [
        {
            "receipt": "S90AELCVBT",
            "time": "2024-01-02T06:41:01",
            "details": "Funds received from 0722****504 - RUTH CHEBET",
            "status": "Completed",
            "paid_in": 428000,
            "withdrawn": 0,
            "balance": 578000,
            "category": "transfer_in",
            "page": 2,
        }
    ],
    "pagination": {"page": 1, "page_size": 1, "total_pages": 35, "total_items": 35},
}

"""Test values of the credit model registry: a small loan book (202 pending: its job then
trains it, with too little data to activate), a misspelt column (400 naming row and column),
and the list of a new organisation's models (none; the demo model active)."""

from __future__ import annotations

import base64

from hakiki.core.endpoints import Examples, Multipart, TestValue

INVALID = {"http_status": 400, "error": "invalid_request"}
HEADER = "loan_id,disbursed_on,loan_amount,loan_term_months,loan_purpose,defaulted_within_days"
ROWS = (
    "L1,2025-01-06,5000000,6,school_fees,",
    "L2,2025-01-09,12000000,12,business_stock,45",
    "L3,2025-02-03,3000000,3,school_fees,",
)


def _csv(*lines: str) -> dict[str, str]:
    data = "".join(line + "\n" for line in lines).encode()
    return {
        "filename": "loans.csv",
        "content_type": "text/csv",
        "content_base64": base64.b64encode(data).decode(),
    }


MODEL_TRAIN = Examples(
    [
        TestValue(
            description="a loan book of three loans: 202 pending, version lender-1 (its job "
            "then ends it failed: too few loans to train)",
            multipart=Multipart(fields={"window_days": "90"}, files={"file": _csv(HEADER, *ROWS)}),
            expect={
                "http_status": 202,
                "status": "pending",
                "version": "lender-1",
                "rows": 3,
                "window_days": 90,
                "active": False,
            },
        ),
        TestValue(
            description="a misspelt column: 400 naming the header's row and the column",
            multipart=Multipart(
                fields={},
                files={"file": _csv(HEADER.replace("loan_amount", "loan_amout"), *ROWS)},
            ),
            expect={**INVALID, "details.0.field": "loan_amount", "details.0.row": 1},
        ),
    ]
)
MODEL_LIST = Examples(
    [
        TestValue(
            description="a new organisation's models: none, the demo model active",
            query={"page": 1},
            expect={
                "http_status": 200,
                "data": [],
                "active_version": "hakiki-german-1.0.0",
                "pagination.total_items": 0,
            },
        ),
        TestValue(
            description="only the trained models: none yet",
            query={"status": "trained"},
            expect={
                "http_status": 200,
                "data": [],
                "active_version": "hakiki-german-1.0.0",
                "pagination.total_items": 0,
            },
        ),
        TestValue(
            description="an unknown status: 400 naming status",
            query={"status": "done"},
            expect={**INVALID, "details.0.field": "status"},
        ),
        TestValue(
            description="page 0: 400 naming page (pages count from 1)",
            query={"page": 0},
            expect={**INVALID, "details.0.field": "page"},
        ),
    ]
)

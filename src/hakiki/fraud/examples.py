"""Examples of the fraud endpoints' answers, shown in the OpenAPI document.

Each is what the sandbox gives for the request example beside it (docs/sandbox.md: the last
digit of a number or phone picks the signals), so "Try it out" with a sandbox key returns it,
apart from the ids and times; tests/test_openapi_examples.py replays them."""

from __future__ import annotations

from typing import Any

# POST /v3/fraud/reports with FraudReportRequest's example (201).
FRAUD_REPORT: dict[str, Any] = {
    "subject": {
        "first_name": "Musa",
        "middle_name": None,
        "last_name": "Okonkwo",
        "date_of_birth": "1991-04-12",
        "gender": None,
        "country": "NG",
        "identifiers": [{"type": "bvn", "value": "22123456789"}],
        "phones": ["+2348031234567"],
        "emails": [],
        "address": None,
        "face_image_base64": None,
    },
    "incident": {
        "category": "synthetic_identity",
        "date": "2026-10-02",
        "description": "Loan taken with a BVN whose face matched two others.",
        "amount": 25000000,
        "currency": "NGN",
        "bank": None,
        "account_number": None,
    },
    "evidence": ["case-2026-1142"],
    "id": "frp_06h0p82eqz96pdg2h36z19z8dg",
    "status": "submitted",
    "face_enrolled": False,
    "created_at": "2026-11-24T01:16:36.415374Z",
}


# POST /v3/fraud/face-scan: the identity_numbers sent with the photo.
FACE_SCAN_REQUEST_NUMBERS: list[str] = ["22222222207"]


# POST /v3/fraud/bulk-scan/upload (202): scan_type id, a CSV of four golden BVNs ending in
# 00, 05, 06 and 07 (reference,number,channel).
BULK_SCAN: dict[str, Any] = {
    "bulk_id": "bsc_06h0p82jd3k17fb6kq071sankw",
    "live": False,
    "scan_type": "id",
    "state": "pending",
    "file_name": "applicants.csv",
    "file_format": "csv",
    "total_records": 4,
    "processed_records": 0,
    "success_count": 0,
    "error_count": 0,
    "price_per_row": 0,
    "charged_amount": 0,
    "currency": "NGN",
    "failure_reason": None,
    "results_file": "/v3/fraud/bulk-scan/bsc_06h0p82jd3k17fb6kq071sankw?format=csv",
    "created_at": "2026-11-24T01:16:37.352250Z",
    "started_at": None,
    "completed_at": None,
}

# GET /v3/fraud/bulk-scan/{bulk_id}?page_size=2 once BULK_SCAN has completed.
BULK_SCAN_DETAIL: dict[str, Any] = {
    "bulk_id": "bsc_06h0p82jd3k17fb6kq071sankw",
    "live": False,
    "scan_type": "id",
    "state": "completed",
    "file_name": "applicants.csv",
    "file_format": "csv",
    "total_records": 4,
    "processed_records": 4,
    "success_count": 4,
    "error_count": 0,
    "price_per_row": 0,
    "charged_amount": 0,
    "currency": "NGN",
    "failure_reason": None,
    "results_file": "/v3/fraud/bulk-scan/bsc_06h0p82jd3k17fb6kq071sankw?format=csv",
    "created_at": "2026-11-24T01:16:37.352250Z",
    "started_at": "2026-11-24T01:16:37.831016Z",
    "completed_at": "2026-11-24T01:16:37.836818Z",
    "results": [
        {
            "row": 2,
            "reference": "loan-0",
            "status": "success",
            "input": {"number": "22222222200", "channel": "bvn", "country_code": "NG"},
            "risk": {"score": 0, "level": "LOW", "signals": []},
            "findings": {
                "country": "NG",
                "channel": "bvn",
                "number_valid": True,
                "format_problem": None,
                "fraud_reports": {"count": 0, "organisations": 0, "categories": {}},
                "identity_links": {
                    "names": 0,
                    "birth_dates": 0,
                    "phones": 0,
                    "faces": 0,
                    "organisations": 0,
                },
            },
            "error": None,
            "transaction_id": None,
        },
        {
            "row": 3,
            "reference": "loan-5",
            "status": "success",
            "input": {"number": "22222222205", "channel": "bvn", "country_code": "NG"},
            "risk": {
                "score": 40,
                "level": "MEDIUM",
                "signals": [
                    {
                        "code": "reported",
                        "weight": 40,
                        "reason": "1 fraud report(s) name this number (synthetic_identity)",
                    }
                ],
            },
            "findings": {
                "country": "NG",
                "channel": "bvn",
                "number_valid": True,
                "format_problem": None,
                "fraud_reports": {
                    "count": 1,
                    "organisations": 1,
                    "categories": {"synthetic_identity": 1},
                },
                "identity_links": {
                    "names": 0,
                    "birth_dates": 0,
                    "phones": 0,
                    "faces": 0,
                    "organisations": 0,
                },
            },
            "error": None,
            "transaction_id": None,
        },
    ],
    "pagination": {"page": 1, "page_size": 2, "total_pages": 2, "total_items": 4},
}

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

# GET /v3/fraud/reports after FRAUD_REPORT.
FRAUD_REPORT_LIST: dict[str, Any] = {
    "data": [FRAUD_REPORT],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
}

# POST /v3/fraud/id-scan with IdScanRequest's example: a BVN ending in 7.
ID_SCAN_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82egrh3mcs4bwns34s3k0",
    "live": False,
    "reference": "fsc_06h0p82egrh3mcs4bwns34s3k0",
    "billing": {"charged": False, "amount": 0, "currency": "NGN", "transaction_id": None},
    "country": "NG",
    "channel": "bvn",
    "number_valid": True,
    "format_problem": None,
    "risk": {
        "score": 100,
        "level": "CRITICAL",
        "signals": [
            {
                "code": "reported",
                "weight": 40,
                "reason": "2 fraud report(s) name this number (loan_stacking)",
            },
            {
                "code": "reported_by_several",
                "weight": 20,
                "reason": "reported by 2 different organisations",
            },
            {
                "code": "several_names",
                "weight": 25,
                "reason": "2 different names seen with this number by other organisations",
            },
            {
                "code": "several_faces",
                "weight": 35,
                "reason": "2 different faces seen with this number by other organisations",
            },
        ],
    },
    "fraud_reports": {"count": 2, "organisations": 2, "categories": {"loan_stacking": 2}},
    "identity_links": {"names": 2, "birth_dates": 0, "phones": 0, "faces": 2, "organisations": 2},
}

# POST /v3/fraud/phone with PhoneScanRequest's example: a Safaricom number ending in 7.
PHONE_SCAN_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82ek3k7h4gxnq34qcj6k0",
    "live": False,
    "reference": "fph_06h0p82ek3k7h4gxnq34qcj6k0",
    "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    "phone": {
        "valid": True,
        "reason": None,
        "e164": "+254712345677",
        "national": "0712 345677",
        "international": "+254 712 345677",
        "region": "KE",
        "line_type": "mobile",
        "original_carrier": "Safaricom",
        "location": None,
    },
    "risk": {
        "score": 85,
        "level": "CRITICAL",
        "signals": [
            {
                "code": "phone_reported",
                "weight": 40,
                "reason": "2 fraud report(s) name it (mobile_money_fraud)",
            },
            {
                "code": "phone_shared",
                "weight": 30,
                "reason": "seen with 3 different identity numbers by other organisations",
            },
            {
                "code": "checked_often",
                "weight": 15,
                "reason": "checked 12 times by 5 organisations in the last 7 days",
            },
        ],
    },
    "fraud_reports": {"count": 2, "organisations": 2, "categories": {"mobile_money_fraud": 2}},
    "links": {"identities": 3, "checks_last_7_days": 12, "checking_organisations_last_7_days": 5},
}

# POST /v3/fraud/face-scan: the identity_numbers sent with the photo.
FACE_SCAN_REQUEST_NUMBERS: list[str] = ["22222222207"]

# The answer to a photo of one face with FACE_SCAN_REQUEST_NUMBERS (first number ends in 7).
FACE_SCAN_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82hvm3as68nkmfnfn42xw",
    "live": False,
    "reference": "ffs_06h0p82hvm3as68nkmfnfn42xw",
    "billing": {"charged": False, "amount": 0, "currency": "NGN", "transaction_id": None},
    "face": {"box": {"left": 103, "top": 68, "right": 211, "bottom": 175}, "detector_score": 2.081},
    "links": {"fraud_bank_matches": 2, "other_identities": 4, "closest_distance": None},
    "fraud_reports": {"count": 2, "organisations": 2, "categories": {"synthetic_identity": 2}},
    "risk": {
        "score": 90,
        "level": "CRITICAL",
        "signals": [
            {
                "code": "face_in_fraud_bank",
                "weight": 50,
                "reason": "the face of 2 fraud report(s) (synthetic_identity)",
            },
            {
                "code": "face_with_other_identities",
                "weight": 40,
                "reason": "this face was seen with 4 other identity number(s)",
            },
        ],
    },
}

# POST /v3/fraud/address with AddressScanRequest's example.
ADDRESS_SCAN_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82eknct5vhqmyvhrzrn20",
    "live": False,
    "reference": "fad_06h0p82eknct5vhqmyvhrzrn20",
    "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    "address": {
        "match": "exact",
        "po_box": "30126",
        "postal_code": "00100",
        "area": {
            "code": "KE047",
            "name": "Nairobi",
            "level": "county",
            "latitude": -1.3005,
            "longitude": 36.8279,
        },
        "subarea": None,
        "town": {
            "code": "GN184745",
            "name": "Nairobi",
            "level": "town",
            "latitude": -1.2833,
            "longitude": 36.8167,
        },
        "corrections": [],
        "conflicts": [],
        "unmatched": [],
        "other_countries": [],
    },
    "gps": {
        "verdict": "inside",
        "reference": {
            "code": "GN184745",
            "name": "Nairobi",
            "level": "town",
            "latitude": -1.2833,
            "longitude": 36.8167,
        },
        "distance_km": 0.0,
        "radius_km": 25.0,
        "area_verdict": "inside",
        "nearest_town": {
            "code": "GN184745",
            "name": "Nairobi",
            "level": "town",
            "latitude": -1.2833,
            "longitude": 36.8167,
        },
    },
    "fraud_reports": {"count": 0, "organisations": 0, "categories": {}},
    "risk": {"score": 0, "level": "LOW", "signals": []},
}

# POST /v3/fraud/identity-risk with IdentityRiskRequest's example (its phone ends in 7).
IDENTITY_RISK_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82eq346arqpvz26kyhy0w",
    "live": False,
    "reference": "fir_06h0p82eq346arqpvz26kyhy0w",
    "billing": {"charged": False, "amount": 0, "currency": "NGN", "transaction_id": None},
    "risk": {
        "score": 85,
        "level": "CRITICAL",
        "signals": [
            {
                "code": "phone_reported",
                "weight": 40,
                "reason": "2 fraud report(s) name it (mobile_money_fraud)",
            },
            {
                "code": "phone_shared",
                "weight": 30,
                "reason": "seen with 3 different identity numbers by other organisations",
            },
            {
                "code": "checked_often",
                "weight": 15,
                "reason": "checked 12 times by 5 organisations in the last 7 days",
            },
        ],
    },
    "checked": {"identifiers": 1, "phones": 1, "emails": 1, "addresses": 1, "ips": 1},
}

# POST /v3/fraud/bulk-scan/upload (202): scan_type id, a CSV of four golden BVNs ending in
# 00, 05, 06 and 07 (reference,number,channel).
BULK_SCAN: dict[str, Any] = {
    "bulk_id": "bsc_06h0p82jd3k17fb6kq071sankw",
    "live": False,
    "scan_type": "id",
    "status": "pending",
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
    "status": "completed",
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

# GET /v3/fraud/bulk-scan after BULK_SCAN.
BULK_SCAN_LIST: dict[str, Any] = {
    "data": [{k: v for k, v in BULK_SCAN_DETAIL.items() if k not in ("results", "pagination")}],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
}

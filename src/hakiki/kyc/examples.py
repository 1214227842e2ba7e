"""Examples of the KYC answers, shown in the OpenAPI document: what the sandbox gives for the
request examples (docs/sandbox.md); tests/test_openapi_examples.py replays them."""

from __future__ import annotations

from typing import Any

# POST /v3/kyc/national-id with NationalIdRequest's example: KE golden number 20000000,
# Wanjiru Akinyi Kamau, VERIFIED (GET /v3/kyc/status/{reference} answers the same).
KYC_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82efahv95jgt7dt3v7x60",
    "live": False,
    "reference": "ref_sbx_ee71b74b5b645adb7af4cd84",
    "billing": {
        "charged": False,
        "amount": 0,
        "currency": "KES",
        "transaction_id": None,
        "reversal_transaction_id": None,
    },
    "ok": True,
    "response_code": "00",
    "status": "VERIFIED",
    "found": True,
    "soft_error": False,
    "async_pending": False,
    "message": "Identity verified.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "document": {"type": "national_id", "country": "KE", "channel": "national_id"},
        "identity": {
            "first_name": "Wanjiru",
            "middle_name": "Akinyi",
            "last_name": "Kamau",
            "business_name": None,
            "date_of_birth": "1990-08-23",
            "gender": "female",
            "phone": "+254700000000",
            "nationality": "KE",
        },
        "comparison": None,
        "mrz": None,
    },
}

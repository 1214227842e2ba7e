"""Examples of the document verification, shown in the OpenAPI document: what the sandbox
answers to the request example (docs/sandbox.md#documents); tests/test_openapi_examples.py
replays them."""

from __future__ import annotations

from typing import Any

# A 48 x 32 light-grey PNG: in sandbox, a light front image is a clear document.
LIGHT_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAAPElEQVR4nO3OoQHAIBAAsdL9h/0R8JiTIJIJsmbme8l/"
    "O3ASKkJFqAgVoSJUhIpQESpCRagIFaEiVITKBk2bAxBNzs4aAAAAAElFTkSuQmCC"
)

REQUEST: dict[str, Any] = {
    "document_type": "passport",
    "country_code": "KE",
    "front_image": LIGHT_PNG,
}

# POST /v3/documents/verify with REQUEST in sandbox: a clear passport.
RESULT: dict[str, Any] = {
    "request_id": "req_06h0r0ggky53pdxny4yyw3mhv0",
    "live": False,
    "reference": "doc_06h0r0ggky53pdxny4yyw3mhv0",
    "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    "verdict": "clear",
    "retryable": False,
    "retry_reasons": [],
    "reasons": [],
    "checks": [
        {
            "name": "front_image.quality",
            "category": "quality",
            "status": "passed",
            "reason": "good enough to judge",
            "signals": {},
        },
        {
            "name": "mrz",
            "category": "mrz",
            "status": "passed",
            "reason": "TD3 zone read; every check digit holds",
            "signals": {},
        },
        {
            "name": "dates",
            "category": "consistency",
            "status": "passed",
            "reason": "the dates are plausible",
            "signals": {},
        },
        {
            "name": "expiry",
            "category": "consistency",
            "status": "passed",
            "reason": "valid until 2030-12-31",
            "signals": {},
        },
        {
            "name": "front_image.editing_software",
            "category": "forensics",
            "status": "passed",
            "reason": "no editor named",
            "signals": {"software": None},
        },
    ],
    "document": {
        "layout": "TD3",
        "document_code": "P",
        "issuing_state": "KEN",
        "document_number": "AK0000000",
        "surname": "KAMAU",
        "given_names": "WANJIRU AKINYI",
        "nationality": "KEN",
        "birth_date": "1990-01-01",
        "sex": "F",
        "expiry_date": "2030-12-31",
        "optional_data": None,
        "barcodes": [],
        "unsure": [],
    },
    "face": None,
}

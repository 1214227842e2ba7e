"""Examples of the tax answers, shown in the OpenAPI document: what the sandbox gives for the
request examples (docs/sandbox.md); tests/test_openapi_examples.py replays them."""

from __future__ import annotations

from typing import Any

# POST /v3/tax/pin with PinRequest's first example: the KE golden PIN, Wanjiru Akinyi Kamau.
PIN_RESULT: dict[str, Any] = {
    "request_id": "req_06h0pwa87kx8d8jjjh0vt04sqg",
    "live": False,
    "reference": "ref_sbx_8187a4b5f57f3b6902b45406",
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
    "message": "The PIN is registered and active.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "country": "KE",
        "authority": "KRA",
        "check": "pin",
        "searched_by": "pin",
        "pin_format": {
            "number": "A000000000W",
            "display": "A000000000W",
            "authority": "KRA",
            "taxpayer_type": "individual",
        },
        "verdict": "valid",
        "taxpayer": {
            "pin": "A000000000W",
            "name": "WANJIRU AKINYI KAMAU",
            "type": "individual",
            "pin_status": "active",
        },
        "pin_matches": None,
    },
}

# POST /v3/tax/tcc with TccRequest's example: a valid certificate (GET /v3/tax/status/{reference}
# answers the same).
TCC_RESULT: dict[str, Any] = {
    "request_id": "req_06h0pwa8cprtf9kmyzh1kx38kw",
    "live": False,
    "reference": "ref_sbx_fe32231980e39ee85ca00282",
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
    "message": "The certificate is valid until 2099-12-31.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "country": "KE",
        "authority": "KRA",
        "check": "tcc",
        "pin_format": {
            "number": "A000000000W",
            "display": "A000000000W",
            "authority": "KRA",
            "taxpayer_type": "individual",
        },
        "verdict": "valid",
        "certificate": {
            "number": "KRAEON00000000",
            "pin": "A000000000W",
            "taxpayer_name": "WANJIRU AKINYI KAMAU",
            "status": "Active",
            "issue_date": "2026-03-05",
            "expiry_date": "2099-12-31",
        },
        "pin_matches": True,
    },
}

# POST /v3/tax/withholding with WithholdingRequest's example.
WITHHOLDING_RESULT: dict[str, Any] = {
    "request_id": "req_06h0pwa8djgtnxvnrt7kqjfy0w",
    "live": False,
    "reference": "ref_sbx_2e00724407e3e4d7722aa2f8",
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
    "message": "The certificate exists and names the withholder and payee sent.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "country": "KE",
        "authority": "KRA",
        "check": "withholding",
        "verdict": "valid",
        "certificate": {
            "number": "KRAWHT00000000",
            "withholder": {"pin": "P000000000K", "name": "KILIMA AGRO TRADERS LIMITED"},
            "payee": {"pin": "A000000000W", "name": "WANJIRU AKINYI KAMAU"},
            "tax_type": "Income Tax - Withholding",
            "gross_amount": 69790000,
            "tax_amount": 3489500,
            "currency": "KES",
            "payment_date": "2026-03-17",
        },
        "withholder_pin_matches": True,
        "payee_pin_matches": True,
    },
}

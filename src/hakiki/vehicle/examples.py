"""Examples of the vehicle check, shown in the OpenAPI document: what the sandbox answers to
the request example (docs/sandbox.md); tests/test_openapi_examples.py replays them."""

from __future__ import annotations

from typing import Any

VEHICLE_REQUEST: dict[str, Any] = {"registration_number": "KCA 100A", "owner_name": "Wanjiru Kamau"}

# POST /v3/vehicle/verify with VEHICLE_REQUEST: KCA 100A, found, owner matches.
VEHICLE_RESULT: dict[str, Any] = {
    "request_id": "req_06h0pvwwhyj3c85kzx8zx5nqj8",
    "live": False,
    "reference": "ref_sbx_51f2cba2acc541f213bc5b11",
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
    "message": "Vehicle record found.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "identifier": {
            "field": "registration_number",
            "kind": "registration_number",
            "value": "KCA 100A",
        },
        "decoded": {
            "vin": None,
            "chassis": None,
            "plate": {
                "registration_number": "KCA 100A",
                "category": "civilian",
                "description": "Private or commercial vehicle (series since 1989)",
                "series": "KCA",
                "number": "100",
                "suffix": "A",
                "county_code": None,
                "county": None,
                "mission_code": None,
                "service": None,
            },
        },
        "vehicle": {
            "registration_number": "KCA 100A",
            "chassis_number": "GE6-0224613",
            "engine_number": "HU-3164220",
            "make": "Honda",
            "model": "Fit",
            "body_type": "Hatchback",
            "colour": "Red",
            "year_of_manufacture": 2009,
            "registration_date": "2010-07-28",
            "logbook_number": "A0017828",
            "owners": [{"name": "Wanjiru Kamau", "id_number_masked": "*****038"}],
            "caveats": [],
        },
        "owner_comparison": {
            "match": True,
            "score": 1.0,
            "threshold": 0.85,
            "supplied": "Wanjiru Kamau",
            "on_record": "Wanjiru Kamau",
            "reason": "first name matches; last name matches",
        },
        "warnings": [],
    },
}

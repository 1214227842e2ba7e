"""Examples of the background-check answers, shown in the OpenAPI document: real sandbox
answers (tests/test_openapi_examples.py checks they validate against their models)."""

from __future__ import annotations

from typing import Any

CHECK_TYPES: dict[str, Any] = {
    "country_code": "KE",
    "data": [
        {
            "code": "identity",
            "name": "Identity: national ID (IPRS)",
            "kind": "automated",
            "description": "The candidate's national identity number checked against the "
            "country's identity register (the KYC national ID channel), names "
            "compared.",
            "needs": ["id_number", "date_of_birth"],
            "documents": [],
            "turnaround_hours": 1,
            "price": 200,
            "available": True,
            "unavailable_reason": None,
            "countries": ["KE", "UG", "TZ", "NG"],
        },
        {
            "code": "sanctions_pep",
            "name": "Sanctions and PEP screening",
            "kind": "automated",
            "description": "The candidate's name and date of birth screened against the "
            "sanctions and politically exposed persons lists (the screening "
            "engine).",
            "needs": ["date_of_birth"],
            "documents": [],
            "turnaround_hours": 1,
            "price": 100,
            "available": True,
            "unavailable_reason": None,
            "countries": ["KE", "UG", "TZ", "NG"],
        },
    ],
}

COUNTRIES: dict[str, Any] = {
    "data": [
        {"country_code": "KE", "name": "Kenya", "check_types": 12, "automated": 7, "manual": 5},
        {"country_code": "UG", "name": "Uganda", "check_types": 12, "automated": 7, "manual": 5},
        {"country_code": "TZ", "name": "Tanzania", "check_types": 12, "automated": 7, "manual": 5},
        {"country_code": "NG", "name": "Nigeria", "check_types": 10, "automated": 5, "manual": 5},
    ]
}

SYSTEM_PACKAGES: dict[str, Any] = {
    "data": [
        {
            "id": "spk_ke_basic_identity",
            "name": "Basic identity (Kenya)",
            "country_code": "KE",
            "description": "Who the candidate says they are, and not on a sanctions list or in "
            "the fraud database.",
            "check_types": ["identity", "sanctions_pep", "fraud_database"],
            "price": 400,
            "turnaround_hours": 1,
            "system": True,
            "created_at": None,
            "updated_at": None,
        }
    ],
    "pagination": {"page": 1, "page_size": 1, "total_pages": 4, "total_items": 4},
}

SYSTEM_PACKAGE: dict[str, Any] = {
    "id": "spk_ke_driver",
    "name": "Driver (Kenya)",
    "country_code": "KE",
    "description": "For drivers and riders: identity, police clearance and two references.",
    "check_types": ["identity", "criminal_record", "references"],
    "price": 200,
    "turnaround_hours": 72,
    "system": True,
    "created_at": None,
    "updated_at": None,
}

PACKAGE: dict[str, Any] = {
    "id": "bpk_06h0q7x3ech54x0f3vs132qkem",
    "name": "Loan officers",
    "country_code": "KE",
    "description": "Identity, sanctions and police clearance.",
    "check_types": ["identity", "sanctions_pep", "criminal_record"],
    "price": 300,
    "turnaround_hours": 72,
    "system": False,
    "created_at": "2026-11-24T03:35:41.171398Z",
    "updated_at": "2026-11-24T03:35:41.171398Z",
}

PACKAGES: dict[str, Any] = {
    "data": [
        {
            "id": "bpk_06h0q7x3ech54x0f3vs132qkem",
            "name": "Loan officers",
            "country_code": "KE",
            "description": "Identity, sanctions and police clearance.",
            "check_types": ["identity", "sanctions_pep", "criminal_record"],
            "price": 300,
            "turnaround_hours": 72,
            "system": False,
            "created_at": "2026-11-24T03:35:41.171398Z",
            "updated_at": "2026-11-24T03:35:41.171398Z",
        }
    ],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
}

CREATED: dict[str, Any] = {
    "data": [
        {
            "reference": "bgc_06h0q7x3fzr2528f5acsyht5a8",
            "live": False,
            "status": "pending",
            "result": None,
            "package": {
                "id": "spk_ke_basic_identity",
                "name": "Basic identity (Kenya)",
                "country": "KE",
                "check_types": ["identity", "sanctions_pep", "fraud_database"],
            },
            "candidate": {
                "first_name": "Wanjiru",
                "last_name": "Kamau",
                "email": "wanjiru+complete@example.com",
                "phone": "+254712345678",
            },
            "invitation_url": "http://hakiki.test/invitations/jtBMuupnLjHhuj-lPgIghMk715rbUQFt4eUqxry1BCA",
            "expires_at": "2026-12-01T03:35:41.183804Z",
            "submitted_at": None,
            "completed_at": None,
            "price": 0,
            "charged_amount": 0,
            "currency": "KES",
            "created_at": "2026-11-24T03:35:41.183804Z",
        }
    ]
}

DETAIL: dict[str, Any] = {
    "reference": "bgc_06h0q7x3fzr2528f5acsyht5a8",
    "live": False,
    "status": "completed",
    "result": "clear",
    "package": {
        "id": "spk_ke_basic_identity",
        "name": "Basic identity (Kenya)",
        "country": "KE",
        "check_types": ["identity", "sanctions_pep", "fraud_database"],
    },
    "candidate": {
        "first_name": "Wanjiru",
        "last_name": "Kamau",
        "email": "wanjiru+complete@example.com",
        "phone": "+254712345678",
    },
    "invitation_url": None,
    "expires_at": "2026-12-01T03:35:41.183804Z",
    "submitted_at": "2026-11-24T03:35:41.553346Z",
    "completed_at": "2026-11-24T03:35:41.566187Z",
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "created_at": "2026-11-24T03:35:41.183804Z",
    "checks": [
        {
            "code": "fraud_database",
            "name": "Fraud database",
            "kind": "automated",
            "status": "completed",
            "result": "clear",
            "evidence": {"sandbox": "+complete: scripted clear"},
            "due_at": None,
            "completed_at": "2026-11-24T03:35:41.559656Z",
            "recorded_by": None,
            "charged": False,
        },
        {
            "code": "identity",
            "name": "Identity: national ID (IPRS)",
            "kind": "automated",
            "status": "completed",
            "result": "clear",
            "evidence": {"sandbox": "+complete: scripted clear"},
            "due_at": None,
            "completed_at": "2026-11-24T03:35:41.563396Z",
            "recorded_by": None,
            "charged": False,
        },
        {
            "code": "sanctions_pep",
            "name": "Sanctions and PEP screening",
            "kind": "automated",
            "status": "completed",
            "result": "clear",
            "evidence": {"sandbox": "+complete: scripted clear"},
            "due_at": None,
            "completed_at": "2026-11-24T03:35:41.566187Z",
            "recorded_by": None,
            "charged": False,
        },
    ],
    "timeline": [
        {
            "at": "2026-11-24T03:35:41.183804Z",
            "event": "invited",
            "status": "pending",
            "detail": "invitation created",
        },
        {
            "at": "2026-11-24T03:35:41.544022Z",
            "event": "email_not_sent",
            "status": "pending",
            "detail": "no SMTP server is configured",
        },
        {
            "at": "2026-11-24T03:35:41.553346Z",
            "event": "submit",
            "status": "in_progress",
            "detail": "the candidate gave consent and submitted the form",
        },
        {
            "at": "2026-11-24T03:35:41.559656Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "fraud_database: clear",
        },
        {
            "at": "2026-11-24T03:35:41.563396Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "identity: clear",
        },
        {
            "at": "2026-11-24T03:35:41.566187Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "sanctions_pep: clear",
        },
        {
            "at": "2026-11-24T03:35:41.566187Z",
            "event": "complete",
            "status": "completed",
            "detail": "every check has a result: clear",
        },
    ],
}

LISTED: dict[str, Any] = {
    "data": [
        {
            "reference": "bgc_06h0q7x3fzr2528f5acsyht5a8",
            "live": False,
            "status": "completed",
            "result": "clear",
            "package": {
                "id": "spk_ke_basic_identity",
                "name": "Basic identity (Kenya)",
                "country": "KE",
                "check_types": ["identity", "sanctions_pep", "fraud_database"],
            },
            "candidate": {
                "first_name": "Wanjiru",
                "last_name": "Kamau",
                "email": "wanjiru+complete@example.com",
                "phone": "+254712345678",
            },
            "invitation_url": None,
            "expires_at": "2026-12-01T03:35:41.183804Z",
            "submitted_at": "2026-11-24T03:35:41.553346Z",
            "completed_at": "2026-11-24T03:35:41.566187Z",
            "price": 0,
            "charged_amount": 0,
            "currency": "KES",
            "created_at": "2026-11-24T03:35:41.183804Z",
        }
    ],
    "pagination": {"page": 1, "page_size": 1, "total_pages": 1, "total_items": 1},
}

REINITIATED: dict[str, Any] = {
    "reference": "bgc_06h0q7x56qzm8k7824w7dhfpww",
    "live": False,
    "status": "pending",
    "result": None,
    "package": {
        "id": "spk_ke_basic_identity",
        "name": "Basic identity (Kenya)",
        "country": "KE",
        "check_types": ["identity", "sanctions_pep", "fraud_database"],
    },
    "candidate": {
        "first_name": "Wanjiru",
        "last_name": "Kamau",
        "email": "wanjiru+expire@example.com",
        "phone": None,
    },
    "invitation_url": "http://hakiki.test/invitations/PFPua-YHZwHgCywujKE6gHE2vUYlCdRK6JvJkKhpc4k",
    "expires_at": "2026-12-01T03:35:42.091607Z",
    "submitted_at": None,
    "completed_at": None,
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "created_at": "2026-11-24T03:35:41.621504Z",
}

RECORDED: dict[str, Any] = {
    "reference": "bgc_06h0q7x7688e5c5k9kkw5tbhyw",
    "live": False,
    "status": "in_progress",
    "result": None,
    "package": {
        "id": "spk_ke_driver",
        "name": "Driver (Kenya)",
        "country": "KE",
        "check_types": ["identity", "criminal_record", "references"],
    },
    "candidate": {
        "first_name": "Wanjiru",
        "last_name": "Kamau",
        "email": "otieno@example.com",
        "phone": None,
    },
    "invitation_url": None,
    "expires_at": "2026-12-01T03:35:42.129898Z",
    "submitted_at": "2026-11-24T03:35:42.170314Z",
    "completed_at": None,
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "created_at": "2026-11-24T03:35:42.129898Z",
    "checks": [
        {
            "code": "criminal_record",
            "name": "Criminal record: Certificate of Good Conduct (DCI)",
            "kind": "manual",
            "status": "completed",
            "result": "clear",
            "evidence": {"certificate_number": "DCI-2026-001234", "notes": "Genuine."},
            "due_at": "2026-11-27T03:35:42.170314Z",
            "completed_at": "2026-11-24T03:35:42.670581Z",
            "recorded_by": "amina@lender.example",
            "charged": False,
        },
        {
            "code": "identity",
            "name": "Identity: national ID (IPRS)",
            "kind": "automated",
            "status": "completed",
            "result": "clear",
            "evidence": {
                "channel": "national_id",
                "provider": "hakiki-sandbox",
                "found": True,
                "name_match": True,
                "name_score": 1.0,
                "date_of_birth_match": True,
            },
            "due_at": None,
            "completed_at": "2026-11-24T03:35:42.608403Z",
            "recorded_by": None,
            "charged": False,
        },
        {
            "code": "references",
            "name": "References",
            "kind": "manual",
            "status": "awaiting_analyst",
            "result": None,
            "evidence": None,
            "due_at": "2026-11-27T03:35:42.170314Z",
            "completed_at": None,
            "recorded_by": None,
            "charged": False,
        },
    ],
    "timeline": [
        {
            "at": "2026-11-24T03:35:42.129898Z",
            "event": "invited",
            "status": "pending",
            "detail": "invitation created",
        },
        {
            "at": "2026-11-24T03:35:42.170314Z",
            "event": "submit",
            "status": "in_progress",
            "detail": "the candidate gave consent and submitted the form",
        },
        {
            "at": "2026-11-24T03:35:42.608403Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "identity: clear",
        },
        {
            "at": "2026-11-24T03:35:42.670581Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "criminal_record: clear by amina@lender.example",
        },
    ],
}

"""Examples of the background-check answers, shown in the OpenAPI document: real sandbox
answers (tests/test_openapi_examples.py checks they validate against their models)."""

from __future__ import annotations

from typing import Any

PACKAGE: dict[str, Any] = {
    "id": "bpk_06h0qct23a103487ve6f434cxg",
    "name": "Loan officers",
    "country_code": "KE",
    "description": "Identity, sanctions and police clearance.",
    "check_types": ["identity", "sanctions_pep", "criminal_record"],
    "price": 3000,
    "turnaround_hours": 72,
    "system": False,
    "created_at": "2026-11-24T03:57:06.970993Z",
    "updated_at": "2026-11-24T03:57:06.970993Z",
}


DETAIL: dict[str, Any] = {
    "reference": "bgc_06h0qct25r1y07hn5km9hdw6s0",
    "live": False,
    "state": "completed",
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
    "expires_at": "2026-12-01T03:57:06.989968Z",
    "submitted_at": "2026-11-24T03:57:07.349343Z",
    "completed_at": "2026-11-24T03:57:07.375292Z",
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "callback_url": None,
    "created_at": "2026-11-24T03:57:06.989968Z",
    "checks": [
        {
            "code": "fraud_database",
            "name": "Fraud database",
            "kind": "automated",
            "status": "completed",
            "result": "clear",
            "evidence": {"sandbox": "+complete: scripted clear"},
            "due_at": None,
            "completed_at": "2026-11-24T03:57:07.359811Z",
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
            "completed_at": "2026-11-24T03:57:07.365992Z",
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
            "completed_at": "2026-11-24T03:57:07.375292Z",
            "recorded_by": None,
            "charged": False,
        },
    ],
    "timeline": [
        {
            "at": "2026-11-24T03:57:06.989968Z",
            "event": "invited",
            "status": "pending",
            "detail": "invitation created",
        },
        {
            "at": "2026-11-24T03:57:07.336226Z",
            "event": "email_not_sent",
            "status": "pending",
            "detail": "no SMTP server is configured",
        },
        {
            "at": "2026-11-24T03:57:07.349343Z",
            "event": "submit",
            "status": "in_progress",
            "detail": "the candidate gave consent and submitted the form",
        },
        {
            "at": "2026-11-24T03:57:07.359811Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "fraud_database: clear",
        },
        {
            "at": "2026-11-24T03:57:07.365992Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "identity: clear",
        },
        {
            "at": "2026-11-24T03:57:07.375292Z",
            "event": "check_completed",
            "status": "in_progress",
            "detail": "sanctions_pep: clear",
        },
        {
            "at": "2026-11-24T03:57:07.375292Z",
            "event": "complete",
            "status": "completed",
            "detail": "every check has a result: clear",
        },
    ],
}


REINITIATED: dict[str, Any] = {
    "reference": "bgc_06h0qct3zpw5xs9xm69rnxb5fr",
    "live": False,
    "state": "pending",
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
    "invitation_url": "http://hakiki.test/invitations/iaB_KUkX4_h3flKsv-66wKTLFEM_fzjdNWaakBtEfig",
    "expires_at": "2026-12-01T03:57:07.876574Z",
    "submitted_at": None,
    "completed_at": None,
    "price": 0,
    "charged_amount": 0,
    "currency": "KES",
    "callback_url": None,
    "created_at": "2026-11-24T03:57:07.453170Z",
}

"""Examples of the screening endpoints' requests and answers, shown in the OpenAPI document.

Each answer is what the sandbox gives for the request example beside it (docs/sandbox.md), so
"Try it out" with a sandbox key returns it, apart from the ids; tests/test_openapi_examples.py
replays them."""

from __future__ import annotations

from typing import Any

# POST /v3/screening/sanction: a sandbox test name of each subject type.
SANCTION_REQUESTS: list[dict[str, Any]] = [
    {"name": "Sandbox Sanction Person", "subject_type": "person"},
    {"name": "Sandbox Sanction Trading Limited", "subject_type": "business", "countries": ["NG"]},
]

# The answer to the first of SANCTION_REQUESTS (every name screening answers this shape).
SCREENING_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82eeqsfjjxw937zecrgmc",
    "live": False,
    "reference": "scr_06h0p82eeqsfjjxw937zecrgmc",
    "billing": {"charged": False, "amount": 0, "currency": "NGN", "transaction_id": None},
    "ok": True,
    "status": "POTENTIAL_MATCH",
    "message": "1 potential match(es) to review.",
    "data": {
        "subject": {
            "name": "Sandbox Sanction Person",
            "subject_type": "person",
            "birth_date": None,
            "countries": [],
            "identifiers_given": 0,
        },
        "aml": {
            "subject_key": "18e1c4f2e93326777439cef67a0df762e992ed2f02e641d5fd441d05a80c7fc7",
            "checks": ["sanction"],
            "threshold": 0.8,
            "screened_name": "Sandbox Sanction Person",
            "hits": [
                {
                    "check": "sanction",
                    "list_code": "sandbox_sanction",
                    "list_version": "sandbox",
                    "programs": ["SANDBOX"],
                    "entity_id": "sbx-s-1",
                    "entity_name": "Sandbox Sanction Person",
                    "entity_schema": "Person",
                    "matched_name": "Sandbox Sanction Person",
                    "matched_name_kind": "primary",
                    "score": 1.0,
                    "explanation": {
                        "name": {
                            "score": 1.0,
                            "reason": "3 of 3 list-name parts matched "
                            "('sandbox' exact, 'sanction' "
                            "exact, 'person' exact)",
                        }
                    },
                    "entity_fingerprint": "f90f23613b34e1732bff",
                    "review": None,
                    "media": None,
                    "pep": None,
                }
            ],
            "lists": [
                {
                    "code": "sandbox_sanction",
                    "title": "Sandbox sanctions list",
                    "version": "sandbox",
                    "checks": ["sanction"],
                    "licence": None,
                    "published": "2026-11-27",
                    "age_days": 0,
                    "stale": False,
                }
            ],
            "unavailable": [],
            "suppressed": [],
            "outcomes": [
                {
                    "check": "sanction",
                    "outcome": "hits",
                    "reason": None,
                    "lists": ["sandbox_sanction"],
                },
            ],
            "status": "POTENTIAL_MATCH",
            "complete": True,
        },
        "monitored_subject_id": None,
    },
}


# A false positive on SCREENING_RESULT's hit (its subject_key and entity_fingerprint).
REVIEW_REQUEST: dict[str, Any] = {
    "subject_key": "18e1c4f2e93326777439cef67a0df762e992ed2f02e641d5fd441d05a80c7fc7",
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "f90f23613b34e1732bff",
    "decision": "false_positive",
    "reason": "Different person: customer born 1994 in Kano, listed person 1970.",
}


# An alert opened by a sandbox screening of "Sandbox Sanction Person" (GET /v3/screening/alerts).
ALERT: dict[str, Any] = {
    "id": "alrt_06h1xhrf6qd2anxy1tekx56bxm",
    "status": "open",
    "origin": "onboarding",
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "f90f23613b34e1732bff",
    "score": 1.0,
    "hit": {
        "check": "sanction",
        "list_code": "sandbox_sanction",
        "list_version": "sandbox",
        "programs": ["SANDBOX"],
        "entity_id": "sbx-s-1",
        "entity_name": "Sandbox Sanction Person",
        "entity_schema": "Person",
        "matched_name": "Sandbox Sanction Person",
        "matched_name_kind": "primary",
        "score": 1.0,
        "explanation": {
            "name": {
                "score": 1.0,
                "reason": "3 of 3 list-name parts matched ('sandbox' exact, "
                "'sanction' exact, 'person' exact)",
            }
        },
        "entity_fingerprint": "f90f23613b34e1732bff",
        "review": None,
        "media": None,
        "pep": None,
    },
    "subject": {
        "subject_key": "18e1c4f2e93326777439cef67a0df762e992ed2f02e641d5fd441d05a80c7fc7",
        "monitored_subject_id": None,
        "name": "Sandbox Sanction Person",
        "reference": None,
    },
    "assignee": None,
    "decision": None,
    "created_at": "2026-11-27T20:51:31.765735Z",
    "updated_at": "2026-11-27T20:51:31.765735Z",
}

# The same alert after POST .../assign, .../comments and .../resolve (false_positive).
ALERT_WITH_HISTORY: dict[str, Any] = {
    "id": "alrt_06h1xhrf6qd2anxy1tekx56bxm",
    "status": "resolved",
    "origin": "onboarding",
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "f90f23613b34e1732bff",
    "score": 1.0,
    "hit": {
        "check": "sanction",
        "list_code": "sandbox_sanction",
        "list_version": "sandbox",
        "programs": ["SANDBOX"],
        "entity_id": "sbx-s-1",
        "entity_name": "Sandbox Sanction Person",
        "entity_schema": "Person",
        "matched_name": "Sandbox Sanction Person",
        "matched_name_kind": "primary",
        "score": 1.0,
        "explanation": {
            "name": {
                "score": 1.0,
                "reason": "3 of 3 list-name parts matched ('sandbox' exact, "
                "'sanction' exact, 'person' exact)",
            }
        },
        "entity_fingerprint": "f90f23613b34e1732bff",
        "review": None,
        "media": None,
        "pep": None,
    },
    "subject": {
        "subject_key": "18e1c4f2e93326777439cef67a0df762e992ed2f02e641d5fd441d05a80c7fc7",
        "monitored_subject_id": None,
        "name": "Sandbox Sanction Person",
        "reference": None,
    },
    "assignee": "hk_test_abc878b53e111227a6c3216f",
    "decision": "false_positive",
    "created_at": "2026-11-27T20:51:31.765735Z",
    "updated_at": "2026-11-27T20:51:32.023908Z",
    "history": [
        {
            "id": "alev_06h1xhrf71p3eta0xxc2x3mv30",
            "event": "opened",
            "actor": "system",
            "detail": {
                "entity_fingerprint": "f90f23613b34e1732bff",
                "origin": "onboarding",
                "request_id": "req_06h1xhrf1k06aynaztttqbdcwm",
                "previous_alert_id": None,
            },
            "created_at": "2026-11-27T20:51:31.765735Z",
        },
        {
            "id": "alev_06h1xhrg25m8035m3xwqs23jwc",
            "event": "assigned",
            "actor": "hk_test_abc878b53e111227a6c3216f",
            "detail": {"assignee": "hk_test_abc878b53e111227a6c3216f"},
            "created_at": "2026-11-27T20:51:31.985264Z",
        },
        {
            "id": "alev_06h1xhrg5m4542te9ywx9tygxc",
            "event": "commented",
            "actor": "hk_test_abc878b53e111227a6c3216f",
            "detail": {"comment": "Asked the customer for a copy of the passport."},
            "created_at": "2026-11-27T20:51:32.013796Z",
        },
        {
            "id": "alev_06h1xhrg7wtfynhtygzv8m60dw",
            "event": "resolved",
            "actor": "hk_test_abc878b53e111227a6c3216f",
            "detail": {
                "decision": "false_positive",
                "reason": "Different person: customer born 1994 in Kano, listed 1970.",
            },
            "created_at": "2026-11-27T20:51:32.031427Z",
        },
    ],
}

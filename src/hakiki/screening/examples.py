"""Examples of the screening endpoints' requests and answers, shown in the OpenAPI document.

Each answer is what the sandbox gives for the request example beside it (docs/sandbox.md), so
"Try it out" with a sandbox key returns it, apart from the ids; tests/test_openapi_examples.py
replays them."""

from __future__ import annotations

from typing import Any

# POST /v3/screening/aml-with-id with AmlWithIdRequest's example: the golden BVN's AML
# digit 1 gives a PEP hit; compare on a verified number carries the names sent.
AML_WITH_ID_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82ecpm205hbqrq746d0kw",
    "live": False,
    "reference": "ref_sbx_a7bb0f03365bacb666a7e5a6",
    "billing": {"charged": False, "amount": 0, "currency": "NGN", "transaction_id": None},
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
        "channel": {"code": "bvn", "country": "NG"},
        "identity": {
            "first_name": "Adaeze",
            "middle_name": "Ngozi",
            "last_name": "Okafor",
            "business_name": None,
            "date_of_birth": "1988-04-12",
            "gender": "female",
            "phone": "+2348000000000",
            "nationality": "NG",
        },
        "aml": {
            "subject_key": "dc0bce4e7ddae9c5f2c6f9e02d72bf397fee5bf2379b9a7dcee59d9d1ea9b894",
            "checks": ["sanction", "pep"],
            "threshold": 0.8,
            "screened_name": "Adaeze Ngozi Okafor",
            "hits": [
                {
                    "check": "pep",
                    "list_code": "sandbox_pep",
                    "list_version": "sandbox",
                    "programs": ["SANDBOX"],
                    "entity_id": "sbx-pep-3cd37baf09",
                    "entity_name": "Adaeze Ngozi Okafor",
                    "entity_schema": "Person",
                    "matched_name": "Adaeze Ngozi Okafor",
                    "matched_name_kind": "primary",
                    "score": 1.0,
                    "explanation": {
                        "name": {
                            "score": 1.0,
                            "reason": "sandbox: the second-to-last digit 1 sets the pep bit (1)",
                        }
                    },
                    "entity_fingerprint": "188f34997e27db467f36",
                    "review": None,
                    "media": None,
                    "pep": {
                        "positions": [
                            {
                                "title": "Sandbox Minister of Test Affairs",
                                "country": "ke",
                                "start_date": "2022-09-27",
                                "end_date": None,
                                "tenure_ended": False,
                            }
                        ],
                        "countries": ["ke"],
                        "tenure_ended": False,
                    },
                }
            ],
            "lists": [
                {
                    "code": "sandbox_pep",
                    "title": "Sandbox pep list",
                    "version": "sandbox",
                    "checks": ["pep"],
                    "licence": None,
                    "published": "2026-11-27",
                    "age_days": 0,
                    "stale": False,
                },
                {
                    "code": "sandbox_sanction",
                    "title": "Sandbox sanction list",
                    "version": "sandbox",
                    "checks": ["sanction"],
                    "licence": None,
                    "published": "2026-11-27",
                    "age_days": 0,
                    "stale": False,
                },
            ],
            "unavailable": [],
            "suppressed": [],
            "outcomes": [
                {
                    "check": "sanction",
                    "outcome": "clear",
                    "reason": None,
                    "lists": ["sandbox_sanction"],
                },
                {"check": "pep", "outcome": "hits", "reason": None, "lists": ["sandbox_pep"]},
            ],
            "status": "POTENTIAL_MATCH",
            "complete": True,
        },
        "comparison": {
            "match": True,
            "score": 1.0,
            "threshold": 0.85,
            "first_name": {"supplied": "Adaeze", "on_record": "Adaeze", "score": 1.0},
            "last_name": {"supplied": "Okafor", "on_record": "Okafor", "score": 1.0},
            "reason": "first name matches; last name matches",
        },
        "monitored_subject_id": None,
    },
}

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

# GET /v3/screening/channels, two of its 16 channels shown, each with three of its test values.
CHANNEL_LIST: dict[str, Any] = {
    "data": [
        {
            "code": "bvn",
            "country": "NG",
            "subject": "person",
            "name": "Bank Verification Number",
            "format": "11 digits",
            "example": "22212345670",
            "sandbox": True,
            "live": True,
            "live_provider": "prembly",
            "requires": [],
            "test_values": [
                {
                    "number": "22222222200",
                    "status": "VERIFIED",
                    "aml": [],
                    "description": "VERIFIED, no AML hit",
                },
                {
                    "number": "22222222210",
                    "status": "VERIFIED",
                    "aml": ["pep"],
                    "description": "VERIFIED with a PEP hit",
                },
                {
                    "number": "22222222205",
                    "status": "NOT_FOUND",
                    "aml": [],
                    "description": "NOT_FOUND",
                },
            ],
        },
        {
            "code": "national_id",
            "country": "KE",
            "subject": "person",
            "name": "Kenyan national ID (Huduma/Maisha) number",
            "format": "7 to 9 digits",
            "example": "23456780",
            "sandbox": True,
            "live": True,
            "live_provider": "smile_id",
            "requires": [],
            "test_values": [
                {
                    "number": "20000000",
                    "status": "VERIFIED",
                    "aml": [],
                    "description": "VERIFIED, no AML hit",
                },
                {
                    "number": "20000005",
                    "status": "NOT_FOUND",
                    "aml": [],
                    "description": "NOT_FOUND",
                },
                {"number": "20000007", "status": "PENDING", "aml": [], "description": "PENDING"},
            ],
        },
    ],
    "pagination": {"page": 1, "page_size": 16, "total_pages": 1, "total_items": 16},
    "sandbox_rules": {
        "accepted": "Any number that fits the channel's format is accepted.",
        "last_digit": "0-4 VERIFIED, 5 NOT_FOUND, 6 MISMATCH when compare is true "
        "(else VERIFIED), 7 PENDING, 8 SOURCE_UNAVAILABLE, 9 FAILED "
        "(soft error).",
        "second_to_last_digit": "AML bitmask, each bit one hit: 1 adds a PEP hit, 2 "
        "a sanctions hit, 4 an adverse-media hit (only when "
        "adverse_media is true); 3 gives two hits (one PEP, "
        "one sanctions), 0 none.",
        "identities": "Mock identities are derived from the number, with names of "
        "the channel's country; with compare on a VERIFIED number the "
        "record carries the names you sent.",
        "charges": "Sandbox never charges the wallet.",
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

# The answer to REVIEW_REQUEST.
REVIEW: dict[str, Any] = {
    "id": "rev_06h0p82myq13jkm11e910q2c44",
    "subject_key": "18e1c4f2e93326777439cef67a0df762e992ed2f02e641d5fd441d05a80c7fc7",
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "f90f23613b34e1732bff",
    "decision": "false_positive",
    "reason": "Different person: customer born 1994 in Kano, listed person 1970.",
    "reviewer": "hk_test_5f0c2a9e81d34b7a6c1e0f92",
    "created_at": "2026-11-24T01:16:38.005432Z",
}

# GET /v3/account/screening-reviews after REVIEW.
REVIEW_LIST: dict[str, Any] = {
    "data": [REVIEW],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
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

ALERT_LIST: dict[str, Any] = {
    "data": [ALERT],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
}

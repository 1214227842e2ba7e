"""OpenAPI examples of the credit endpoints."""

from __future__ import annotations

from typing import Any

BUREAU_REQUESTS: list[dict[str, Any]] = [
    {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": "12345670",
        "report_reason": "new_application",
        "consent": {
            "obtained_at": "2026-11-20T09:14:00Z",
            "method": "checkbox",
            "notice_version": "privacy-notice-2026-09",
            "notice_url": "https://lender.example/privacy",
            "purposes": ["credit_report"],
            "language": "en",
            "subject_reference": "cust-000123",
        },
        "loan_amount": 5_000_000,
    },
    {
        "country_code": "NG",
        "id_type": "bvn",
        "id_number": "22212345670",
        "report_reason": "account_review",
        "consent": True,
    },
]


DECISION_REQUESTS: list[dict[str, Any]] = [
    {
        "loan": {"amount": 5_000_000, "term_months": 6, "purpose": "electronics"},
        "applicant": {
            "monthly_income": 15_000_000,
            "monthly_obligations": 1_000_000,
            "employment_months": 60,
        },
        "bureau": {
            "accounts": 3,
            "open_accounts": 2,
            "performing_accounts": 3,
            "lender_types": ["bank", "sacco"],
        },
        "statement": {
            "months": 6,
            "average_monthly_inflow": 16_000_000,
            "average_monthly_outflow": 12_000_000,
            "average_balance": 6_000_000,
            "cash_flow_score": 72,
        },
        "signals": {"sanctions_hit": False, "confirmed_fraud": False, "pep": False},
    },
    {
        "loan": {"amount": 20_000_000, "term_months": 24},
        "bureau": {"accounts": 0},
        "cutoffs": {"approve": 650, "refer": 580},
    },
]

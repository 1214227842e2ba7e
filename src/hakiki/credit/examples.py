"""OpenAPI examples of the credit endpoints."""

from __future__ import annotations

from typing import Any

BUREAU_REQUESTS: list[dict[str, Any]] = [
    {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": "12345670",
        "report_reason": "new_application",
        "consent": True,
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

BUREAU_RESULT: dict[str, Any] = {
    "request_id": "req_01JD2K3M4N5P6Q7R8S9T0V1W2X",
    "live": False,
    "reference": "crb_01JD2K3M4N5P6Q7R8S9T0V1W2X",
    "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    "ok": True,
    "response_code": "00",
    "status": "VERIFIED",
    "found": True,
    "soft_error": False,
    "async_pending": False,
    "message": "Bureau report retrieved.",
    "provider": "sandbox",
    "data": {
        "status": "FOUND",
        "report": {
            "bureau": "sandbox",
            "bureau_name": "Hakiki sandbox bureau",
            "country_code": "KE",
            "retrieved_at": "2026-11-24T05:40:00Z",
            "bureau_reference": "sbx-5670",
            "currency": "KES",
            "file": "established",
            "bureau_score": 690,
            "summary": {
                "accounts": 3,
                "open_accounts": 2,
                "performing_accounts": 3,
                "non_performing_accounts": 0,
                "total_balance": 16_600_000,
                "total_arrears": 0,
                "max_days_past_due": 0,
            },
            "lenders": [{"lender_type": "bank", "performing": 1, "non_performing": 0}],
            "accounts": [
                {
                    "lender_type": "bank",
                    "product": "personal loan",
                    "status": "open",
                    "performance": "performing",
                    "opened_on": "2025-02-10",
                    "original_amount": 30_000_000,
                    "balance": 14_500_000,
                    "arrears": 0,
                    "days_past_due": 0,
                    "last_payment_on": "2026-10-28",
                }
            ],
            "enquiries": {"last_3_months": 0, "last_6_months": 1, "last_12_months": 2},
            "bounced_cheques": {"last_3_months": 0, "last_6_months": 0, "last_12_months": 0},
            "legal_cases": 0,
            "fraud_flag": False,
        },
    },
}

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

DECISION_RESULT: dict[str, Any] = {
    "request_id": "req_01JD2K3M4N5P6Q7R8S9T0V1W2Y",
    "live": False,
    "reference": "dec_01JD2K3M4N5P6Q7R8S9T0V1W2Y",
    "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    "decision": "refer",
    "score": 601,
    "band": "D",
    "score_decision": "refer",
    "cutoffs": {"approve": 620, "refer": 560},
    "reasons": [
        {
            "code": "R02",
            "variable": "loan_term_months",
            "points_lost": 110.6,
            "description": "Long repayment term",
        }
    ],
    "overrides": [],
    "variables": {"loan_term_months": ">= 22", "account_balance": None},
    "bureau": None,
    "statement": None,
    "model": {
        "version": "hakiki-german-1.0.0",
        "holdout_auc": 0.757,
        "holdout_ks": 0.405,
        "plain_logistic_holdout_auc": 0.750,
        "base_score": 650.0,
        "base_odds": 5.0,
        "points_to_double_odds": 50.0,
    },
    "notice": "...",
}

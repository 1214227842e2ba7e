"""The 360 endpoints' sandbox: the real engine on the request alone (no operator file, no
language model), so the test values are profiles: a strong, a marginal and a weak one for each
model, and a 400 (docs/sandbox.md#360-evaluation)."""

from __future__ import annotations

import copy
from typing import Any

from hakiki.core.endpoints import Examples, TestValue
from hakiki.evaluation import examples

_FREE = {"live": False, "billing.charged": False, "billing.amount": 0}
INVALID = {"http_status": 400, "error": "invalid_request"}


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(base)
    body.update(copy.deepcopy(changes))
    return body


def _ok(description: str, body: dict[str, Any], rating: str, score: int) -> TestValue:
    expect = {"http_status": 200, **_FREE, "rating": rating, "score": score}
    return TestValue(description=description, body=body, expect=expect)


_LATE = {
    "max_days_past_due": 45,
    "non_performing_accounts": 0,
    "written_off_accounts": 0,
    "months_of_history": 14,
    "enquiries_90_days": 4,
}
_DEFAULTED = {
    "max_days_past_due": 120,
    "non_performing_accounts": 1,
    "written_off_accounts": 1,
    "months_of_history": 20,
    "enquiries_90_days": 8,
}
_TIGHT_CASH = {
    "months_covered": 6,
    "average_monthly_inflow": 30000,
    "average_monthly_outflow": 26000,
    "inflow_cv_percent": 40,
    "monthly_repayment": 4000,
}

CROP_MARGINAL = _with(
    examples.CROP,
    bureau=_LATE,
    cash_flow=_TIGHT_CASH,
    environment={"season_rainfall_mm": 420, "normal_rainfall_mm": 600, "rainfall_cv_percent": 28},
    market={"offtake": "none", "distance_km": 25, "price_cv_percent": 25},
)
CROP_WEAK = _with(
    examples.CROP,
    bureau=_DEFAULTED,
    cash_flow=None,
    environment={"season_rainfall_mm": 250, "normal_rainfall_mm": 600, "rainfall_cv_percent": 45},
    market={"offtake": "none", "distance_km": 80},
)
LIVESTOCK_MARGINAL = _with(
    examples.LIVESTOCK,
    bureau=_LATE,
    cash_flow=_TIGHT_CASH,
    herd={"species": "goats", "head_count": 60, "vaccinated_percent": 60},
    environment={
        "season_rainfall_mm": 240,
        "normal_rainfall_mm": 310,
        "rainfall_cv_percent": 30,
        "ndvi": 0.4,
        "ndvi_norm": 0.5,
    },
    market={"offtake": "none", "distance_km": 30, "price_cv_percent": 25},
)
LIVESTOCK_WEAK = _with(
    examples.LIVESTOCK,
    bureau=_DEFAULTED,
    cash_flow=None,
    herd={"species": "cattle", "head_count": 15, "vaccinated_percent": 10},
    environment={
        "season_rainfall_mm": 120,
        "normal_rainfall_mm": 310,
        "rainfall_cv_percent": 45,
        "ndvi": 0.22,
        "ndvi_norm": 0.5,
    },
    market={"offtake": "none", "distance_km": 90},
)
SME_MARGINAL = _with(
    examples.AGRI_SME,
    business_bureau=_LATE,
    cash_flow={
        "months_covered": 12,
        "average_monthly_inflow": 3000000,
        "average_monthly_outflow": 2800000,
        "inflow_cv_percent": 35,
        "monthly_repayment": 250000,
    },
    audited_accounts={
        "audit_opinion": "qualified",
        "net_margin_percent": 3,
        "current_ratio": 1.1,
        "debt_to_equity": 1.8,
        "years_of_accounts": 2,
    },
)
SME_WEAK = _with(
    examples.AGRI_SME,
    principals_bureau=[_DEFAULTED],
    cash_flow=None,
    audited_accounts={
        "audit_opinion": "adverse",
        "net_margin_percent": -6,
        "current_ratio": 0.7,
        "debt_to_equity": 3.5,
        "years_of_accounts": 1,
    },
)


def _crop_values() -> list[TestValue]:
    return [
        _ok("strong crop farmer (the request example)", examples.CROP, "strong", 979),
        _ok("marginal: 45 days late, a dry season, no off-taker", CROP_MARGINAL, "marginal", 636),
        _ok(
            "weak: a written-off account, drought, no cash-flow figures (conservative 250)",
            CROP_WEAK,
            "weak",
            321,
        ),
        TestValue(
            description="no farm: 400 naming farm",
            body={k: v for k, v in examples.CROP.items() if k != "farm"},
            expect={**INVALID, "details.0.field": "farm"},
        ),
        TestValue(
            description="an unknown county: 400 naming location.county",
            body=_with(examples.CROP, location={"county": "Atlantis"}),
            expect={**INVALID, "details.0.field": "location.county"},
        ),
    ]


def _livestock_values() -> list[TestValue]:
    return [
        _ok("strong livestock farmer (the request example)", examples.LIVESTOCK, "strong", 935),
        _ok(
            "marginal: late payments, pasture at 80% of its norm",
            LIVESTOCK_MARGINAL,
            "marginal",
            596,
        ),
        _ok("weak: written-off account, drought, 10% vaccinated", LIVESTOCK_WEAK, "weak", 245),
        TestValue(
            description="a head count of 0: 400 naming herd.head_count",
            body=_with(examples.LIVESTOCK, herd={"species": "cattle", "head_count": 0}),
            expect={**INVALID, "details.0.field": "herd.head_count"},
        ),
    ]


def _sme_values() -> list[TestValue]:
    return [
        _ok("strong agri-SME (the request example)", examples.AGRI_SME, "strong", 942),
        _ok(
            "marginal: late payments, qualified opinion, thin margins",
            SME_MARGINAL,
            "marginal",
            589,
        ),
        _ok(
            "weak: a principal's written-off account, adverse opinion, no cash-flow figures",
            SME_WEAK,
            "weak",
            237,
        ),
        TestValue(
            description="an unknown audit opinion: 400 naming audited_accounts.audit_opinion",
            body=_with(examples.AGRI_SME, audited_accounts={"audit_opinion": "clean"}),
            expect={**INVALID, "details.0.field": "audited_accounts.audit_opinion"},
        ),
        TestValue(
            description="nothing to score (only the country, or empty objects): 400",
            body={"country_code": "KE", "audited_accounts": {}, "principals_bureau": [{}]},
            expect={**INVALID, "details.0.field": "body"},
        ),
    ]


CROP = Examples(_crop_values())
LIVESTOCK = Examples(_livestock_values())
AGRI_SME = Examples(_sme_values())

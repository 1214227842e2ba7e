"""The credit endpoints' sandbox (docs/sandbox.md#credit).

Bureau: the identity number's last digit picks the file: 0, 1, 2 and 7 a clean file; 3 a thin
file (known to the bureau, no credit account); 4 delinquent (an account 45 days past due);
6 seriously delinquent (non-performing, 120 days past due, a legal case); 5 not found; 8 the
bureau unavailable (02, nothing charged); 9 failed (09). Reports say ``bureau: sandbox``.

Decision: sandbox runs the real scorecard (it is local and deterministic) and never charges;
its test values are applicants that approve, refer and decline.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from hakiki.core.endpoints import Examples, TestValue
from hakiki.credit.providers.base import BureauPull, BureauQuery, PullOutcome
from hakiki.credit.providers.normalise import assemble
from hakiki.credit.schemas import BureauAccount, PeriodCounts

NAME = "sandbox"
CURRENCY = {"KE": "KES", "NG": "NGN"}
_REFUSED = {
    "5": (PullOutcome.NOT_FOUND, "sandbox: last digit 5, no record at the bureau"),
    "8": (PullOutcome.UNAVAILABLE, "sandbox: last digit 8, the bureau is unavailable"),
    "9": (PullOutcome.FAILED, "sandbox: last digit 9, the bureau refused the request"),
}


def _loan(
    lender: str, product: str, opened: date, amount: int, balance: int, days: int, arrears: int
) -> BureauAccount:
    return BureauAccount(
        lender_type=lender,  # type: ignore[arg-type]
        product=product,
        status="open" if balance else "closed",
        performance="non_performing" if days >= 90 else "performing",
        opened_on=opened,
        original_amount=amount,
        balance=balance,
        arrears=arrears,
        days_past_due=days,
        last_payment_on=date(2026, 10, 28) if days < 90 else date(2026, 5, 30),
    )


def _accounts(digit: str) -> list[BureauAccount]:
    if digit == "3":
        return []
    closed = _loan("digital_lender", "mobile loan", date(2024, 3, 2), 500_000, 0, 0, 0)
    if digit == "4":
        return [
            _loan(
                "bank", "personal loan", date(2025, 2, 10), 30_000_000, 18_200_000, 45, 2_600_000
            ),
            closed,
        ]
    if digit == "6":
        return [
            _loan(
                "microfinance",
                "business loan",
                date(2024, 8, 1),
                12_000_000,
                9_700_000,
                120,
                4_100_000,
            ),
            _loan(
                "bank", "personal loan", date(2025, 2, 10), 30_000_000, 21_000_000, 30, 2_600_000
            ),
            closed,
        ]
    return [
        _loan("bank", "personal loan", date(2025, 2, 10), 30_000_000, 14_500_000, 0, 0),
        _loan("sacco", "development loan", date(2023, 6, 15), 8_000_000, 2_100_000, 0, 0),
        closed,
    ]


def _periods(three: int, six: int, twelve: int) -> PeriodCounts:
    return PeriodCounts(last_3_months=three, last_6_months=six, last_12_months=twelve)


class BureauSandbox:
    def answer(self, query: BureauQuery, now: datetime) -> BureauPull:
        digit = query.id_number[-1]
        if digit in _REFUSED:
            outcome, message = _REFUSED[digit]
            return BureauPull(outcome, NAME, None, message)
        accounts = _accounts(digit)
        severe, late = digit == "6", digit in "46"
        report = assemble(
            bureau=NAME,
            bureau_name="Hakiki sandbox bureau",
            country=query.country,
            currency=CURRENCY[query.country],
            retrieved_at=now,
            bureau_reference="sbx-" + query.id_number[-4:],
            bureau_score={"3": None, "4": 540, "6": 420}.get(digit, 690 + 5 * int(digit)),
            accounts=accounts,
            lenders=None,
            enquiries=_periods(3, 5, 8) if late else _periods(0, 1, 2),
            bounced_cheques=_periods(1, 2, 2) if severe else _periods(0, 0, 0),
            legal_cases=1 if severe else 0,
            fraud_flag=False,
        )
        return BureauPull(PullOutcome.FOUND, NAME, report, "found")

    def test_values(self) -> list[TestValue]:
        def body(country: str, id_type: str, number: str, **more: Any) -> dict[str, Any]:
            return {
                "country_code": country,
                "id_type": id_type,
                "id_number": number,
                "report_reason": "new_application",
                **more,
            }

        def found(file: str, non_performing: int) -> dict[str, Any]:
            return {
                "http_status": 200,
                "response_code": "00",
                "status": "VERIFIED",
                "data.status": "FOUND",
                "data.report.bureau": NAME,
                "data.report.file": file,
                "data.report.summary.non_performing_accounts": non_performing,
            }

        refused = {"http_status": 200, "data.status": "NOT_FOUND", "data.report": None}
        invalid = {"http_status": 400, "error": "invalid_request"}
        return [
            TestValue(
                "last digit 0: a clean file",
                found("established", 0),
                body("KE", "national_id", "12345670"),
            ),
            TestValue(
                "last digit 3: a thin file (no credit account)",
                found("thin", 0),
                body("KE", "national_id", "12345673"),
            ),
            TestValue(
                "last digit 4: delinquent (45 days past due)",
                {**found("established", 0), "data.report.summary.max_days_past_due": 45},
                body("KE", "national_id", "12345674"),
            ),
            TestValue(
                "last digit 6: non-performing (120 days past due), a legal case",
                {**found("established", 1), "data.report.legal_cases": 1},
                body("KE", "national_id", "12345676"),
            ),
            TestValue(
                "a Nigerian BVN, clean file",
                {**found("established", 0), "data.report.currency": "NGN"},
                body("NG", "bvn", "22212345670"),
            ),
            TestValue(
                "last digit 5: not found",
                {**refused, "response_code": "01", "status": "NOT_FOUND"},
                body("KE", "national_id", "12345675"),
            ),
            TestValue(
                "last digit 8: the bureau is unavailable (not charged)",
                {**refused, "response_code": "02", "status": "SOURCE_UNAVAILABLE"},
                body("KE", "national_id", "12345678"),
            ),
            TestValue(
                "last digit 9: the bureau refused (not charged)",
                {**refused, "response_code": "09", "status": "FAILED"},
                body("KE", "national_id", "12345679"),
            ),
            TestValue(
                "consent true (API 1.x, deprecated): the caller's attestation, recorded as "
                "an attested consent record",
                found("established", 0),
                body("KE", "national_id", "12345670", consent=True),
            ),
            TestValue(
                "consent false: 400 naming consent",
                {**invalid, "details.0.field": "consent"},
                body("KE", "national_id", "12345670", consent=False),
            ),
            TestValue(
                "a BVN in Kenya: 400 naming id_type",
                {**invalid, "details.0.field": "id_type"},
                body("KE", "bvn", "22212345670"),
            ),
            TestValue(
                "a 4-digit national ID: 400 naming id_number",
                {**invalid, "details.0.field": "id_number"},
                body("KE", "national_id", "1234"),
            ),
            TestValue(
                "Uganda: 503, no licensed bureau documents a public API (not charged)",
                {"http_status": 503, "error": "channel_unavailable"},
                body("UG", "national_id", "CM12345678ABCD"),
            ),
            TestValue(
                "Tanzania: 503, no licensed bureau documents a public API (not charged)",
                {"http_status": 503, "error": "channel_unavailable"},
                body("TZ", "national_id", "19850101000000000000"),
            ),
        ]


BUREAU = BureauSandbox()


def _decision(expect: dict[str, Any], description: str, **body: Any) -> TestValue:
    return TestValue(description, {"http_status": 200, **expect}, body)


STRONG: dict[str, Any] = {
    "loan": {"amount": 5_000_000, "term_months": 6, "purpose": "electronics"},
    "applicant": {
        "monthly_income": 15_000_000,
        "monthly_obligations": 1_000_000,
        "employment_months": 60,
    },
    "bureau": {"accounts": 2, "open_accounts": 1, "performing_accounts": 2, "lender_types": []},
    "statement": {
        "months": 6,
        "average_monthly_inflow": 16_000_000,
        "average_monthly_outflow": 12_000_000,
        "average_balance": 6_000_000,
    },
}
MIDDLE = {
    "loan": {"amount": 20_000_000, "term_months": 24, "purpose": "furniture"},
    "applicant": {
        "monthly_income": 12_000_000,
        "monthly_obligations": 1_000_000,
        "employment_months": 30,
    },
    "bureau": {
        "accounts": 2,
        "open_accounts": 1,
        "performing_accounts": 2,
        "lender_types": ["bank"],
    },
    "statement": {
        "months": 6,
        "average_monthly_inflow": 12_000_000,
        "average_monthly_outflow": 11_000_000,
        "average_balance": 2_000_000,
    },
}
WEAK = {
    "loan": {"amount": 60_000_000, "term_months": 48, "purpose": "new_car"},
    "applicant": {
        "monthly_income": 10_000_000,
        "monthly_obligations": 1_500_000,
        "employment_months": 4,
    },
    "bureau": {"accounts": 0},
    "statement": {
        "months": 6,
        "average_monthly_inflow": 10_000_000,
        "average_monthly_outflow": 10_500_000,
        "average_balance": -300_000,
    },
}

DECISION = Examples(
    [
        _decision(
            {"decision": "approve", "overrides": []}, "a strong applicant: approve", **STRONG
        ),
        _decision(
            {"decision": "refer", "score_decision": "refer"},
            "a middling applicant: refer",
            **MIDDLE,
        ),
        _decision(
            {"decision": "decline", "score_decision": "decline"},
            "a weak applicant (thin file, overdrawn, long term): decline",
            **WEAK,
        ),
        _decision(
            {
                "decision": "decline",
                "score_decision": "approve",
                "overrides.0.code": "sanctions_hit",
            },
            "a sanctions hit declines whatever the score",
            **STRONG,
            signals={"sanctions_hit": True},
        ),
        _decision(
            {"decision": "decline", "overrides.0.code": "bureau_non_performing"},
            "a non-performing bureau account declines",
            **{
                **STRONG,
                "bureau": {"accounts": 2, "non_performing_accounts": 1, "max_days_past_due": 120},
            },
        ),
        TestValue(
            "a bureau reference of no report of yours: 404",
            {"http_status": 404, "error": "not_found"},
            {"loan": STRONG["loan"], "bureau_reference": "crb_00000000000000000000"},
        ),
        TestValue(
            "a statement_analysis_id of no analysis of yours: 404",
            {"http_status": 404, "error": "not_found", "details.0.field": "statement_analysis_id"},
            {"loan": STRONG["loan"], "statement_analysis_id": "sta_00000000000000000000"},
        ),
        TestValue(
            "both a statement_analysis_id and a statement: 400 naming statement",
            {"http_status": 400, "error": "invalid_request", "details.0.field": "statement"},
            {
                "loan": STRONG["loan"],
                "statement_analysis_id": "sta_00000000000000000000",
                "statement": STRONG["statement"],
            },
        ),
        TestValue(
            "a purpose the demo model was not trained on: 400 naming loan.purpose",
            {"http_status": 400, "error": "invalid_request", "details.0.field": "loan.purpose"},
            {**STRONG, "loan": {**STRONG["loan"], "purpose": "school_fees"}},
        ),
        TestValue(
            "a loan without a term: 400 naming loan.term_months",
            {"http_status": 400, "error": "invalid_request", "details.0.field": "loan.term_months"},
            {"loan": {"amount": 5_000_000}},
        ),
        TestValue(
            "both a bureau reference and a bureau summary: 400 naming bureau",
            {"http_status": 400, "error": "invalid_request", "details.0.field": "bureau"},
            {
                "loan": STRONG["loan"],
                "bureau_reference": "crb_00000000000000000000",
                "bureau": STRONG["bureau"],
            },
        ),
    ]
)

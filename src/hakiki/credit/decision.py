"""Credit decisions: the trained scorecard (model/scorecard.json, trained by
scripts/train_credit_model.py) applied to what the lender knows, the cut-offs, and the rules
that override a score. Sandbox keys get the same engine, never charged."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call, hold_price
from hakiki.core.envelope import payload_answer
from hakiki.core.errors import ApiError
from hakiki.credit.reports import stored_report
from hakiki.credit.schemas import (
    DECISION_VERDICTS,
    BureauUsed,
    CreditReport,
    Cutoffs,
    DecisionRequest,
    DecisionResult,
    ModelInfo,
    OverrideOut,
    Reason,
)
from hakiki.credit.statement_inputs import (
    StatementFacts,
    statement_facts,
    statement_overrides,
)
from hakiki.engines.credit import features, policy
from hakiki.engines.credit.scorecard import Scorecard

MODEL_FILE = Path(__file__).parent / "model" / "scorecard.json"
NOTICE = (
    "Central Bank of Kenya: a credit score is not the sole reason to refuse credit. The lender "
    "decides on the applicant's whole circumstances, tells a declined applicant the reasons, "
    "and the applicant may dispute the bureau's data with the bureau."
)
Band = Literal["A", "B", "C", "D", "E"]
BANDS: tuple[tuple[int, Band], ...] = ((720, "A"), (660, "B"), (620, "C"), (560, "D"), (300, "E"))


@cache
def scorecard() -> Scorecard:
    return Scorecard.load(MODEL_FILE)


def band(score: int) -> Band:
    return next(letter for floor, letter in BANDS if score >= floor)


def _invalid(field: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"{field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


def _facts_of_report(report: CreditReport) -> features.BureauFacts:
    s = report.summary
    return features.BureauFacts(
        accounts=s.accounts,
        open_accounts=s.open_accounts,
        performing_accounts=s.performing_accounts,
        non_performing_accounts=s.non_performing_accounts,
        max_days_past_due=s.max_days_past_due,
        arrears=s.total_arrears,
        other_lender_types=tuple(
            sorted(
                {
                    lender.lender_type
                    for lender in report.lenders
                    if lender.performing + lender.non_performing
                }
            )
        ),
    )


async def _bureau(
    call: Call, body: DecisionRequest
) -> tuple[features.BureauFacts | None, BureauUsed | None]:
    if body.bureau is not None and body.bureau_reference is not None:
        raise _invalid("bureau", "give a bureau_reference or a bureau summary, not both")
    if body.bureau is not None:
        given = body.bureau
        facts = features.BureauFacts(
            accounts=given.accounts,
            open_accounts=given.open_accounts,
            performing_accounts=given.performing_accounts,
            non_performing_accounts=given.non_performing_accounts,
            max_days_past_due=given.max_days_past_due,
            arrears=given.total_arrears,
            other_lender_types=tuple(sorted(set(given.lender_types))),
        )
        return facts, BureauUsed(reference=None, bureau="given", retrieved_at=None)
    if body.bureau_reference is None:
        return None, None
    runtime = call.runtime
    report = await stored_report(runtime.db, runtime.vault, call.principal, body.bureau_reference)
    if report is None:
        raise ApiError(
            404,
            "not_found",
            "No bureau report of this organisation and environment has that reference.",
            details=[{"field": "bureau_reference", "problem": "unknown reference"}],
        )
    used = BureauUsed(
        reference=body.bureau_reference, bureau=report.bureau, retrieved_at=report.retrieved_at
    )
    return _facts_of_report(report), used


def _cutoffs(call: Call, body: DecisionRequest) -> Cutoffs:
    settings = call.runtime.settings
    chosen = body.cutoffs or Cutoffs(
        approve=settings.credit_approve_score, refer=settings.credit_refer_score
    )
    if chosen.refer > chosen.approve:
        raise _invalid("cutoffs.refer", "the refer cut-off cannot be above the approve cut-off")
    return chosen


def _applicant(
    body: DecisionRequest,
    bureau: features.BureauFacts | None,
    statement: StatementFacts | None,
) -> features.Applicant:
    return features.Applicant(
        monthly_income=body.applicant.monthly_income,
        monthly_obligations=body.applicant.monthly_obligations,
        loan_amount=body.loan.amount,
        loan_term_months=body.loan.term_months,
        loan_purpose=body.loan.purpose,
        employment_months=body.applicant.employment_months,
        bureau=bureau,
        average_balance=statement.average_balance if statement else None,
        statement_inflow=statement.average_monthly_inflow if statement else None,
    )


async def decide(call: Call, body: DecisionRequest) -> bytes:
    cutoffs = _cutoffs(call, body)
    bureau, used = await _bureau(call, body)
    statement, statement_used = await statement_facts(call, body)
    if call.principal.live:
        await hold_price(call)
    model = scorecard()
    applicant = _applicant(body, bureau, statement)
    scored = model.score(features.variables(applicant))
    score_decision = policy.by_score(scored.score, policy.Cutoffs(cutoffs.approve, cutoffs.refer))
    signals = body.signals
    found = policy.overrides(
        policy.Signals(signals.sanctions_hit, signals.confirmed_fraud, signals.pep),
        bureau.non_performing_accounts if bureau else 0,
        bureau.max_days_past_due if bureau else 0,
        features.debt_to_income(applicant),
        call.runtime.settings.credit_max_debt_to_income,
    ) + statement_overrides(statement)
    decision = policy.decide(score_decision, found)
    metrics, scaling = model.metrics, model.document["scaling"]
    info = ModelInfo(
        version=model.version,
        holdout_auc=metrics["holdout_auc"],
        holdout_ks=metrics["holdout_ks"],
        plain_logistic_holdout_auc=metrics["plain_logistic_holdout_auc"],
        base_score=scaling["base_score"],
        base_odds=scaling["base_odds"],
        points_to_double_odds=scaling["pdo"],
    )
    reasons = [
        Reason(
            code=c.reason_code,
            variable=c.variable,
            points_lost=round(c.points_lost, 1),
            description=c.reason if c.bin is not None else f"{c.reason} (not supplied)",
        )
        for c in scored.reasons()
    ]

    def render(charge: Charge | None) -> bytes:
        return payload_answer(
            DecisionResult,
            call,
            charge,
            verdict=DECISION_VERDICTS[decision],
            reference="dec_" + call.request_id.removeprefix("req_"),
            decision=decision,
            score=scored.score,
            band=band(scored.score),
            score_decision=score_decision,
            cutoffs=cutoffs,
            reasons=reasons,
            overrides=[
                OverrideOut(code=o.code, decision=o.decision, reason=o.reason) for o in found
            ],
            variables={c.variable: c.bin for c in scored.contributions},
            bureau=used,
            statement=statement_used,
            model=info,
            notice=NOTICE,
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description=f"Credit decision ({decision})",
    )

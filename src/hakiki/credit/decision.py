"""Credit decisions: the organisation's active scorecard (its own, trained on its loan book:
credit/registry), else the demo scorecard (model/scorecard.json, trained on the German Credit
data by scripts/train_credit_model.py, labelled demo in every answer), applied to what the lender
knows, the cut-offs, and the rules that override a score. Every decision is stored with the model
that made it and its inputs (encrypted), so it can be replayed. Sandbox keys get the same
engine, never charged."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call, hold_price
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read
from hakiki.core.envelope import payload_answer
from hakiki.core.errors import ApiError
from hakiki.credit.products import service as products
from hakiki.credit.registry import repository as registry_repository
from hakiki.credit.registry.service import InUse, model_in_use, stored_scorecard
from hakiki.credit.replay import applicant_inputs, save_decision, stored_inputs
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
    ProductUsed,
    Reason,
)
from hakiki.credit.statement_inputs import (
    StatementFacts,
    statement_facts,
    statement_overrides,
)
from hakiki.engines.credit import features, lender, policy
from hakiki.engines.credit.scorecard import Scorecard, Value

MODEL_FILE = Path(__file__).parent / "model" / "scorecard.json"
NOTICE = (
    "Central Bank of Kenya: a credit score is not the sole reason to refuse credit. The lender "
    "decides on the applicant's whole circumstances, tells a declined applicant the reasons, "
    "and the applicant may dispute the bureau's data with the bureau."
)
DEMO_LABEL = (
    "Demo model: trained on the German Credit data (1,000 loans, 1970s), not on your loan "
    "book. Train and activate your own: POST /v3/credit/models (docs/credit-model.md)."
)
BANDS = policy.BANDS
band = policy.band


@cache
def scorecard() -> Scorecard:
    return Scorecard.load(MODEL_FILE)


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
        income_regularity=statement.income_regularity if statement else None,
        disposable_income=statement.disposable_income if statement else None,
        betting_share=statement.betting_share if statement else None,
        loan_stacking=statement.loan_stacking if statement else None,
    )


def model_variables(in_use: InUse, applicant: features.Applicant) -> dict[str, Value]:
    """The scorecard's inputs: the demo's German variables, or a lender model's (only those
    the model was trained with)."""
    if in_use.model_id is None:
        return features.variables(applicant)
    names = {v.name for v in in_use.scorecard.variables}
    return {k: v for k, v in lender.variables(applicant).items() if k in names}


def check_purpose(in_use: InUse, purpose: str | None) -> None:
    """400 for a purpose the model in use was not trained on, listing the ones it was."""
    if purpose is None:
        return
    if in_use.model_id is None:
        known = sorted(features.PURPOSES)
        if purpose in features.PURPOSES:
            return
        problem = (
            f"the demo model knows {', '.join(known)}; train and activate your own model for "
            "your loan purposes (docs/credit-model.md)"
        )
    else:
        known = in_use.scorecard.document["card"]["loan_purposes"]
        if purpose in known:
            return
        problem = (
            f"model {in_use.scorecard.version} was trained on {', '.join(known)}; train a new "
            "model on a loan book with this purpose"
        )
    raise _invalid("loan.purpose", f"{purpose!r} is not a purpose of the model in use: {problem}")


def model_info(in_use: InUse) -> ModelInfo:
    model = in_use.scorecard
    metrics, scaling = model.metrics, model.document["scaling"]
    demo = in_use.model_id is None
    card = model.document.get("card", {})
    label = (
        DEMO_LABEL
        if demo
        else f"Your own model {model.version}, trained on your loan book "
        f"({card['data']['rows']:,} loans, {card['data']['period']['from']} to "
        f"{card['data']['period']['to']})."
    )
    return ModelInfo(
        version=model.version,
        model_id=in_use.model_id,
        demo=demo,
        label=label,
        holdout_auc=metrics["holdout_auc"],
        holdout_ks=metrics["holdout_ks"],
        plain_logistic_holdout_auc=metrics.get("plain_logistic_holdout_auc"),
        base_score=scaling["base_score"],
        base_odds=scaling["base_odds"],
        points_to_double_odds=scaling["pdo"],
    )


async def _model_and_product(call: Call, body: DecisionRequest) -> tuple[InUse, ProductUsed | None]:
    """The model deciding the request and the product it names: the product's model when it
    names one, else the environment's active model (the demo's when none is)."""
    db, principal = call.runtime.db, call.principal
    owner = (principal.org_id, principal.environment)
    if body.product is None:
        return await model_in_use(db, owner, scorecard()), None
    loan = body.loan
    row = await products.for_decision(
        db, owner, body.product, loan.amount, loan.term_months, loan.purpose
    )
    used = ProductUsed(product_id=row["id"], name=row["name"])
    if row["model_id"] is None:
        return await model_in_use(db, owner, scorecard()), used
    model = await stored_scorecard(db, row["model_id"])
    assert model is not None, "a product's model is a trained model, never deleted"
    return InUse(row["model_id"], model), used


async def decide(call: Call, body: DecisionRequest) -> bytes:
    cutoffs = _cutoffs(call, body)
    bureau, used = await _bureau(call, body)
    statement, statement_used = await statement_facts(call, body)
    principal = call.principal
    in_use, product = await _model_and_product(call, body)
    check_purpose(in_use, body.loan.purpose)
    if principal.live:
        await hold_price(call)
    applicant = _applicant(body, bureau, statement)
    scored = in_use.scorecard.score(model_variables(in_use, applicant))
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
    info = model_info(in_use)
    reference = "dec_" + call.request_id.removeprefix("req_")
    reasons = [
        Reason(
            code=c.reason_code,
            variable=c.variable,
            points_lost=round(c.points_lost, 1),
            description=c.reason if c.bin is not None else f"{c.reason} (not supplied)",
        )
        for c in scored.reasons()
    ]

    async def store(conn: AsyncConnection) -> None:
        await save_decision(
            conn,
            call.runtime.vault,
            principal,
            request_id=call.request_id,
            reference=reference,
            model=(in_use.model_id, in_use.scorecard.version),
            inputs=applicant_inputs(applicant),
            outcome=(scored.score, decision),
        )

    def render(charge: Charge | None) -> bytes:
        return payload_answer(
            DecisionResult,
            call,
            charge,
            verdict=DECISION_VERDICTS[decision],
            reference=reference,
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
            product=product,
            notice=NOTICE,
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description=f"Credit decision ({decision})",
        write=store,
    )


@dataclass(frozen=True)
class Replayed:
    reference: str
    model_version: str
    model_id: str | None
    stored_score: int
    stored_decision: str
    score: int  # the same model on the stored inputs, now


async def replay(db: Database, vault: Vault, owner: tuple[str, str], reference: str) -> Replayed:
    """Score a stored decision's inputs again with the model that made it (404 when the
    organisation's environment has no such decision)."""
    async with read(db) as conn:
        row = await registry_repository.get_decision(conn, owner[0], owner[1], reference)
    if row is None:
        raise ApiError(404, "not_found", f"No credit decision {reference} in this environment.")
    model_id = row["model_id"]
    model = scorecard() if model_id is None else await stored_scorecard(db, model_id)
    assert model is not None, "a decision's model is never deleted"
    in_use = InUse(model_id, model)
    scored = model.score(model_variables(in_use, stored_inputs(vault, row)))
    return Replayed(
        reference=reference,
        model_version=row["model_version"],
        model_id=model_id,
        stored_score=row["score"],
        stored_decision=row["decision"],
        score=scored.score,
    )

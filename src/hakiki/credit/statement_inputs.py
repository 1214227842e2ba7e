"""The statement inputs of a credit decision: the figures the lender measured (``statement``), or
a completed statement analysis of the organisation's (``statement_analysis_id``), whose
verdict can override the score (docs/decisions.md, credit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hakiki.core.calls import Call
from hakiki.core.errors import invalid_request
from hakiki.credit.schemas import DecisionRequest, StatementUsed
from hakiki.engines.credit import policy
from hakiki.statements.service import completed_metrics

STATEMENT_FLOOR = 40  # a cash-flow score under this refers the application
ANALYSIS_LOW, ANALYSIS_HIGH = 300, 850  # the statements engine's cash-flow score range


@dataclass(frozen=True)
class StatementFacts:
    average_monthly_inflow: int
    average_monthly_outflow: int
    average_balance: int | None
    cash_flow_score: int | None  # 0-100
    verdict: str | None = None  # genuine | suspicious | tampered, for an analysis
    # The cash-flow features a lender's own scorecard takes (docs/credit-model.md).
    income_regularity: float | None = None
    disposable_income: int | None = None
    betting_share: float | None = None
    loan_stacking: int | None = None


def cash_flow_score(analysis_score: int | None) -> int | None:
    """The analysis's 300-850 cash-flow score on the decision's 0-100 scale (linear)."""
    if analysis_score is None:
        return None
    share = (analysis_score - ANALYSIS_LOW) / (ANALYSIS_HIGH - ANALYSIS_LOW)
    return round(100 * min(1.0, max(0.0, share)))


def facts_of_analysis(found: dict[str, Any]) -> StatementFacts:
    metrics = found["metrics"]
    return StatementFacts(
        average_monthly_inflow=metrics["average_monthly_inflow"],
        average_monthly_outflow=metrics["average_monthly_outflow"],
        average_balance=metrics["balances"]["average"],
        cash_flow_score=cash_flow_score(found["score"]["score"]),
        verdict=found["verdict"],
        income_regularity=metrics["income"]["regularity"],
        disposable_income=metrics["affordability"]["disposable_income"],
        betting_share=metrics["betting"]["share_of_inflow"],
        loan_stacking=metrics["loans"]["max_lenders_in_30_days"],
    )


async def statement_facts(
    call: Call, body: DecisionRequest
) -> tuple[StatementFacts | None, StatementUsed | None]:
    given, analysis_id = body.statement, body.statement_analysis_id
    if given is not None and analysis_id is not None:
        raise invalid_request(
            "statement: give a statement_analysis_id or the statement's figures, not both.",
            field="statement",
            problem="give a statement_analysis_id or a statement, not both",
        )
    if given is not None:
        facts = StatementFacts(
            given.average_monthly_inflow,
            given.average_monthly_outflow,
            given.average_balance,
            given.cash_flow_score,
            income_regularity=given.income_regularity,
            disposable_income=given.disposable_income,
            betting_share=given.betting_share,
            loan_stacking=given.loan_stacking,
        )
        used = StatementUsed(
            source="given",
            analysis_id=None,
            verdict=None,
            analysis_score=None,
            cash_flow_score=None,
        )
        return facts, used
    if analysis_id is None:
        return None, None
    principal = call.principal
    found = await completed_metrics(
        call.runtime,
        principal.org_id,
        principal.environment,
        analysis_id,
        "statement_analysis_id",
    )
    facts = facts_of_analysis(found)
    used = StatementUsed(
        source="analysis",
        analysis_id=analysis_id,
        verdict=found["verdict"],
        analysis_score=found["score"]["score"],
        cash_flow_score=facts.cash_flow_score,
    )
    return facts, used


def statement_overrides(facts: StatementFacts | None) -> list[policy.Override]:
    if facts is None:
        return []
    found = []
    if facts.verdict == "tampered":  # edited figures cannot be scored: like confirmed fraud
        found.append(
            policy.Override(
                policy.DECLINE,
                "statement_tampered",
                "The statement analysis found signs the document was edited.",
            )
        )
    if facts.verdict == "suspicious":
        found.append(
            policy.Override(
                policy.REFER,
                "statement_suspicious",
                "The statement analysis found inconsistencies a person should review.",
            )
        )
    if facts.average_monthly_outflow > facts.average_monthly_inflow:
        found.append(
            policy.Override(
                policy.REFER, "negative_cash_flow", "More money leaves the account than comes in."
            )
        )
    if facts.cash_flow_score is not None and facts.cash_flow_score < STATEMENT_FLOOR:
        found.append(
            policy.Override(
                policy.REFER,
                "low_cash_flow_score",
                f"The statement's cash-flow score is under {STATEMENT_FLOOR}.",
            )
        )
    return found

"""The statements hook of the 360 engine: a ``statement_analysis_id`` from
``POST /v3/statements/analyze`` resolves to the cash-flow figures of the completed analysis,
for the organisation and environment that uploaded it only."""

from __future__ import annotations

from typing import Any

from hakiki.core.auth import Principal
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime
from hakiki.evaluation.schemas import CashFlowIn
from hakiki.statements.service import completed_metrics

MAX_MONTHS, MAX_CV_PERCENT = 120, 1000.0  # CashFlowIn's bounds


class StatementCashFlows:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    async def cash_flow(self, principal: Principal, analysis_id: str) -> CashFlowIn | None:
        """404 (unknown, another organisation's) and 409 (not completed, or tampered) are
        raised here, since they say more than None would."""
        found = await completed_metrics(
            self._runtime,
            principal.org_id,
            principal.environment,
            analysis_id,
            "statement_analysis_id",
        )
        if found["verdict"] == "tampered":
            raise ApiError(
                409,
                "conflict",
                f"Statement analysis {analysis_id} found the document edited (verdict "
                "tampered): its figures are not scored. Nothing was charged.",
                details=[{"field": "statement_analysis_id", "problem": "statement tampered"}],
            )
        return cash_flow_of(found["metrics"])


def cash_flow_of(metrics: dict[str, Any]) -> CashFlowIn:
    """Amounts stay in minor units (the factors read ratios); the month-to-month coefficient
    of variation of inflows becomes a percentage. The instalment is not on a statement."""
    return CashFlowIn(
        months_covered=max(1, min(MAX_MONTHS, metrics["months_covered"])),
        average_monthly_inflow=float(metrics["average_monthly_inflow"]),
        average_monthly_outflow=float(metrics["average_monthly_outflow"]),
        inflow_cv_percent=min(MAX_CV_PERCENT, round(metrics["volatility"]["inflow"] * 100, 1)),
    )

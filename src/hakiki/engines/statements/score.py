"""The cash-flow score (300-850) with its reasons: each factor's points against its best,
the largest losses first. Inputs are the metrics only, never who the customer is."""

from __future__ import annotations

from typing import Any

VERSION = "cashflow-1"
BASE, LOW, HIGH = 560, 300, 850


def _factor(code: str, points: float, best: float, description: str) -> dict[str, Any]:
    return {
        "code": code,
        "points": round(points),
        "lost": round(best - points),
        "description": description,
    }


def score(metrics: dict[str, Any]) -> dict[str, Any]:
    if not metrics.get("transactions"):
        return {"version": VERSION, "score": None, "band": None, "reasons": []}
    income = metrics["income"]
    afford = metrics["affordability"]
    inflow = max(metrics["average_monthly_inflow"], 1)
    outflow = max(metrics["average_monthly_outflow"], 1)
    net_share = max(-1.0, min(1.0, (inflow - outflow) / inflow))
    balance = metrics["balances"]["average"] or 0
    betting = metrics["betting"]["share_of_inflow"]
    stacked = metrics["loans"]["max_lenders_in_30_days"]
    loan_share = metrics["loans"]["disbursed"] / max(metrics["total_inflow"], 1)
    volatility = metrics["volatility"]["inflow"]
    factors = [
        _factor(
            "income_regularity",
            90 * income["regularity"],
            90,
            "Share of months with a regular, salary-like income.",
        ),
        _factor("net_cash_flow", 60 * net_share, 60, "Inflows left after outflows, per month."),
        _factor(
            "disposable_income",
            50 if afford["disposable_income"] > 0 else -60,
            50,
            "Income after spending, loan repayments and declared obligations.",
        ),
        _factor(
            "balance_buffer",
            60 * min(max(balance, 0) / outflow, 1.0),
            60,
            "Average balance against a month's outflows.",
        ),
        _factor("betting", -240 * min(betting, 0.5), 0, "Share of inflows spent on betting."),
        _factor(
            "loan_stacking",
            {0: 0, 1: 0, 2: -30}.get(stacked, -90),
            0,
            "Distinct mobile lenders disbursing within 30 days.",
        ),
        _factor(
            "loan_dependency",
            -60 if loan_share > 0.3 else -25 if loan_share > 0.15 else 0,
            0,
            "Share of inflows that are mobile loans.",
        ),
        _factor(
            "volatility",
            -40 if volatility > 1 else -20 if volatility > 0.5 else 0,
            0,
            "Month-to-month swing of inflows.",
        ),
        _factor(
            "history_length",
            -40 if metrics["months_covered"] < 3 else 0,
            0,
            "Months the statement covers.",
        ),
    ]
    total = max(LOW, min(HIGH, round(BASE + sum(f["points"] for f in factors))))
    band = "A" if total >= 700 else "B" if total >= 600 else "C" if total >= 500 else "D"
    reasons = sorted((f for f in factors if f["lost"] > 0), key=lambda f: -f["lost"])[:4]
    return {
        "version": VERSION,
        "score": total,
        "band": band,
        "reasons": reasons,
        "factors": factors,
    }

"""Cash-flow metrics of a statement's completed transactions (amounts in minor units)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import date, timedelta
from typing import Any

from hakiki.engines.statements.categories import CATEGORIES, categorise, counterparty, lender_of
from hakiki.engines.statements.model import Transaction

INCOME = ("salary", "business_income", "transfer_in", "cash_deposit", "other_in")
REGULAR_MIN_MONTHS = 3
REGULAR_MAX_SPREAD = 0.25  # coefficient of variation of a regular source's amounts
STACKING_WINDOW = timedelta(days=30)
TOP = 5


def _month(day: date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def _months_between(first: date, last: date) -> list[str]:
    months, year, month = [], first.year, first.month
    while (year, month) <= (last.year, last.month):
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _cv(values: list[int]) -> float:
    if len(values) < 2 or statistics.fmean(values) == 0:
        return 0.0
    return round(statistics.pstdev(values) / statistics.fmean(values), 3)


def compute(transactions: list[Transaction], monthly_obligations: int = 0) -> dict[str, Any]:
    done = [t for t in transactions if t.completed]
    if not done:
        return {"transactions": 0}
    # a row dated out of order (printed so, or edited) must not fall outside the months
    months = _months_between(min(t.time for t in done).date(), max(t.time for t in done).date())
    monthly: dict[str, dict[str, int]] = {
        m: {"inflow": 0, "outflow": 0, "transactions": 0} for m in months
    }
    closing: dict[str, int] = {}
    categories: dict[str, dict[str, int]] = {
        c: {"inflow": 0, "outflow": 0, "count": 0} for c in CATEGORIES
    }
    parties_in: dict[str, list[int]] = defaultdict(list)
    parties_out: dict[str, list[int]] = defaultdict(list)
    party_months: dict[str, set[str]] = defaultdict(set)
    lenders: dict[str, dict[str, int]] = defaultdict(
        lambda: {"disbursed": 0, "repaid": 0, "disbursements": 0}
    )
    disbursements: list[tuple[Transaction, str]] = []
    daily_balance: dict[date, int] = {}
    for t in done:
        month = _month(t.time.date())
        inflow = t.paid_in > 0
        amount = t.paid_in if inflow else t.withdrawn
        bucket = monthly[month]
        bucket["inflow"] += t.paid_in
        bucket["outflow"] += t.withdrawn
        bucket["transactions"] += 1
        if t.balance is not None:
            closing[month] = t.balance
            daily_balance[t.time.date()] = t.balance
        category = categorise(t.details, inflow)
        categories[category]["inflow" if inflow else "outflow"] += amount
        categories[category]["count"] += 1
        party = counterparty(t.details)
        if party and category not in ("charges",):
            (parties_in if inflow else parties_out)[party].append(amount)
            if inflow:
                party_months[party].add(month)
        lender = lender_of(t.details)
        if lender:
            if inflow:
                lenders[lender]["disbursed"] += amount
                lenders[lender]["disbursements"] += 1
                disbursements.append((t, lender))
            else:
                lenders[lender]["repaid"] += amount
    count = len(months)
    total_in = sum(m["inflow"] for m in monthly.values())
    total_out = sum(m["outflow"] for m in monthly.values())
    income = sum(categories[c]["inflow"] for c in INCOME)
    loan_in = categories["loan_disbursement"]["inflow"]
    repayments = categories["loan_repayment"]["outflow"]
    betting = categories["betting"]["outflow"]
    regular = {
        party: amounts
        for party, amounts in parties_in.items()
        if len(party_months[party]) >= REGULAR_MIN_MONTHS and _cv(amounts) <= REGULAR_MAX_SPREAD
    }
    salary_months = {
        _month(t.time.date()) for t in done if t.paid_in and categorise(t.details, True) == "salary"
    }
    regular_months = salary_months | {
        _month(t.time.date()) for t in done if t.paid_in and counterparty(t.details) in regular
    }
    regular_income = categories["salary"]["inflow"] + sum(
        sum(v) for p, v in regular.items() if p not in _salary_parties(done)
    )
    balances = _daily_series(daily_balance)
    first = done[0]
    opening = first.balance - first.paid_in + first.withdrawn if first.balance is not None else None
    spend = total_out - repayments
    disposable = (income - spend - repayments) // count - monthly_obligations
    return {
        "transactions": len(done),
        "first_date": done[0].time.date().isoformat(),
        "last_date": done[-1].time.date().isoformat(),
        "months_covered": count,
        "opening_balance": opening,
        "closing_balance": done[-1].balance,
        "total_inflow": total_in,
        "total_outflow": total_out,
        "average_monthly_inflow": total_in // count,
        "average_monthly_outflow": total_out // count,
        "monthly": [
            {
                "month": m,
                **monthly[m],
                "net": monthly[m]["inflow"] - monthly[m]["outflow"],
                "closing_balance": closing.get(m),
            }
            for m in months
        ],
        "balances": {
            "average": round(statistics.fmean(balances)) if balances else None,
            "minimum": min(balances) if balances else None,
            "maximum": max(balances) if balances else None,
            "days_below_zero": sum(1 for b in balances if b < 0),
        },
        "income": {
            "average_monthly_income": income // count,
            "regular_monthly_income": regular_income // count,
            "regularity": round(len(regular_months) / count, 3),
            "salary_like_sources": len(regular) + (1 if salary_months else 0),
        },
        "categories": {c: v for c, v in categories.items() if v["count"]},
        "counterparties": {
            "paying_in": len(parties_in),
            "paid_out": len(parties_out),
            "top_in": _top(parties_in),
            "top_out": _top(parties_out),
        },
        "loans": {
            "lenders": [{"lender": k, **v} for k, v in sorted(lenders.items())],
            "distinct_lenders": len(lenders),
            "disbursed": loan_in,
            "repaid": repayments,
            "max_lenders_in_30_days": _stacking(disbursements),
        },
        "betting": {
            "outflow": betting,
            "share_of_inflow": round(betting / total_in, 4) if total_in else 0.0,
            "months_with_betting": len(
                {
                    _month(t.time.date())
                    for t in done
                    if t.withdrawn and categorise(t.details, False) == "betting"
                }
            ),
        },
        "volatility": {
            "inflow": _cv([monthly[m]["inflow"] for m in months]),
            "outflow": _cv([monthly[m]["outflow"] for m in months]),
        },
        "affordability": {
            "monthly_obligations_declared": monthly_obligations,
            "average_monthly_income": income // count,
            "average_monthly_spend": spend // count,
            "average_monthly_loan_repayments": repayments // count,
            "disposable_income": disposable,
        },
    }


def _salary_parties(done: list[Transaction]) -> set[str]:
    return {
        p
        for t in done
        if t.paid_in and categorise(t.details, True) == "salary" and (p := counterparty(t.details))
    }


def _daily_series(daily: dict[date, int]) -> list[int]:
    """The balance at the end of every day of the statement (carried over quiet days)."""
    if not daily:
        return []
    days = sorted(daily)
    series, current, day = [], daily[days[0]], days[0]
    while day <= days[-1]:
        current = daily.get(day, current)
        series.append(current)
        day += timedelta(days=1)
    return series


def _top(parties: dict[str, list[int]]) -> list[dict[str, Any]]:
    ranked = Counter({p: sum(v) for p, v in parties.items()}).most_common(TOP)
    return [{"name": p, "amount": a, "count": len(parties[p])} for p, a in ranked]


def _stacking(disbursements: list[tuple[Transaction, str]]) -> int:
    """The most distinct lenders that disbursed within any 30 days."""
    best, start = 0, 0
    for end in range(len(disbursements)):
        while disbursements[end][0].time - disbursements[start][0].time > STACKING_WINDOW:
            start += 1
        best = max(best, len({lender for _, lender in disbursements[start : end + 1]}))
    return best

"""A synthetic loan book in the documented CSV schema (docs/credit-model.md), for testing and
benchmarking a lender's own scorecard. Deterministic: the same seed and size give the same file.

How it is made, so a trained model can be checked against the truth:
- Each loan's features are drawn (income, obligations, amount, term, purpose, employment, a
  bureau file, a statement's cash-flow figures), then turned into the scorecard's variables by
  the product's own derivation (engines/credit/lender.py).
- The true chance of default is a known logistic model of those variables (``TRUE_MODEL``,
  ``true_log_odds``); the outcome is drawn from it. ``truth_auc`` is the AUC of the true
  probabilities against the drawn outcomes: the best any model of these inputs can do.
- ``protected_gender`` is planted: women are drawn with shorter employment and lower income
  (so it correlates with inputs) but it has no effect of its own on default and is never a
  model input; the fairness report shows the approval gap that correlation causes.
- 8 % of rows have no statement and 5 % no bureau file (scored as not known).

Run: ``python -m hakiki.devtools.loan_book --rows 20000 --seed 38 --out loans.csv``
"""

from __future__ import annotations

import argparse
import csv
import io
import math
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np

from hakiki.engines.credit import lender, loan_book, training
from hakiki.engines.credit.features import Applicant, BureauFacts

PURPOSES = (
    "school_fees",
    "business_stock",
    "agriculture",
    "emergency",
    "asset_finance",
    "personal",
)
PURPOSE_SHARE = (0.2, 0.25, 0.15, 0.15, 0.1, 0.15)
# The true model: log-odds of default = intercept + the sum of these effects.
TRUE_MODEL: dict[str, object] = {
    "intercept": -2.6,
    "debt_to_income": 2.4,  # per unit of the (capped) ratio
    "repayment_history": {"no_credit": 0.4, "delayed": 1.5, "paid_duly": 0.0},
    "income_regularity": -2.6,  # per unit of the share
    "betting_share": 7.0,
    "loan_stacking": 0.5,  # per lender
    "loan_term_months": 0.03,  # per month
    "employment_years": -0.12,  # per year, up to 10
    "loan_purpose": {
        "school_fees": 0.0,
        "business_stock": 0.25,
        "agriculture": 0.45,
        "emergency": 0.6,
        "asset_finance": -0.3,
        "personal": 0.4,
    },
}
START = date(2024, 1, 1)
PERIOD_DAYS = 730
HEADER = [
    *loan_book.REQUIRED,
    *loan_book.APPLICATION,
    *loan_book.BUREAU,
    *(c for c in loan_book.STATEMENT if c != "statement_analysis_id"),  # the figures, inline
    "protected_gender",
]


@dataclass(frozen=True)
class Book:
    rows: list[dict[str, str]]
    true_probability: list[float]
    truth_auc: float  # AUC of the true probabilities against the drawn outcomes (nan: one class)

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=HEADER, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        return out.getvalue()


def true_log_odds(truth: Applicant) -> float:
    """The true model on the variables of ``truth``: every figure known, even those the file
    hides from the model (no statement, no bureau file)."""
    v = lender.variables(truth)
    m = TRUE_MODEL
    z = float(m["intercept"])  # type: ignore[arg-type]
    z += float(m["debt_to_income"]) * float(v["debt_to_income"] or 0)  # type: ignore[arg-type]
    z += m["repayment_history"][str(v["repayment_history"])]  # type: ignore[index]
    z += float(m["income_regularity"]) * float(v["income_regularity"] or 0)  # type: ignore[arg-type]
    z += float(m["betting_share"]) * float(v["betting_share"] or 0)  # type: ignore[arg-type]
    z += float(m["loan_stacking"]) * float(v["loan_stacking"] or 0)  # type: ignore[arg-type]
    z += float(m["loan_term_months"]) * float(v["loan_term_months"] or 0)  # type: ignore[arg-type]
    years = min(10.0, float(v["employment_years"] or 0))
    z += float(m["employment_years"]) * years  # type: ignore[arg-type]
    z += m["loan_purpose"][str(v["loan_purpose"])]  # type: ignore[index]
    return z


class _Draws:
    """Every random draw of ``rows`` loans at once (numpy is fast in bulk, slow per call)."""

    def __init__(self, rng: np.random.Generator, rows: int) -> None:
        self.female = rng.random(rows) < 0.45
        self.employment = rng.gamma(2.0, np.where(self.female, 14.0, 26.0)).astype(int)
        median = np.where(self.female, math.log(45_000), math.log(60_000))
        self.income = rng.lognormal(median, 0.5).astype(int) * 100
        self.obligations = (self.income * rng.beta(2, 8, rows)).astype(int)
        self.purpose = rng.choice(len(PURPOSES), size=rows, p=PURPOSE_SHARE)
        terms = np.array((1, 3, 6, 12, 18, 24, 36))
        shares = (0.1, 0.2, 0.2, 0.25, 0.1, 0.1, 0.05)
        self.term = terms[rng.choice(len(terms), size=rows, p=shares)]
        multiple = rng.uniform(0.3, 3.0, rows) * np.minimum(self.term, 12) / 6
        self.amount = np.maximum(100_000, (self.income * multiple).astype(int) // 100 * 100)
        self.accounts = rng.poisson(2.5, rows)
        self.history = rng.random(rows)
        self.dpd = rng.integers(1, 120, rows)
        self.types = rng.integers(0, 4, (rows, 3))
        self.inflow = (self.income * rng.uniform(0.8, 1.3, rows)).astype(int)
        self.regularity = np.round(rng.beta(5, 2, rows), 3)
        self.betting = np.round(np.minimum(0.6, rng.exponential(0.03, rows)), 4)
        self.stacking = rng.poisson(0.6, rows)
        self.disposable = (self.inflow * rng.uniform(-0.15, 0.45, rows)).astype(int)
        self.balance = (self.inflow * rng.uniform(-0.2, 0.8, rows)).astype(int)
        self.no_statement = rng.random(rows) < 0.08
        self.no_bureau = rng.random(rows) < 0.05
        self.day = rng.integers(0, PERIOD_DAYS, rows)
        self.outcome = rng.random(rows)  # compared with the true probability
        self.default_day = rng.integers(5, 91, rows)


LENDERS = ("bank", "digital_lender", "sacco", "retail")


def _loan(d: _Draws, i: int) -> tuple[dict[str, str], Applicant]:
    female = bool(d.female[i])
    employment, income = int(d.employment[i]), int(d.income[i])
    obligations = int(d.obligations[i])
    purpose = PURPOSES[int(d.purpose[i])]
    term, amount = int(d.term[i]), int(d.amount[i])
    accounts, history = int(d.accounts[i]), float(d.history[i])
    npl = int(accounts > 0 and history < 0.08)
    dpd = 0 if accounts == 0 or history > 0.2 else int(d.dpd[i])
    types = sorted({LENDERS[int(t)] for t in d.types[i][: min(accounts, 3)]})
    bureau = BureauFacts(accounts, min(accounts, 2), accounts - npl, npl, dpd, 0, tuple(types))
    inflow = int(d.inflow[i])
    regularity, betting = float(d.regularity[i]), float(d.betting[i])
    stacking = int(d.stacking[i])
    disposable = int(d.disposable[i]) - obligations // 2
    balance = int(d.balance[i])
    truth = Applicant(
        monthly_income=income,
        monthly_obligations=obligations,
        loan_amount=amount,
        loan_term_months=term,
        loan_purpose=purpose,
        employment_months=employment,
        bureau=bureau,
        average_balance=balance,
        statement_inflow=inflow,
        income_regularity=regularity,
        disposable_income=disposable,
        betting_share=betting,
        loan_stacking=stacking,
    )
    no_statement, no_bureau = bool(d.no_statement[i]), bool(d.no_bureau[i])
    row = {
        "loan_id": f"L{i:06d}",
        "disbursed_on": (START + timedelta(days=int(d.day[i]))).isoformat(),
        "loan_amount": str(amount),
        "loan_term_months": str(term),
        "loan_purpose": purpose,
        "monthly_income": str(income),
        "monthly_obligations": str(obligations),
        "employment_months": str(employment),
        "protected_gender": "female" if female else "male",
    }
    if not no_bureau:
        row |= {
            "bureau_accounts": str(accounts),
            "bureau_open_accounts": str(bureau.open_accounts),
            "bureau_performing_accounts": str(bureau.performing_accounts),
            "bureau_non_performing_accounts": str(npl),
            "bureau_max_days_past_due": str(dpd),
            "bureau_arrears": "0",
            "bureau_lender_types": ";".join(types),
        }
    if not no_statement:
        row |= {
            "average_balance": str(balance),
            "average_monthly_inflow": str(inflow),
            "income_regularity": str(regularity),
            "disposable_income": str(disposable),
            "betting_share": str(betting),
            "loan_stacking": str(stacking),
        }
    return row, truth


def generate(rows: int = 20_000, seed: int = 38) -> Book:
    draws = _Draws(np.random.default_rng(seed), rows)
    out, probabilities, outcomes = [], [], []
    for i in range(rows):
        row, truth = _loan(draws, i)
        p = 1.0 / (1.0 + math.exp(-true_log_odds(truth)))
        defaulted = bool(draws.outcome[i] < p)
        row["defaulted_within_days"] = str(int(draws.default_day[i])) if defaulted else ""
        out.append({k: row.get(k, "") for k in HEADER})
        probabilities.append(p)
        outcomes.append(float(defaulted))
    y = np.array(outcomes)
    both = 0 < y.sum() < len(y)  # an AUC needs a default and a repaid loan
    truth_auc = training.auc(y, np.array(probabilities)) if both else math.nan
    return Book(out, probabilities, round(truth_auc, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    book = generate(args.rows, args.seed)
    args.out.write_text(book.csv_text(), encoding="utf-8")
    defaults = sum(1 for r in book.rows if r["defaulted_within_days"])
    print(f"{args.rows} loans, {defaults} defaults, truth AUC {book.truth_auc}: {args.out}")


if __name__ == "__main__":
    main()

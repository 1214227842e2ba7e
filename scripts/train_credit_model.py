"""Train Hakiki's credit scorecard on the German Credit data and write the model file the
product applies (src/hakiki/credit/model/scorecard.json). Deterministic: same data, same seed,
same file. Run: python3 -m uv run --frozen python scripts/train_credit_model.py

Age, sex and marital status (personal_status_and_sex) and foreign_worker are never inputs; the
fairness check reads them on the holdout only, to compare approval rates (docs/credit-model.md).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from hakiki.engines.credit import training
from hakiki.engines.credit.features import PURPOSES

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "credit_data" / "germancredit.csv"
OUT = ROOT / "src" / "hakiki" / "credit" / "model" / "scorecard.json"
VERSION = "hakiki-german-1.0.0"
SEED = 20261124
HOLDOUT = 0.3
# Scaling: 650 points at odds of 5 good to 1 bad, 50 points to double the odds.
BASE_SCORE, BASE_ODDS, PDO = 650.0, 5.0, 50.0
APPROVE, REFER = 620, 560  # the default cut-offs the fairness check uses (settings override)

CHECKING = {
    "... < 0 DM": "overdrawn",
    "0 <= ... < 200 DM": "low",
    "... >= 200 DM / salary assignments for at least 1 year": "healthy",
    "no checking account": "no_account",
}
HISTORY = {
    "no credits taken/ all credits paid back duly": "no_credit",
    "all credits at this bank paid back duly": "paid_duly_this_lender",
    "existing credits paid back duly till now": "paid_duly",
    "delay in paying off in the past": "delayed",
    "critical account/ other credits existing (not at this bank)": "critical",
}
EMPLOYMENT = {
    "unemployed": 0.0,
    "... < 1 year": 0.5,
    "1 <= ... < 4 years": 1.0,
    "4 <= ... < 7 years": 4.0,
    "... >= 7 years": 7.0,
}
OTHER_PLANS = {"bank": "bank", "stores": "stores", "none": "none"}
# Bins of the training data the product's inputs never produce (features.py): reason codes
# compare a variable's points with its best bin among those an applicant can reach.
UNASSIGNABLE = {"no_account", "paid_duly_this_lender", "critical"}

VARIABLES: list[dict[str, Any]] = [
    {
        "name": "account_balance",
        "column": "status_of_existing_checking_account",
        "map": CHECKING,
        "code": "R01",
        "reason": "Average account balance on the statement is low or negative",
    },
    {
        "name": "loan_term_months",
        "column": "duration_in_month",
        "map": None,
        "code": "R02",
        "reason": "Long repayment term",
    },
    {
        "name": "repayment_history",
        "column": "credit_history",
        "map": HISTORY,
        "code": "R03",
        "reason": "Repayment history at the bureau (arrears or days past due)",
    },
    {
        "name": "employment_years",
        "column": "present_employment_since",
        "map": EMPLOYMENT,
        "code": "R04",
        "reason": "Short time in current employment",
    },
    {
        "name": "debt_burden",
        "column": "installment_rate_in_percentage_of_disposable_income",
        "map": None,
        "code": "R05",
        "reason": "Repayments take a high share of income",
    },
    {
        "name": "loan_purpose",
        "column": "purpose",
        "map": None,
        "code": "R06",
        "reason": "Loan purpose carries higher risk",
    },
    {
        "name": "other_credit",
        "column": "other_installment_plans",
        "map": OTHER_PLANS,
        "code": "R07",
        "reason": "Instalment credit with other lenders",
    },
]
NUMERIC = {"loan_term_months", "employment_years", "debt_burden"}
PROTECTED = ("personal_status_and_sex", "age_in_years", "foreign_worker")


def load() -> list[dict[str, str]]:
    with DATA.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def column(rows: list[dict[str, str]], spec: dict[str, Any]) -> list[Any]:
    raw = [r[spec["column"]] for r in rows]
    if spec["map"] is not None:
        return [spec["map"][v] for v in raw]
    return [float(v) for v in raw] if spec["name"] in NUMERIC else raw


def score_of(beta: np.ndarray, woe: np.ndarray, factor: float, offset: float) -> np.ndarray:
    """Scores on the product's scale: offset - factor * log-odds of bad, clamped to 300-850."""
    log_odds_bad = beta[0] + woe @ beta[1:]
    return np.clip(np.round(offset - factor * log_odds_bad), 300, 850)


def one_hot(columns: dict[str, list[Any]], train: np.ndarray) -> np.ndarray:
    """The plain model's design: numeric columns standardised on the training rows, every
    category of a categorical column a dummy (the first left out)."""
    parts = []
    for name, values in columns.items():
        if name in NUMERIC:
            x = np.asarray(values, float)
            parts.append(((x - x[train].mean()) / x[train].std())[:, None])
        else:
            cats = sorted(set(values))[1:]
            parts.append(np.array([[v == c for c in cats] for v in values], float))
    return np.hstack(parts)


def fairness(rows: list[dict[str, str]], test: np.ndarray, scores: np.ndarray) -> dict[str, Any]:
    """Approval rate (score at or above the approve cut-off) on the holdout per group."""
    groups = {
        "sex": lambda r: "female" if r["personal_status_and_sex"].startswith("female") else "male",
        "age": lambda r: "under 25" if int(r["age_in_years"]) < 25 else "25 and over",
        "foreign_worker": lambda r: "yes" if r["foreign_worker"] == "yes" else "no",
    }
    out: dict[str, Any] = {}
    for attribute, group_of in groups.items():
        per: dict[str, dict[str, Any]] = {}
        for i, score in zip(test, scores, strict=True):
            g = per.setdefault(group_of(rows[i]), {"rows": 0, "approved": 0, "bad": 0})
            g["rows"] += 1
            g["approved"] += int(score >= APPROVE)
            g["bad"] += int(rows[i]["creditability"] == "bad")
        for g in per.values():
            g["approval_rate"] = round(g["approved"] / g["rows"], 3)
            g["bad_rate"] = round(g["bad"] / g["rows"], 3)
        rates = [g["approval_rate"] for g in per.values()]
        out[attribute] = {
            "groups": dict(sorted(per.items())),
            "approval_rate_ratio": round(min(rates) / max(rates), 3) if max(rates) else None,
        }
    return out


def main() -> None:
    rows = load()
    missing = [p for p in PROTECTED if p not in rows[0]]
    assert not missing, f"protected columns missing from the data: {missing}"
    bad = np.array([r["creditability"] == "bad" for r in rows], float)
    train, test = training.stratified_split(bad, HOLDOUT, SEED)
    columns = {spec["name"]: column(rows, spec) for spec in VARIABLES}
    for name, values in columns.items():
        assert name not in PROTECTED
        if name == "loan_purpose":
            assert set(values) <= set(PURPOSES.values()), set(values) - set(PURPOSES.values())

    binnings = {}
    for name, values in columns.items():
        subset = [values[i] for i in train]
        if name in NUMERIC:
            binnings[name] = training.monotonic_bins(name, subset, bad[train])
        else:
            binnings[name] = training.categorical_bins(name, subset, bad[train])
    woe = np.column_stack([binnings[n].transform(columns[n]) for n in columns])
    beta = training.fit_logistic(woe[train], bad[train])
    factor = PDO / math.log(2)
    offset = BASE_SCORE - factor * math.log(BASE_ODDS)

    risk = training.predict(beta, woe[test])
    plain_x = one_hot(columns, train)
    plain = training.fit_logistic(plain_x[train], bad[train], l2=1e-3)
    plain_risk = training.predict(plain, plain_x[test])
    train_risk = training.predict(beta, woe[train])
    scores = score_of(beta, woe, factor, offset)

    variables = []
    for (name, binning), spec, coefficient in zip(
        binnings.items(), VARIABLES, beta[1:], strict=True
    ):
        bins = []
        for k, label in enumerate(binning.labels()):
            if binning.kind == "categorical":  # name a bin by what applicants can land on
                label = " | ".join(c for c in binning.groups[k] if c not in UNASSIGNABLE) or label
            entry: dict[str, Any] = {
                "label": label,
                "points": round(-factor * coefficient * binning.woe[k], 2),
                "woe": round(binning.woe[k], 4),
                "rows": binning.counts[k],
                "bad_rate": round(binning.bad_rates[k], 3),
            }
            if binning.kind == "numeric":
                bounds = [None, *binning.edges, None]
                entry["lower"], entry["upper"] = bounds[k], bounds[k + 1]
            else:
                entry["categories"] = binning.groups[k]
                entry["assignable"] = not set(binning.groups[k]) <= UNASSIGNABLE
            bins.append(entry)
        variables.append(
            {
                "name": name,
                "kind": binning.kind,
                "source_column": spec["column"],
                "reason_code": spec["code"],
                "reason": spec["reason"],
                "coefficient": round(float(coefficient), 4),
                "information_value": round(binning.iv, 4),
                "bins": bins,
            }
        )
    model = {
        "version": VERSION,
        "data": {
            "name": "Statlog (German Credit Data)",
            "licence": "CC BY 4.0",
            "doi": "10.24432/C5NC77",
            "rows": len(rows),
            "bad_rate": round(float(bad.mean()), 3),
            "split": {
                "seed": SEED,
                "holdout_share": HOLDOUT,
                "train_rows": len(train),
                "holdout_rows": len(test),
            },
        },
        "excluded_inputs": list(PROTECTED),
        "scaling": {
            "base_score": BASE_SCORE,
            "base_odds": BASE_ODDS,
            "pdo": PDO,
            "factor": round(factor, 6),
            "offset": round(offset, 6),
        },
        "intercept": round(float(beta[0]), 4),
        "base_points": round(offset - factor * float(beta[0]), 2),
        "default_cutoffs": {"approve": APPROVE, "refer": REFER},
        "metrics": {
            "holdout_auc": round(training.auc(bad[test], risk), 4),
            "holdout_ks": round(training.ks(bad[test], risk), 4),
            "train_auc": round(training.auc(bad[train], train_risk), 4),
            "plain_logistic_holdout_auc": round(training.auc(bad[test], plain_risk), 4),
            "plain_logistic_holdout_ks": round(training.ks(bad[test], plain_risk), 4),
        },
        "holdout_decisions": {
            "approve": int((scores[test] >= APPROVE).sum()),
            "refer": int(((scores[test] >= REFER) & (scores[test] < APPROVE)).sum()),
            "decline": int((scores[test] < REFER).sum()),
            "bad_rate_approved": round(float(bad[test][scores[test] >= APPROVE].mean()), 3),
        },
        "fairness": fairness(rows, test, scores[test]),
        "variables": variables,
    }
    OUT.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(
        json.dumps(
            {
                "metrics": model["metrics"],
                "decisions": model["holdout_decisions"],
                "score_range": [float(scores.min()), float(scores.max())],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

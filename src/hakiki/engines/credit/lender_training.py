"""Train a lender's scorecard on its loan book with the demo model's pipeline (monotonic
binning, weight of evidence, logistic regression by IRLS, points scaled to 300-850, reason codes)
and write the model card from the run: holdout AUC and KS, calibration and approval by band,
fairness ratios per protected column, the data's period and counts, and whether the data is
enough to activate the model (docs/credit-model.md). Pure and deterministic: the same book and
seed give the same model.

A value not known for a row (no statement, no bureau) gets weight of evidence 0 in training,
as it scores zero points at decision time: the bins are fitted on the rows that have it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hakiki.engines.credit import lender, policy, training
from hakiki.engines.credit.loan_book import LoanBook
from hakiki.engines.credit.scorecard import Value

MIN_OUTCOMES = 500
MIN_DEFAULTS = 50
MIN_KNOWN_SHARE = 0.05  # a variable known for fewer training rows than this is left out
BASE_SCORE, BASE_ODDS, PDO = 650.0, 5.0, 50.0
FACTOR = PDO / math.log(2)
OFFSET = BASE_SCORE - FACTOR * math.log(BASE_ODDS)


@dataclass(frozen=True)
class Settings:
    version: str
    window_days: int = 90
    holdout_share: float = 0.3
    seed: int = 20261128
    approve: int = 620
    refer: int = 560


class TrainingError(ValueError):
    """The book cannot train any model (too few rows, or no defaults or no repaid loans)."""


def minimum_data_refusal(outcomes: int, defaults: int) -> str | None:
    """Why a model trained on this much data may not be activated, or None."""
    short = []
    if outcomes < MIN_OUTCOMES:
        short.append(f"{outcomes} loan outcomes (at least {MIN_OUTCOMES} are needed)")
    if defaults < MIN_DEFAULTS:
        short.append(f"{defaults} defaults (at least {MIN_DEFAULTS} are needed)")
    if not short:
        return None
    return "Too little data to activate: " + " and ".join(short) + "."


def _bin(spec: lender.VariableSpec, values: list[Value], bad: np.ndarray) -> training.Binning:
    if spec.kind == "numeric":
        return training.monotonic_bins(spec.name, [float(v) for v in values], bad)  # type: ignore[arg-type]
    return training.categorical_bins(spec.name, [str(v) for v in values], bad)


def _woe(binning: training.Binning, values: list[Value]) -> np.ndarray:
    out = np.zeros(len(values))
    known = [i for i, v in enumerate(values) if v is not None]
    if known:
        out[known] = binning.transform([values[i] for i in known])
    return out


def _variable_document(
    spec: lender.VariableSpec, binning: training.Binning, coefficient: float
) -> dict[str, Any]:
    bins: list[dict[str, Any]] = []
    for k, label in enumerate(binning.labels()):
        entry: dict[str, Any] = {
            "label": label,
            "points": round(-FACTOR * coefficient * binning.woe[k], 2),
            "woe": round(binning.woe[k], 4),
            "rows": binning.counts[k],
            "bad_rate": round(binning.bad_rates[k], 4),
        }
        if binning.kind == "numeric":
            bounds = [None, *binning.edges, None]
            entry["lower"], entry["upper"] = bounds[k], bounds[k + 1]
        else:
            entry["categories"] = list(binning.groups[k])
        bins.append(entry)
    if binning.kind == "categorical" and spec.domain:
        # A value the derivation can produce but the book never had joins the most average bin.
        unseen = sorted(set(spec.domain) - {c for g in binning.groups for c in g})
        if unseen:
            nearest = min(range(len(bins)), key=lambda k: abs(binning.woe[k]))
            bins[nearest]["categories"] = bins[nearest]["categories"] + unseen
    return {
        "name": spec.name,
        "kind": binning.kind,
        "reason_code": spec.reason_code,
        "reason": spec.reason,
        "coefficient": round(coefficient, 4),
        "information_value": round(binning.iv, 4),
        "bins": bins,
    }


def _bands(
    scores: np.ndarray, risk: np.ndarray, bad: np.ndarray, s: Settings
) -> list[dict[str, Any]]:
    cutoffs = policy.Cutoffs(s.approve, s.refer)
    out = []
    upper = policy.SCORE_TOP
    for floor, letter in policy.BANDS:
        inside = (scores >= floor) & (scores < upper)
        rows = int(inside.sum())
        out.append(
            {
                "band": letter,
                "scores": f"{floor}-{upper - 1}",
                "rows": rows,
                "share": round(rows / len(scores), 4),
                "predicted_default_rate": round(float(risk[inside].mean()), 4) if rows else None,
                "observed_default_rate": round(float(bad[inside].mean()), 4) if rows else None,
                "score_decision_at_floor": policy.by_score(floor, cutoffs),
                "approval_rate": round(float((scores[inside] >= s.approve).mean()), 4)
                if rows
                else None,
            }
        )
        upper = floor
    return out


def _groups(values: Sequence[str]) -> list[str]:
    """Protected values as groups: a numeric column (e.g. age) of many values is split at its
    median; any other column is grouped by value."""
    try:
        numbers = [float(v) for v in values]
    except ValueError:
        return list(values)
    if len(set(numbers)) <= 10:
        return list(values)
    median = float(np.median(numbers))
    return [f"under {median:g}" if n < median else f"{median:g} and over" for n in numbers]


def fairness(
    protected: dict[str, list[str]],
    rows: np.ndarray,
    scores: np.ndarray,
    bad: np.ndarray,
    approve: int,
) -> dict[str, Any]:
    """Approval rate (score at or above the approve cut-off) per group of each protected column
    on the holdout, and the lowest group's rate over the highest's."""
    out: dict[str, Any] = {}
    for column, values in protected.items():
        groups = _groups([values[i] for i in rows])
        per: dict[str, dict[str, Any]] = {}
        for group, score, outcome in zip(groups, scores, bad, strict=True):
            g = per.setdefault(group, {"rows": 0, "approved": 0, "defaults": 0})
            g["rows"] += 1
            g["approved"] += int(score >= approve)
            g["defaults"] += int(outcome)
        for g in per.values():
            g["approval_rate"] = round(g["approved"] / g["rows"], 4)
            g["default_rate"] = round(g["defaults"] / g["rows"], 4)
        rates = [g["approval_rate"] for g in per.values()]
        out[column] = {
            "groups": dict(sorted(per.items())),
            "approval_rate_ratio": round(min(rates) / max(rates), 4) if max(rates) else None,
        }
    return out


def train(book: LoanBook, settings: Settings) -> dict[str, Any]:
    """The model document (a scorecard the decision engine loads, with its ``card``)."""
    bad = np.array(book.bad(settings.window_days), float)
    defaults, outcomes = int(bad.sum()), len(bad)
    if outcomes < 20 or defaults < 5 or outcomes - defaults < 5:
        raise TrainingError(
            f"Cannot train on {outcomes} loans with {defaults} defaults within "
            f"{settings.window_days} days: at least 20 loans, 5 defaults and 5 repaid are needed "
            f"(and {MIN_OUTCOMES} loans with {MIN_DEFAULTS} defaults to activate)."
        )
    train_rows, test_rows = training.stratified_split(bad, settings.holdout_share, settings.seed)
    values = [lender.variables(a) for a in book.applicants]
    columns = {name: [v[name] for v in values] for name in lender.NAMES}
    used, unused, binnings = [], [], {}
    for spec in lender.VARIABLES:
        known = [i for i in train_rows if columns[spec.name][i] is not None]
        if (
            len(known) < MIN_KNOWN_SHARE * len(train_rows)
            or len({columns[spec.name][i] for i in known}) < 2
        ):
            unused.append({"name": spec.name, "reason": "not known, or one value, in the book"})
            continue
        binnings[spec.name] = _bin(spec, [columns[spec.name][i] for i in known], bad[known])
        if len(binnings[spec.name].woe) < 2:
            unused.append({"name": spec.name, "reason": "no difference in default rates"})
            del binnings[spec.name]
            continue
        used.append(spec)
    if not used:
        raise TrainingError("No variable of the book separates defaults from repaid loans.")
    woe = np.column_stack([_woe(binnings[s.name], columns[s.name]) for s in used])
    beta = training.fit_logistic(woe[train_rows], bad[train_rows], l2=1e-3)
    risk = training.predict(beta, woe)
    scores = np.clip(np.round(OFFSET - FACTOR * (beta[0] + woe @ beta[1:])), 300, 850)
    test_bad, test_scores = bad[test_rows], scores[test_rows]
    refusal = minimum_data_refusal(outcomes, defaults)
    purposes = sorted({a.loan_purpose for a in book.applicants if a.loan_purpose})
    approved = test_scores >= settings.approve
    card = {
        "demo": False,
        "data": {
            "rows": outcomes,
            "outcomes": outcomes,
            "defaults": defaults,
            "default_rate": round(defaults / outcomes, 4),
            "outcome": f"defaulted within {settings.window_days} days of disbursement",
            "window_days": settings.window_days,
            "period": {
                "from": min(book.disbursed_on).isoformat(),
                "to": max(book.disbursed_on).isoformat(),
            },
            "split": {
                "seed": settings.seed,
                "holdout_share": settings.holdout_share,
                "train_rows": len(train_rows),
                "holdout_rows": len(test_rows),
            },
        },
        "metrics": {
            "holdout_auc": round(training.auc(test_bad, risk[test_rows]), 4),
            "holdout_ks": round(training.ks(test_bad, risk[test_rows]), 4),
            "train_auc": round(training.auc(bad[train_rows], risk[train_rows]), 4),
        },
        "bands": _bands(test_scores, risk[test_rows], test_bad, settings),
        "approval": {
            "cutoffs": {"approve": settings.approve, "refer": settings.refer},
            "approve_rate": round(float(approved.mean()), 4),
            "refer_rate": round(float(((test_scores >= settings.refer) & ~approved).mean()), 4),
            "decline_rate": round(float((test_scores < settings.refer).mean()), 4),
            "default_rate_approved": round(float(test_bad[approved].mean()), 4)
            if approved.any()
            else None,
        },
        "fairness": fairness(book.protected, test_rows, test_scores, test_bad, settings.approve),
        "inputs": [s.name for s in used],
        "unused_inputs": unused,
        "protected_columns": sorted(book.protected),
        "loan_purposes": purposes,
        "minimum_data": {"outcomes": MIN_OUTCOMES, "defaults": MIN_DEFAULTS},
        "activatable": refusal is None,
        "refusal_reason": refusal,
    }
    return {
        "version": settings.version,
        "scaling": {
            "base_score": BASE_SCORE,
            "base_odds": BASE_ODDS,
            "pdo": PDO,
            "factor": round(FACTOR, 6),
            "offset": round(OFFSET, 6),
        },
        "intercept": round(float(beta[0]), 6),
        "base_points": round(OFFSET - FACTOR * float(beta[0]), 4),
        "default_cutoffs": {"approve": settings.approve, "refer": settings.refer},
        "metrics": card["metrics"],
        "excluded_inputs": sorted(book.protected),
        "card": card,
        "variables": [
            _variable_document(spec, binnings[spec.name], float(c))
            for spec, c in zip(used, beta[1:], strict=True)
        ],
    }

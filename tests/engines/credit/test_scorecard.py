"""The scorecard engine: training pieces (binning, WoE, logistic fit, AUC, KS) on data whose
answers are known, the shipped model file, and the features and policy around it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hakiki.engines.credit import features, policy, training
from hakiki.engines.credit.scorecard import Scorecard

ROOT = Path(__file__).resolve().parents[3]
MODEL = ROOT / "src" / "hakiki" / "credit" / "model" / "scorecard.json"
PROTECTED = {"personal_status_and_sex", "age_in_years", "foreign_worker"}


@pytest.fixture(scope="module")
def model() -> Scorecard:
    return Scorecard.load(MODEL)


def test_auc_and_ks_against_hand_counted_answers() -> None:
    y = np.array([0, 0, 1, 1, 0, 1], float)
    risk = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    # pairs (bad, good) ranked right: 0.35>0.1,0.2 ; 0.8>all ; 0.9>all -> 8 of 9
    assert training.auc(y, risk) == pytest.approx(8 / 9)
    assert training.auc(y, np.ones(6)) == pytest.approx(0.5)
    assert training.ks(y, risk) == pytest.approx(2 / 3)


def test_monotonic_binning_gives_monotonic_bad_rates() -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 100, 4000)
    noisy = 1 / (1 + np.exp(-(x - 50) / 15)) + rng.normal(0, 0.05, 4000)
    bad = (rng.uniform(0, 1, 4000) < np.clip(noisy, 0, 1)).astype(float)
    binning = training.monotonic_bins("x", list(x), bad)
    assert len(binning.edges) >= 2
    assert binning.bad_rates == sorted(binning.bad_rates)
    assert binning.woe == sorted(binning.woe)
    assert min(binning.counts) >= training.MIN_BIN_SHARE * len(x)


def test_categorical_binning_merges_small_groups() -> None:
    values = ["a"] * 500 + ["b"] * 480 + ["c"] * 20
    bad = np.array([0.0] * 450 + [1.0] * 50 + [0.0] * 300 + [1.0] * 180 + [1.0] * 20)
    binning = training.categorical_bins("v", values, bad)
    assert sorted(map(sorted, binning.groups)) == [["a"], ["b", "c"]]


def test_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20_000, 2))
    p = 1 / (1 + np.exp(-(-1.0 + 2.0 * x[:, 0] - 0.5 * x[:, 1])))
    y = (rng.uniform(size=20_000) < p).astype(float)
    beta = training.fit_logistic(x, y)
    assert beta == pytest.approx([-1.0, 2.0, -0.5], abs=0.08)


def test_model_file_excludes_protected_attributes_and_states_its_figures(model: Scorecard) -> None:
    document = model.document
    columns = {v["source_column"] for v in document["variables"]}
    assert not columns & PROTECTED and set(document["excluded_inputs"]) == PROTECTED
    metrics = document["metrics"]
    assert 0.7 < metrics["holdout_auc"] < 0.9 and 0.2 < metrics["holdout_ks"] < 0.7
    assert metrics["plain_logistic_holdout_auc"] > 0.6
    assert document["scaling"]["pdo"] == 50 and document["data"]["licence"] == "CC BY 4.0"
    assert set(document["fairness"]) == {"sex", "age", "foreign_worker"}


def test_points_follow_the_scaling(model: Scorecard) -> None:
    """Doubling the odds adds pdo points: the score is offset + factor * ln(odds)."""
    scaling = model.document["scaling"]
    assert model.factor == pytest.approx(scaling["pdo"] / math.log(2), rel=1e-6)
    at_base = model.offset + model.factor * math.log(scaling["base_odds"])
    assert at_base == pytest.approx(scaling["base_score"])
    empty = model.score({})
    assert empty.score == round(model.base_points)
    assert empty.log_odds_good == pytest.approx((model.base_points - model.offset) / model.factor)


def test_missing_values_score_zero_and_reasons_are_costliest_first(model: Scorecard) -> None:
    scored = model.score({"loan_term_months": 60.0, "account_balance": "overdrawn"})
    by_name = {c.variable: c for c in scored.contributions}
    assert by_name["employment_years"].points == 0 and by_name["employment_years"].bin is None
    reasons = scored.reasons()
    assert len(reasons) == 4
    assert [r.points_lost for r in reasons] == sorted(
        (r.points_lost for r in reasons), reverse=True
    )
    assert reasons[0].variable in {"loan_term_months", "loan_purpose", "account_balance"}
    best = model.score({"loan_term_months": 6.0, "account_balance": "healthy"})
    assert best.score > scored.score
    with pytest.raises(ValueError):
        model.score({"age": 30.0})


def test_reason_codes_compare_with_the_best_bin_an_applicant_can_reach(model: Scorecard) -> None:
    history = next(v for v in model.variables if v.name == "repayment_history")
    critical = next(b for b in history.bins if "critical" in b.categories)
    assert not critical.assignable and critical.points > history.best
    clean = model.score({"repayment_history": "paid_duly"})
    assert all(c.points_lost == 0 for c in clean.contributions if c.variable == "repayment_history")


def test_features_map_the_lenders_inputs() -> None:
    bureau = features.BureauFacts(3, 2, 2, 1, 120, 50_000, ("bank",))
    applicant = features.Applicant(
        monthly_income=100_000,
        monthly_obligations=20_000,
        loan_amount=120_000,
        loan_term_months=12,
        loan_purpose="business",
        employment_months=3,
        bureau=bureau,
        average_balance=30_000,
        statement_inflow=80_000,
    )
    assert applicant.income == 80_000  # the lower of declared and seen on the statement
    assert features.debt_to_income(applicant) == pytest.approx(0.375)
    values = features.variables(applicant)
    assert values == {
        "account_balance": "healthy",
        "loan_term_months": 12.0,
        "repayment_history": "delayed",
        "employment_years": 0.5,
        "debt_burden": 4.0,
        "loan_purpose": "business",
        "other_credit": "bank",
    }
    thin = features.BureauFacts(0, 0, 0, 0, 0, 0, ())
    assert (
        features.variables(features.Applicant(None, None, 1, 1, None, 0, thin, -5, None))[
            "repayment_history"
        ]
        == "no_credit"
    )


def test_policy_takes_the_strictest() -> None:
    cut = policy.Cutoffs(approve=620, refer=560)
    assert [policy.by_score(s, cut) for s in (620, 619, 560, 559)] == [
        "approve",
        "refer",
        "refer",
        "decline",
    ]
    found = policy.overrides(policy.Signals(pep=True), 0, 0, 0.7, 0.5)
    assert [o.code for o in found] == ["affordability", "pep"]
    assert policy.decide("approve", found) == "refer"
    assert policy.decide("decline", found) == "decline"
    fraud = policy.overrides(policy.Signals(confirmed_fraud=True), 0, 95, None, 0.5)
    assert policy.decide("approve", fraud) == "decline"


def test_training_reproduces_the_shipped_model(tmp_path: Path) -> None:
    """The committed model is what the script makes from the committed data (deterministic)."""
    shipped = MODEL.read_text(encoding="utf-8")
    try:
        done = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "train_credit_model.py")],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert json.loads(done.stdout)["metrics"] == json.loads(shipped)["metrics"]
        assert MODEL.read_text(encoding="utf-8") == shipped
    finally:
        MODEL.write_text(shipped, encoding="utf-8")


def test_every_value_the_features_produce_has_a_bin(model: Scorecard) -> None:
    """A retrained model must still hold every category the product maps applicants to."""
    reachable = {
        "loan_purpose": set(features.PURPOSES.values()),
        "account_balance": {"healthy", "low", "overdrawn"},
        "repayment_history": {"no_credit", "paid_duly", "delayed"},
        "other_credit": {"none", "bank", "stores"},
    }
    by_name = {v.name: v for v in model.variables}
    for name, values in reachable.items():
        for value in values:
            found = by_name[name].bin_of(value)
            assert found is not None and found.assignable, (name, value)

"""The 360 engine's promises, checked over many generated profiles: the spec's weights exactly,
monotonic factors, missing data never imputed, and a score recomputed by hand from the trace."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hakiki.engines.evaluation import (
    CONSERVATIVE_SCORE,
    WEIGHTS,
    Accounts,
    AgriSmeInputs,
    Bureau,
    CashFlow,
    Climate,
    CropFarm,
    CropInputs,
    Evaluation,
    Herd,
    LivestockInputs,
    Market,
    Sourced,
    evaluate_agri_sme,
    evaluate_crop,
    evaluate_livestock,
)
from hakiki.engines.evaluation.reference import water_need

FAST = settings(max_examples=150, deadline=None)

percent = st.floats(min_value=0, max_value=150, allow_nan=False)
bureaus = st.builds(
    Bureau,
    max_days_past_due=st.none() | st.integers(0, 400),
    non_performing_accounts=st.none() | st.integers(0, 5),
    written_off_accounts=st.none() | st.integers(0, 3),
    months_of_history=st.none() | st.integers(0, 120),
    enquiries_90_days=st.none() | st.integers(0, 20),
)
flows = st.builds(
    CashFlow,
    months_covered=st.integers(1, 36),
    average_monthly_inflow=st.floats(0, 1e7),
    average_monthly_outflow=st.floats(0, 1e7),
    inflow_cv_percent=st.none() | percent,
    monthly_repayment=st.none() | st.floats(0, 1e6),
)
sourced = st.none() | st.builds(Sourced, st.floats(0, 2000))
climates = st.builds(
    Climate,
    season_rainfall_mm=sourced,
    normal_rainfall_mm=sourced,
    rainfall_cv_percent=st.none() | st.builds(Sourced, percent),
    ndvi=st.none() | st.builds(Sourced, st.floats(0, 1)),
    ndvi_norm=st.none() | st.builds(Sourced, st.floats(0.05, 1)),
)
markets = st.builds(
    Market,
    offtake=st.none() | st.sampled_from(["contract", "cooperative", "none"]),
    distance_km=st.none() | st.floats(0, 300),
    price_cv_percent=st.none() | st.builds(Sourced, percent),
)
crops = st.builds(
    CropInputs,
    farm=st.builds(
        CropFarm,
        crop=st.sampled_from(["maize", "bean", "sorghum", "coffee"]),
        irrigated=st.booleans(),
        yields_kg_per_ha=st.lists(st.floats(0, 9000), max_size=5).map(tuple),
        certified_seed=st.none() | st.booleans(),
        fertiliser=st.none() | st.booleans(),
    ),
    climate=climates,
    bureau=st.none() | bureaus,
    cash_flow=st.none() | flows,
    market=markets,
).map(lambda c: replace(c, crop_water_need_mm=water_need(c.farm.crop)))
herds = st.builds(
    LivestockInputs,
    herd=st.builds(
        Herd,
        species=st.just("cattle"),
        head_count=st.integers(1, 500),
        vaccinated_percent=st.none() | st.floats(0, 100),
    ),
    climate=climates,
    bureau=st.none() | bureaus,
    cash_flow=st.none() | flows,
    market=markets,
)
accounts = st.builds(
    Accounts,
    audit_opinion=st.none()
    | st.sampled_from(["unqualified", "qualified", "adverse", "disclaimer"]),
    net_margin_percent=st.none() | st.floats(-50, 50),
    current_ratio=st.none() | st.floats(0, 5),
    debt_to_equity=st.none() | st.floats(0, 10),
    years_of_accounts=st.none() | st.integers(0, 20),
    revenue_growth_percent=st.none() | st.floats(-90, 200),
)
smes = st.builds(
    AgriSmeInputs,
    business_bureau=st.none() | bureaus,
    principals=st.lists(bureaus, max_size=3).map(tuple),
    cash_flow=st.none() | flows,
    accounts=st.none() | accounts,
)


def test_the_weights_are_the_specs_exactly() -> None:
    assert WEIGHTS == {
        "crop_farmer": (("crb", 25), ("agro_ecological", 25), ("cash_flow", 25), ("market", 25)),
        "livestock_farmer": (
            ("crb", 25),
            ("ndvi_weather", 25),
            ("cash_flow", 25),
            ("market", 25),
        ),
        "agri_sme": (("combined_crb", 30), ("cash_flow", 35), ("audited_accounts", 35)),
    }
    for components in WEIGHTS.values():
        assert sum(weight for _, weight in components) == 100


def _half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def recompute(trace: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> int:
    """The score from the trace alone, the way a credit committee would redo it by hand."""
    factors: dict[str, list[tuple[int, int]]] = {}
    components: dict[str, int] = {}
    for step in trace:
        if step["kind"] == "factor" and step["score"] is not None:
            factors.setdefault(step["component"], []).append(
                (step["weight_percent"], step["score"])
            )
        elif step["kind"] == "component":
            parts = factors.get(step["component"], [])
            if step["basis"] == "conservative":
                assert not parts
                expected = CONSERVATIVE_SCORE
            else:
                total = sum(w for w, _ in parts)
                expected = _half_up(Fraction(sum(w * s for w, s in parts), total))
            assert step["score"] == expected, step
            components[step["component"]] = expected
    points = Fraction(0)
    for step in trace:
        if step["kind"] == "weighting":
            assert step["score"] == components[step["component"]]
            points += Fraction(step["weight_percent"] * step["score"], 100)
            assert step["points"] == float(Fraction(step["weight_percent"] * step["score"], 100))
    score = _half_up(points)
    for step in trace:
        if step["kind"] == "override":
            score = min(score, step["cap"])
    return score


def _checked(evaluation: Evaluation) -> None:
    assert [s["step"] for s in evaluation.trace] == list(range(1, len(evaluation.trace) + 1))
    assert 0 <= evaluation.score <= 1000
    assert recompute(evaluation.trace) == evaluation.score
    assert evaluation.trace[-1] == {
        "step": len(evaluation.trace),
        "kind": "result",
        "score": evaluation.score,
        "rating": evaluation.rating,
    }
    for component in evaluation.components:
        assert sum(f.weight for f in component.factors) == 100
        known = [f for f in component.factors if f.score is not None]
        assert (component.basis == "conservative") == (not known)
        assert (component.basis == "reweighted_factors") == (
            0 < len(known) < len(component.factors)
        )


@FAST
@given(crops)
def test_crop_scores_recompute_from_the_trace(inputs: CropInputs) -> None:
    _checked(evaluate_crop(inputs))


@FAST
@given(herds)
def test_livestock_scores_recompute_from_the_trace(inputs: LivestockInputs) -> None:
    _checked(evaluate_livestock(inputs))


@FAST
@given(smes)
def test_agri_sme_scores_recompute_from_the_trace(inputs: AgriSmeInputs) -> None:
    _checked(evaluate_agri_sme(inputs))


@FAST
@given(crops, bureaus, st.integers(0, 400), st.integers(0, 400))
def test_more_arrears_never_raises_the_score(
    inputs: CropInputs, bureau: Bureau, days: int, more: int
) -> None:
    low = evaluate_crop(replace(inputs, bureau=replace(bureau, max_days_past_due=days)))
    high = evaluate_crop(replace(inputs, bureau=replace(bureau, max_days_past_due=days + more)))
    assert high.score <= low.score


@FAST
@given(crops, bureaus, st.integers(0, 4), st.integers(0, 3))
def test_more_defaulted_accounts_never_raise_the_score(
    inputs: CropInputs, bureau: Bureau, count: int, more: int
) -> None:
    fewer = evaluate_crop(replace(inputs, bureau=replace(bureau, non_performing_accounts=count)))
    worse = replace(bureau, non_performing_accounts=count + more)
    assert evaluate_crop(replace(inputs, bureau=worse)).score <= fewer.score


@FAST
@given(crops, st.floats(0, 100), st.floats(0, 100))
def test_more_rainfall_reliability_never_lowers_the_score(
    inputs: CropInputs, cv: float, less: float
) -> None:
    """Reliability is the inverse of the rainfall's coefficient of variation."""
    steady = replace(inputs.climate, rainfall_cv_percent=Sourced(max(cv - less, 0)))
    erratic = replace(inputs.climate, rainfall_cv_percent=Sourced(cv))
    reliable = evaluate_crop(replace(inputs, climate=steady)).score
    assert reliable >= evaluate_crop(replace(inputs, climate=erratic)).score


@FAST
@given(herds, st.floats(0, 1), st.floats(0, 1))
def test_greener_pasture_never_lowers_the_livestock_score(
    inputs: LivestockInputs, ndvi: float, more: float
) -> None:
    norm = Sourced(0.5)
    dry = replace(inputs.climate, ndvi=Sourced(ndvi), ndvi_norm=norm)
    green = replace(inputs.climate, ndvi=Sourced(min(ndvi + more, 1.0)), ndvi_norm=norm)
    assert (
        evaluate_livestock(replace(inputs, climate=green)).score
        >= evaluate_livestock(replace(inputs, climate=dry)).score
    )


@FAST
@given(smes, bureaus, st.integers(0, 400))
def test_a_principals_arrears_never_raise_an_smes_score(
    inputs: AgriSmeInputs, principal: Bureau, days: int
) -> None:
    clean = replace(principal, max_days_past_due=0)
    late = replace(principal, max_days_past_due=days)
    with_clean = evaluate_agri_sme(replace(inputs, principals=(*inputs.principals, clean)))
    with_late = evaluate_agri_sme(replace(inputs, principals=(*inputs.principals, late)))
    assert with_late.score <= with_clean.score


def test_missing_data_is_never_imputed() -> None:
    """No bureau, no cash flow: those components score the conservative 250, say so, and the
    rest are scored from what was sent, re-weighted where a factor is missing."""
    inputs = CropInputs(
        farm=CropFarm("maize", yields_kg_per_ha=(2000,)),
        climate=Climate(rainfall_cv_percent=Sourced(15, "CHIRPS v2.0", "2026-06-30")),
        market=Market(offtake="contract"),
        crop_water_need_mm=water_need("maize"),
    )
    evaluation = evaluate_crop(inputs)
    by_name = {c.name: c for c in evaluation.components}
    assert by_name["crb"].basis == "conservative" and by_name["crb"].score == CONSERVATIVE_SCORE
    assert by_name["cash_flow"].basis == "conservative"
    agro = by_name["agro_ecological"]
    assert agro.basis == "reweighted_factors" and agro.score == 900  # only the CV's 900
    steps = [s for s in evaluation.trace if s["kind"] == "component"]
    assert "re-weighted without season_rainfall_percent_of_normal" in steps[1]["formula"]
    assert "conservative 250" in steps[0]["formula"]
    cv = next(s for s in evaluation.trace if s.get("factor") == "rainfall_cv_percent")
    assert cv["source"] == "CHIRPS v2.0" and cv["as_of"] == "2026-06-30"
    # 250*25 + 900*25 + 250*25 + 1000*25 (off-take only) = 600 points.
    assert evaluation.score == 600


def test_overrides_cap_the_score() -> None:
    inputs = AgriSmeInputs(
        business_bureau=Bureau(0, 0, 0, 60, 0),
        cash_flow=CashFlow(12, 100, 50, 10, 10),
        accounts=Accounts("adverse", 15, 2.0, 0.5, 5, 20),
    )
    evaluation = evaluate_agri_sme(inputs)
    override = next(s for s in evaluation.trace if s["kind"] == "override")
    assert override["before"] > 400 and override["after"] == 400 == evaluation.score
    written_off = evaluate_agri_sme(
        replace(
            inputs,
            accounts=Accounts("unqualified", 15, 2, 0.5, 5, 20),
            principals=(Bureau(written_off_accounts=1),),
        )
    )
    assert written_off.score <= 450 and written_off.overrides[0].rule == "written_off_account"

"""The three 360 models: each component scored 0-1000 from its factors, combined with the
spec's weights, capped by the overrides, every step written to the trace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from hakiki.engines.evaluation.factors import (
    Factor,
    accounts_factors,
    agro_factors,
    bureau_factors,
    cash_flow_factors,
    market_factors,
    pasture_factors,
)
from hakiki.engines.evaluation.inputs import (
    AgriSmeInputs,
    Bureau,
    CropInputs,
    LivestockInputs,
)
from hakiki.engines.evaluation.scale import MAX_SCORE, half_up, weighted

ModelName = Literal["crop_farmer", "livestock_farmer", "agri_sme"]
Rating = Literal["strong", "marginal", "weak"]

MODEL_VERSION = "2026-11-24"

# The spec's weights, percent (docs/evaluation-360.md). The spec names the livestock model's four
# components without weights; they take the crop model's equal quarters (docs/decisions.md).
WEIGHTS: dict[str, tuple[tuple[str, int], ...]] = {
    "crop_farmer": (("crb", 25), ("agro_ecological", 25), ("cash_flow", 25), ("market", 25)),
    "livestock_farmer": (("crb", 25), ("ndvi_weather", 25), ("cash_flow", 25), ("market", 25)),
    "agri_sme": (("combined_crb", 30), ("cash_flow", 35), ("audited_accounts", 35)),
}

# A component with none of its figures is scored here: a quarter of the scale, below the weak
# line, so missing data never scores better than poor data would.
CONSERVATIVE_SCORE = 250
STRONG_FROM = 700
MARGINAL_FROM = 500
WRITTEN_OFF_CAP = 450
ADVERSE_AUDIT_CAP = 400


@dataclass(frozen=True)
class Component:
    name: str
    weight: int  # percent
    score: int
    basis: Literal["factors", "reweighted_factors", "conservative"]
    factors: tuple[Factor, ...]

    @property
    def points(self) -> Fraction:
        return Fraction(self.weight * self.score, 100)


@dataclass(frozen=True)
class Override:
    rule: str
    cap: int
    reason: str


@dataclass(frozen=True)
class Evaluation:
    model: ModelName
    score: int
    rating: Rating
    components: tuple[Component, ...]
    overrides: tuple[Override, ...]
    trace: tuple[dict[str, Any], ...]


def rating_of(score: int) -> Rating:
    if score >= STRONG_FROM:
        return "strong"
    return "marginal" if score >= MARGINAL_FROM else "weak"


def _component(name: str, weight: int, factors: Sequence[Factor]) -> Component:
    scored = [(f.weight, f.score) for f in factors if f.score is not None]
    if not scored:
        return Component(name, weight, CONSERVATIVE_SCORE, "conservative", tuple(factors))
    basis: Literal["factors", "reweighted_factors"] = (
        "factors" if len(scored) == len(factors) else "reweighted_factors"
    )
    return Component(name, weight, weighted(scored), basis, tuple(factors))


def _factor_step(factor: Factor) -> dict[str, Any]:
    step: dict[str, Any] = {
        "kind": "factor",
        "component": factor.component,
        "factor": factor.name,
        "value": factor.value,
        "score": factor.score,
        "weight_percent": factor.weight,
        "source": factor.source,
    }
    if factor.as_of:
        step["as_of"] = factor.as_of
    if factor.note:
        step["note"] = factor.note
    return step


def _component_steps(component: Component) -> list[dict[str, Any]]:
    steps = [_factor_step(f) for f in component.factors]
    used = [f for f in component.factors if f.score is not None]
    if component.basis == "conservative":
        how = f"no figures: scored at the conservative {CONSERVATIVE_SCORE}"
    else:
        terms = " + ".join(f"{f.weight}×{f.score}" for f in used)
        how = f"({terms}) / {sum(f.weight for f in used)}"
        if component.basis == "reweighted_factors":
            missing = ", ".join(f.name for f in component.factors if f.score is None)
            how += f"; re-weighted without {missing}"
    steps.append(
        {
            "kind": "component",
            "component": component.name,
            "score": component.score,
            "basis": component.basis,
            "formula": how,
        }
    )
    return steps


def _evaluate(
    model: ModelName,
    factors: dict[str, list[Factor]],
    overrides: Sequence[Override],
    received: Sequence[str],
    data: Sequence[dict[str, Any]],
) -> Evaluation:
    components = tuple(_component(name, w, factors[name]) for name, w in WEIGHTS[model])
    trace: list[dict[str, Any]] = [
        {
            "kind": "inputs",
            "model": model,
            "model_version": MODEL_VERSION,
            "received": list(received),
        },
        *({"kind": "data", **item} for item in data),
    ]
    for component in components:
        trace.extend(_component_steps(component))
    for component in components:
        trace.append(
            {
                "kind": "weighting",
                "component": component.name,
                "weight_percent": component.weight,
                "score": component.score,
                "points": float(component.points),
            }
        )
    total = sum((c.points for c in components), Fraction(0))
    score = half_up(total)
    trace.append({"kind": "sum", "points": float(total), "score": score})
    for override in overrides:
        before, score = score, min(score, override.cap)
        trace.append(
            {
                "kind": "override",
                "rule": override.rule,
                "cap": override.cap,
                "reason": override.reason,
                "before": before,
                "after": score,
            }
        )
    score = max(0, min(MAX_SCORE, score))
    rating = rating_of(score)
    trace.append({"kind": "result", "score": score, "rating": rating})
    numbered = tuple({"step": number, **step} for number, step in enumerate(trace, start=1))
    return Evaluation(model, score, rating, components, tuple(overrides), numbered)


def _bureau_overrides(reports: Sequence[Bureau]) -> list[Override]:
    if any((r.written_off_accounts or 0) > 0 for r in reports):
        return [
            Override(
                "written_off_account",
                WRITTEN_OFF_CAP,
                "a written-off account on a bureau report caps the score",
            )
        ]
    return []


def _received(**sections: object) -> list[str]:
    return [name for name, given in sections.items() if given]


def evaluate_crop(inputs: CropInputs, data: Sequence[dict[str, Any]] = ()) -> Evaluation:
    reports = [inputs.bureau] if inputs.bureau else []
    return _evaluate(
        "crop_farmer",
        {
            "crb": bureau_factors("crb", reports),
            "agro_ecological": agro_factors(inputs.farm, inputs.climate, inputs.crop_water_need_mm),
            "cash_flow": cash_flow_factors(inputs.cash_flow),
            "market": market_factors(inputs.market),
        },
        _bureau_overrides(reports),
        _received(farm=True, bureau=inputs.bureau, cash_flow=inputs.cash_flow),
        data,
    )


def evaluate_livestock(inputs: LivestockInputs, data: Sequence[dict[str, Any]] = ()) -> Evaluation:
    reports = [inputs.bureau] if inputs.bureau else []
    return _evaluate(
        "livestock_farmer",
        {
            "crb": bureau_factors("crb", reports),
            "ndvi_weather": pasture_factors(inputs.herd, inputs.climate),
            "cash_flow": cash_flow_factors(inputs.cash_flow),
            "market": market_factors(inputs.market),
        },
        _bureau_overrides(reports),
        _received(herd=True, bureau=inputs.bureau, cash_flow=inputs.cash_flow),
        data,
    )


def evaluate_agri_sme(inputs: AgriSmeInputs, data: Sequence[dict[str, Any]] = ()) -> Evaluation:
    reports = [r for r in (inputs.business_bureau, *inputs.principals) if r is not None]
    if inputs.business_bureau is None and reports:
        # Without the business's own report the history factor has no borrower to read.
        reports = [Bureau(label="business", source="none"), *reports]
    overrides = _bureau_overrides(reports)
    opinion = inputs.accounts.audit_opinion if inputs.accounts else None
    if opinion in ("adverse", "disclaimer"):
        overrides.append(
            Override(
                "audit_opinion", ADVERSE_AUDIT_CAP, f"an audit opinion of {opinion} caps the score"
            )
        )
    return _evaluate(
        "agri_sme",
        {
            "combined_crb": bureau_factors("combined_crb", reports),
            "cash_flow": cash_flow_factors(inputs.cash_flow),
            "audited_accounts": accounts_factors(inputs.accounts),
        },
        overrides,
        _received(
            business_bureau=inputs.business_bureau,
            principals=inputs.principals,
            cash_flow=inputs.cash_flow,
            accounts=inputs.accounts,
        ),
        data,
    )

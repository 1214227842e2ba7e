"""The deterministic explanation: a paragraph built only from the evaluation (the same
evaluation, the same words), naming the strengths, the risks and what would raise the score."""

from __future__ import annotations

from fractions import Fraction

from hakiki.engines.evaluation.factors import Factor
from hakiki.engines.evaluation.models import Evaluation
from hakiki.engines.evaluation.scale import half_up

LABELS = {
    "days_past_due": "arrears on the bureau report",
    "defaulted_accounts": "non-performing or written-off accounts",
    "months_of_history": "length of credit history",
    "enquiries_90_days": "recent credit enquiries",
    "rainfall_cv_percent": "year-to-year rainfall variability",
    "season_rainfall_percent_of_normal": "this season's rainfall against the norm",
    "crop_water_fit": "rainfall against the crop's water need",
    "yield_cv_percent": "stability of past yields",
    "good_practices": "certified seed, fertiliser and crop insurance",
    "ndvi_percent_of_norm": "pasture greenness (NDVI) against the seasonal norm",
    "vaccinated_percent": "herd vaccination coverage",
    "net_cash_margin_percent": "net cash margin",
    "debt_service_cover": "cover of the proposed repayment by net cash flow",
    "inflow_cv_percent": "stability of monthly inflows",
    "months_covered": "months of cash-flow history",
    "offtake": "off-take contract or cooperative membership",
    "distance_to_market_km": "distance to market",
    "price_cv_percent": "price volatility of the produce",
    "audit_opinion": "audit opinion",
    "net_margin_percent": "net profit margin",
    "current_ratio": "current ratio",
    "debt_to_equity": "leverage (debt to equity)",
    "years_of_accounts": "years of audited accounts",
    "revenue_growth_percent": "revenue growth",
}
STRENGTH_FROM = 800
RISK_BELOW = 500


def _label(factor: Factor) -> str:
    return f"{LABELS.get(factor.name, factor.name)} ({factor.score})"


def explain(evaluation: Evaluation) -> str:
    factors = [f for c in evaluation.components for f in c.factors if f.score is not None]
    strengths = sorted(
        (f for f in factors if f.score is not None and f.score >= STRENGTH_FROM),
        key=lambda f: (-(f.score or 0), f.name),
    )[:3]
    risks = sorted(
        (f for f in factors if f.score is not None and f.score < RISK_BELOW),
        key=lambda f: (f.score or 0, f.name),
    )[:3]
    parts = [
        f"Score {evaluation.score} of 1000 ({evaluation.rating}); "
        + ", ".join(f"{c.name} {c.score}" for c in evaluation.components)
        + "."
    ]
    if strengths:
        parts.append("Strengths: " + "; ".join(_label(f) for f in strengths) + ".")
    if risks:
        parts.append("Risks: " + "; ".join(_label(f) for f in risks) + ".")
    estimated = [c.name for c in evaluation.components if c.basis == "conservative"]
    if estimated:
        parts.append(
            "No figures were given for "
            + ", ".join(estimated)
            + ", scored at the conservative 250: supplying them would raise the score."
        )
    for override in evaluation.overrides:
        parts.append(f"Capped at {override.cap}: {override.reason}.")
    gain = _most_to_gain(evaluation)
    if gain is not None:
        label = LABELS.get(gain[0].name, gain[0].name)
        parts.append(f"Most to gain: {label} (up to {gain[1]} points).")
    return " ".join(parts)


def _most_to_gain(evaluation: Evaluation) -> tuple[Factor, int] | None:
    """The scored factor whose rise to 1000 would add the most points to the total (before
    overrides): its shortfall × its share of its component × the component's weight."""
    best: tuple[Fraction, Factor] | None = None
    for component in evaluation.components:
        scored = [f for f in component.factors if f.score is not None]
        total = sum(f.weight for f in scored)
        for factor in scored:
            shortfall = (1000 - (factor.score or 0)) * factor.weight * component.weight
            gain = Fraction(shortfall, total * 100)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, factor)
    return None if best is None else (best[1], half_up(best[0]))

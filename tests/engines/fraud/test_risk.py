"""The risk engine: every fired signal explained, bands and weights as documented."""

from __future__ import annotations

import pytest

from hakiki.engines.fraud.risk import IdentityEvidence, assess, id_signals


def test_a_clean_number_is_low_with_no_signals() -> None:
    risk = assess(id_signals(None, IdentityEvidence()))
    assert (risk.score, risk.level, risk.signals) == (0, "LOW", ())


def test_a_synthetic_identity_pattern_is_explained_signal_by_signal() -> None:
    evidence = IdentityEvidence(
        reports=2, reporting_organisations=2, categories=(("loan_stacking", 2),),
        names=3, birth_dates=2, phones=2, faces=1,
    )  # fmt: skip
    risk = assess(id_signals(None, evidence))
    assert [s.code for s in risk.signals] == [
        "reported", "reported_by_several", "several_names", "several_birth_dates",
    ]  # fmt: skip
    assert risk.score == 100 and risk.level == "CRITICAL"  # 40 + 20 + 25 + 30, capped
    assert "3 different names" in risk.signals[2].reason


@pytest.mark.parametrize(
    ("weights", "level"),
    [({}, "MEDIUM"), ({"invalid_format": 10}, "LOW"), ({"invalid_format": 60}, "HIGH")],
)
def test_weights_are_configurable(weights: dict[str, int], level: str) -> None:
    risk = assess(id_signals("BVN numbers are 11 digits", IdentityEvidence()), weights)
    assert risk.level == level and risk.signals[0].reason == "BVN numbers are 11 digits"

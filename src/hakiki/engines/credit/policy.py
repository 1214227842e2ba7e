"""The decision around the score: cut-offs, and the rules that override a score (a sanctions
hit or confirmed fraud declines; a non-performing bureau account declines; an unaffordable loan
or a politically exposed applicant is referred to a person)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Decision = Literal["approve", "refer", "decline"]

APPROVE: Decision = "approve"
REFER: Decision = "refer"
DECLINE: Decision = "decline"
SCORE_TOP = 851  # one above the highest score
Band = Literal["A", "B", "C", "D", "E"]
# The lowest score of each band, best first.
BANDS: tuple[tuple[int, Band], ...] = ((720, "A"), (660, "B"), (620, "C"), (560, "D"), (300, "E"))
_RANK: dict[Decision, int] = {APPROVE: 0, REFER: 1, DECLINE: 2}


@dataclass(frozen=True)
class Cutoffs:
    approve: int  # a score at or above approves
    refer: int  # at or above (and below approve) refers; below declines


@dataclass(frozen=True)
class Signals:
    sanctions_hit: bool = False
    confirmed_fraud: bool = False
    pep: bool = False


@dataclass(frozen=True)
class Override:
    decision: Decision
    code: str
    reason: str


def by_score(score: int, cutoffs: Cutoffs) -> Decision:
    if score >= cutoffs.approve:
        return APPROVE
    return REFER if score >= cutoffs.refer else DECLINE


def overrides(
    signals: Signals, non_performing: int, max_days_past_due: int, dti: float | None, max_dti: float
) -> list[Override]:
    found = []
    if signals.sanctions_hit:
        found.append(Override(DECLINE, "sanctions_hit", "The applicant matches a sanctions list."))
    if signals.confirmed_fraud:
        found.append(
            Override(DECLINE, "confirmed_fraud", "A confirmed fraud report names the applicant.")
        )
    if non_performing > 0 or max_days_past_due >= 90:
        found.append(
            Override(
                DECLINE,
                "bureau_non_performing",
                "The bureau reports a non-performing account (90 days or more past due).",
            )
        )
    if dti is not None and dti > max_dti:
        found.append(
            Override(
                REFER,
                "affordability",
                f"Obligations and the new instalment exceed {max_dti:.0%} of income.",
            )
        )
    if signals.pep:
        found.append(
            Override(REFER, "pep", "The applicant is politically exposed: enhanced due diligence.")
        )
    return found


def decide(score_decision: Decision, found: list[Override]) -> Decision:
    """The strictest of the score's decision and the overrides'."""
    return max([score_decision, *(o.decision for o in found)], key=_RANK.__getitem__)


def band(score: int) -> Band:
    return next(letter for floor, letter in BANDS if score >= floor)

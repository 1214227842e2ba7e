"""Compare the names a client holds with the names a registry returned.

Used when a client asks "does the name I hold match the name on record?" (an identity
registry, a bank account, a mobile-money account). Tolerant of case, accents, punctuation,
the order of given names, a supplied first name that is the record's middle name, small
typos and a swapped first and last name (which is reported, and never scores 1.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hakiki.engines.screening.normalize import NormalizedName, normalize_name
from hakiki.engines.screening.similarity import align

SUPPLIED_WEIGHT = 0.8  # share of a part score from the supplied tokens found on record
MIDDLE_NAME_FACTOR = 0.9
SWAP_FACTOR = 0.9
MIN_PART_SCORE = 0.6


@dataclass(frozen=True, slots=True)
class PartComparison:
    supplied: str | None
    on_record: str | None
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"supplied": self.supplied, "on_record": self.on_record, "score": self.score}


@dataclass(frozen=True, slots=True)
class NameComparison:
    match: bool
    score: float
    first_name: PartComparison
    last_name: PartComparison
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "score": self.score,
            "first_name": self.first_name.to_dict(),
            "last_name": self.last_name.to_dict(),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class _Part:
    score: float
    on_record: str | None
    note: str


def _norm(value: str | None) -> NormalizedName:
    return normalize_name(value or "", False)


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    text = " ".join(value.split())
    return text or None


def _part_score(
    supplied: NormalizedName, record: NormalizedName, supplied_weight: float = SUPPLIED_WEIGHT
) -> float:
    """Score of one supplied name part against one record part; token order does not count."""
    alignment = align(supplied, record)
    if not alignment.matches:
        return 0.0
    score = (
        supplied_weight * alignment.query_coverage
        + (1.0 - supplied_weight) * alignment.list_coverage
    )
    return max(0.0, min(1.0, score))


def _describe(label: str, supplied: str | None, part: _Part) -> str:
    if supplied is None:
        return f"{label} not supplied"
    if part.on_record is None:
        return f"{label} not on record"
    if part.note and part.score >= MIN_PART_SCORE:
        return f"{label} is on record as a middle name ('{supplied}' vs '{part.on_record}')"
    if part.score >= 0.999:
        text = f"{label} matches"
    elif part.score >= 0.8:
        text = f"{label} nearly matches ('{supplied}' vs '{part.on_record}')"
    elif part.score >= MIN_PART_SCORE:
        text = f"{label} partly matches ('{supplied}' vs '{part.on_record}')"
    else:
        text = f"{label} differs ('{supplied}' vs '{part.on_record}')"
    return text


def _best_first(supplied: NormalizedName, first: str | None, middle: str | None) -> _Part:
    """The record's first name; its first and middle names when more names were supplied;
    or, at a small discount, its middle name alone."""
    best = _Part(0.0, first or middle, "")
    if first:
        best = _Part(_part_score(supplied, _norm(first)), first, "")
    if first and middle and len(supplied.substantive) > len(_norm(first).substantive):
        both = f"{first} {middle}"
        score = _part_score(supplied, _norm(both))
        if score > best.score + 1e-9:
            best = _Part(score, both, "")
    if middle and best.score < 0.999:
        score = _part_score(supplied, _norm(middle), supplied_weight=1.0) * MIDDLE_NAME_FACTOR
        if score > best.score + 1e-9:
            best = _Part(score, middle, "middle")
    return best


def _best_last(supplied: NormalizedName, last: str | None, middle: str | None) -> _Part:
    best = _Part(0.0, last, "")
    if last:
        best = _Part(_part_score(supplied, _norm(last)), last, "")
    if middle and best.score < 0.8:
        score = _part_score(supplied, _norm(middle), supplied_weight=1.0) * MIDDLE_NAME_FACTOR
        if score > best.score + 1e-9:
            best = _Part(score, middle, "middle")
    return best


def compare_names(
    supplied_first: str | None,
    supplied_last: str | None,
    record_first: str | None,
    record_middle: str | None,
    record_last: str | None,
    threshold: float = 0.8,
) -> NameComparison:
    """Compare a supplied first and last name with a record's first, middle and last names.

    ``score`` is the mean of the parts that were supplied (0..1); ``match`` needs the score to
    reach ``threshold`` and every supplied part to score at least 0.6.
    """
    s_first, s_last = _clean(supplied_first), _clean(supplied_last)
    r_first, r_middle, r_last = _clean(record_first), _clean(record_middle), _clean(record_last)
    n_first, n_last = _norm(s_first), _norm(s_last)
    first = _best_first(n_first, r_first, r_middle) if s_first else _Part(0.0, r_first, "")
    last = _best_last(n_last, r_last, r_middle) if s_last else _Part(0.0, r_last, "")
    swapped = False
    if s_first and s_last and min(first.score, last.score) < 0.8 and r_first and r_last:
        swap_first = _part_score(n_first, _norm(r_last))
        swap_last = _part_score(n_last, _norm(r_first))
        if swap_first * SWAP_FACTOR + swap_last * SWAP_FACTOR > first.score + last.score:
            swapped = True
            first = _Part(swap_first * SWAP_FACTOR, r_last, "")
            last = _Part(swap_last * SWAP_FACTOR, r_first, "")
    supplied_scores = [p.score for s, p in ((s_first, first), (s_last, last)) if s]
    score = round(sum(supplied_scores) / len(supplied_scores), 4) if supplied_scores else 0.0
    match = bool(supplied_scores) and score >= threshold and min(supplied_scores) >= MIN_PART_SCORE
    notes = [_describe("first name", s_first, first), _describe("last name", s_last, last)]
    if swapped:
        notes = [f"first and last names are swapped ('{s_first} {s_last}' vs '{r_first} {r_last}')"]
    if not supplied_scores:
        notes = ["no name supplied"]
    return NameComparison(
        match=match,
        score=score,
        first_name=PartComparison(s_first, first.on_record, round(first.score, 4)),
        last_name=PartComparison(s_last, last.on_record, round(last.score, 4)),
        reason="; ".join(notes),
    )

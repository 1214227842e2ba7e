"""The owner name a lender holds against the registered owners, with the screening engine's
name comparison (as the combined AML-with-ID screening compares names).

Registries write a whole name in one field, often surname first; the comparison takes the last
word of each name as its last name and the rest as given names, and the engine tolerates a
swapped order, middle names and small typos. Legal forms (Ltd, Limited, PLC...) are set aside
so a company's name compares with or without them. Financed vehicles are registered jointly
(the owner and the financier): the closest owner is the one reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hakiki.engines.screening.compare import compare_names

_LEGAL_FORMS = re.compile(
    r"\b(ltd|limited|plc|llp|llc|inc|co|company|corporation|corp)\b\.?", re.IGNORECASE
)
_PUNCTUATION = re.compile(r"[(),.&/]")


@dataclass(frozen=True)
class OwnerMatch:
    match: bool
    score: float
    on_record: str | None
    reason: str


def _words(name: str) -> list[str]:
    return _LEGAL_FORMS.sub(" ", _PUNCTUATION.sub(" ", name)).split()


def name_words(name: str) -> int:
    return len(_words(name))


def compare_owner(supplied: str, on_record: str, threshold: float = 0.85) -> OwnerMatch:
    given, record = _words(supplied), _words(on_record)
    if not given or not record:
        return OwnerMatch(False, 0.0, on_record, "no name to compare")
    result = compare_names(
        " ".join(given[:-1]) or None,
        given[-1],
        record[0],
        " ".join(record[1:-1]) or None,
        record[-1] if len(record) > 1 else None,
        threshold,
    )
    return OwnerMatch(result.match, result.score, on_record, result.reason)


def best_owner(supplied: str, owners: list[str], threshold: float) -> OwnerMatch:
    """The registered owner closest to ``supplied`` (a match first, then the higher score)."""
    if not owners:
        return OwnerMatch(False, 0.0, None, "the record names no owner")
    results = [compare_owner(supplied, owner, threshold) for owner in owners]
    return max(results, key=lambda r: (r.match, r.score))

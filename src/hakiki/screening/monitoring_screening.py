"""The screening work of ongoing monitoring, apart from the database: the subjects as the
engine sees them, the hits a list's changed entries give them (through the index of the
subjects), and a full screening of each. CPU-bound: callers run these in a worker thread."""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hakiki.core.crypto import Vault
from hakiki.engines.screening.bound import NameBound
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListEntity
from hakiki.engines.screening.results import Hit, ListVersion
from hakiki.engines.screening.subject import Subject
from hakiki.engines.screening.subject_index import SubjectIndex, confirm, entity_names
from hakiki.screening.monitoring_service import open_subject

FULL_PASS_LIMIT = 50  # hits kept per subject in a full pass (a screening's maximum)


@dataclass(frozen=True, slots=True)
class Watched:
    """One active monitored subject, decrypted for the run."""

    row: dict[str, Any]
    subject: Subject
    checks: tuple[str, ...]
    threshold: float


def watched(
    vault: Vault, rows: Iterable[dict[str, Any]], default_threshold: float
) -> list[Watched]:
    return [
        Watched(
            row=row,
            subject=open_subject(vault, row["subject_encrypted"], row["subject_type"]),
            checks=tuple(row["checks"].split(",")),
            threshold=row["threshold"] or default_threshold,
        )
        for row in rows
    ]


def delta_hits(
    subjects: Sequence[Watched], changed: Sequence[tuple[ListEntity, ListVersion]]
) -> dict[int, list[Hit]]:
    """Per subject position, the hits the changed entries give it: each entry's names query
    the index of the subjects, each proposed pair is scored as a screening of the subject
    would score it."""
    found: dict[int, list[Hit]] = defaultdict(list)
    if not subjects or not changed:
        return found
    index = SubjectIndex(w.subject for w in subjects)
    for entity, version in changed:
        listed = entity_names(entity)
        for position in index.candidates(entity):
            one = subjects[position]
            hit = confirm(
                one.subject,
                entity,
                list_version=version.version,
                list_checks=version.checks,
                wanted=one.checks,
                threshold=one.threshold,
                query=index.name_of(position),
                listed_names=listed,
            )
            if hit is not None:
                found[position].append(hit)
    return found


# One bound per engine (what it learns of the list names serves every chunk of a pass and the
# next day's pass), dropped with the engine when a list update replaces it.
_BOUNDS: weakref.WeakKeyDictionary[ScreeningEngine, NameBound] = weakref.WeakKeyDictionary()
_BOUNDS_LOCK = threading.Lock()


def name_bound(engine: ScreeningEngine) -> NameBound:
    with _BOUNDS_LOCK:
        found = _BOUNDS.get(engine)
        if found is None:
            found = _BOUNDS[engine] = NameBound()
        return found


def full_hits(
    engine: ScreeningEngine, subjects: Sequence[Watched], *, prune: bool = True
) -> dict[int, list[Hit]]:
    """Per subject position, its screening's hits against every list the engine holds: the
    hits of ``engine.screen`` (``prune=False`` runs exactly that, the reference the tests
    compare with), the candidates whose name cannot reach the threshold left unscored
    (engines/screening/bound.py)."""
    bound = name_bound(engine) if prune else None
    found: dict[int, list[Hit]] = {}
    for position, one in enumerate(subjects):
        result = engine.screen(
            one.subject,
            checks=one.checks,
            threshold=one.threshold,
            limit=FULL_PASS_LIMIT,
            prune=bound,
        )
        if result.hits:
            found[position] = result.hits
    return found

"""Monitoring's index of the subjects: the screening turned round.

A screening asks "which list entries look like this customer?" through the index of the list
names. When a list changes, the question is "which of our customers look like these few changed
entries?": :class:`SubjectIndex` files the monitored subjects' names in the same
:class:`~.index.CandidateIndex` (one row per subject, grouped by schema), and each changed
entry's names are the queries. The index only proposes; :func:`confirm` then scores each
proposed (subject, entry) pair in the screening's own direction (the subject's name as the
query, the entry's names as the listed ones) with the screening's scorer, so a monitoring hit
has exactly the score and explanation an onboarding screening of that subject would give.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence

import numpy as np

from hakiki.engines.screening.index import (
    MIN_IDENTIFIER_LENGTH,
    CandidateIndex,
    NameTable,
    normalize_identifier,
)
from hakiki.engines.screening.model import SCHEMAS, ListEntity, NameKind
from hakiki.engines.screening.normalize import NormalizedName, is_org_schema, normalize_name
from hakiki.engines.screening.results import Hit
from hakiki.engines.screening.scorer import (
    COUNTRY_MATCH,
    DOB_SAME_DATE,
    NameScore,
    score_entity,
    score_name,
)
from hakiki.engines.screening.subject import Subject

# Subjects proposed per changed entry name (and those nearly tied with the last of them, up to
# index.MAX_CANDIDATES): more than a screening's 40, since one entry may be like many customers
# (a common name among a million); the scorer decides.
SUBJECT_CANDIDATES = 100
_KIND_RANK = {"primary": 0, "alias": 1, "weak_alias": 2}


class SubjectIndex:
    """The names and identifiers of many subjects, position ``k`` being the ``k``-th given.

    A subject without a usable name is proposed only through an identifier."""

    def __init__(self, subjects: Iterable[Subject]) -> None:
        table = NameTable()
        identifiers: dict[str, list[int]] = defaultdict(list)
        rows = array("q")  # position -> row of its name in the table (-1: none)
        for position, subject in enumerate(subjects):
            norm = normalize_name(subject.full_name, is_org_schema(subject.schema))
            rows.append(
                table.add(position, 0, "primary", norm, SCHEMAS.index(subject.schema))
                if norm.tokens
                else -1
            )
            for value in subject.identifiers:
                key = normalize_identifier(value)
                if len(key) >= MIN_IDENTIFIER_LENGTH:
                    identifiers[key].append(position)
        self.size = len(rows)
        self.index = CandidateIndex(table)
        self._rows = np.frombuffer(rows, dtype=np.int64).copy()
        self._identifiers = dict(identifiers)

    def name_of(self, position: int) -> NormalizedName | None:
        """The subject's name as the index holds it (what a screening normalises it to)."""
        row = int(self._rows[position])
        return self.index.table.norm(row) if row >= 0 else None

    def candidates(self, entity: ListEntity, *, limit: int = SUBJECT_CANDIDATES) -> list[int]:
        """Positions of the subjects whose names are like any of the entry's names (of the
        entry's schema, most alike first), then of those sharing an identifier with it; no
        repeats."""
        groups = (SCHEMAS.index(entity.schema),)
        is_org = is_org_schema(entity.schema)
        found: dict[int, None] = {}
        owner = self.index.table.entity
        for entry in entity.names:
            query = normalize_name(entry.name, is_org)
            if not query.tokens:
                continue
            for nid in self.index.candidates(query, limit, groups):
                found[int(owner[nid])] = None
        for _, value in entity.identifiers:
            for position in self._identifiers.get(normalize_identifier(value), ()):
                found[position] = None
        return list(found)


def identifier_matches(subject: Subject, entity: ListEntity) -> list[tuple[str, str]]:
    """The entry's identifiers equal to one of the subject's (as the screening compares them:
    letters and digits, at least five)."""
    wanted = {
        key
        for value in subject.identifiers
        if len(key := normalize_identifier(value)) >= MIN_IDENTIFIER_LENGTH
    }
    return [(t, v) for t, v in entity.identifiers if normalize_identifier(v) in wanted]


def confirm(
    subject: Subject,
    entity: ListEntity,
    *,
    list_version: str,
    list_checks: Collection[str],
    wanted: Sequence[str],
    threshold: float,
    query: NormalizedName | None = None,
    listed_names: Sequence[NormalizedName] | None = None,
) -> Hit | None:
    """The hit a screening of ``subject`` (checks ``wanted``) would report on ``entity`` of a
    list providing ``list_checks``, or None below ``threshold``: the best of the entry's names
    by the name score, then the birth date, countries, gender and identifiers, as
    :meth:`~.engine.ScreeningEngine.screen` scores them. ``query`` (the subject's normalised
    name) and ``listed_names`` (the entry's, in order) spare normalising them again."""
    check = next((c for c in wanted if c in list_checks), None)
    if check is None or subject.schema != entity.schema:
        return None
    if query is None:
        query = normalize_name(subject.full_name, is_org_schema(subject.schema))
    if listed_names is None:
        listed_names = entity_names(entity)
    matches = identifier_matches(subject, entity)
    if not query.tokens and not matches:
        return None
    best: tuple[NameScore, NameKind, int] | None = None
    for slot, (entry, listed) in enumerate(zip(entity.names, listed_names, strict=True)):
        if not listed.tokens:
            continue
        scored = score_name(query, listed, entry.kind)
        if best is None or _better(scored, entry.kind, best[0], best[1]):
            best = (scored, entry.kind, slot)
    if best is None:
        return None
    scored, _, slot = best
    if scored.score + DOB_SAME_DATE + COUNTRY_MATCH < threshold and not matches:
        return None
    total, explanation = score_entity(
        scored,
        entity,
        birth_date=subject.birth_date,
        countries=subject.country_codes,
        gender=subject.normalized_gender,
        identifier_matches=matches,
    )
    if total < threshold:
        return None
    entry = entity.names[slot]
    return Hit(
        check=check,
        list_code=entity.list_code,
        list_version=list_version,
        programs=entity.programs,
        entity_id=entity.entity_id,
        entity_name=entity.primary_name,
        entity_schema=entity.schema,
        matched_name=entry.name,
        matched_name_kind=entry.kind,
        score=total,
        explanation=explanation,
        entity_fingerprint=entity.fingerprint(),
    )


def entity_names(entity: ListEntity) -> list[NormalizedName]:
    """The entry's names normalised, in order (as the screening's index holds them)."""
    is_org = is_org_schema(entity.schema)
    return [normalize_name(entry.name, is_org) for entry in entity.names]


def _better(new: NameScore, new_kind: NameKind, old: NameScore, old_kind: NameKind) -> bool:
    if new.score != old.score:
        return new.score > old.score
    return _KIND_RANK[new_kind] < _KIND_RANK[old_kind]


def changed_entities(
    before: dict[str, str], after: Iterable[ListEntity]
) -> tuple[list[ListEntity], list[str]]:
    """What a new version of a list changed against ``before`` (entity id -> fingerprint of the
    version last screened): the entries added or amended, and the ids removed."""
    changed: list[ListEntity] = []
    seen: set[str] = set()
    for entity in after:
        seen.add(entity.entity_id)
        if before.get(entity.entity_id) != entity.fingerprint():
            changed.append(entity)
    removed = [entity_id for entity_id in before if entity_id not in seen]
    return changed, removed

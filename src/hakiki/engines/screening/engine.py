"""The screening engine: list snapshots in, explained hits out.

A :class:`ScreeningEngine` is built once from parsed snapshots and never changes afterwards, so
one instance can serve many threads or coroutines at once. To update the lists, build a new
engine and swap the reference.
"""

from __future__ import annotations

import ctypes
import hashlib
import sys
import threading
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from hakiki.engines.screening.entities import EntityStore
from hakiki.engines.screening.index import (
    CANDIDATES,
    CandidateIndex,
    IdentifierIndex,
    NameTable,
    normalize_identifier,
)
from hakiki.engines.screening.model import SCHEMAS, ListEntity, ListSnapshot, NameKind, Schema
from hakiki.engines.screening.normalize import (
    NormalizedName,
    is_org_schema,
    list_normalizer,
    normalize_name,
)
from hakiki.engines.screening.pep import pep_details, today_iso
from hakiki.engines.screening.results import Hit, ListVersion, ScreeningResult
from hakiki.engines.screening.scorer import (
    COUNTRY_MATCH,
    DOB_SAME_DATE,
    NameBound,
    NameScore,
    score_entity,
    score_name,
)
from hakiki.engines.screening.subject import Subject

_KIND_RANK = {"primary": 0, "alias": 1, "weak_alias": 2}
# Given the name table, the query, the cut (the name score an entity needs to be kept) and the
# candidate rows, the rows whose names may score the cut, in order (bound.NameBound).
Prune = Callable[[NameTable, NormalizedName, float, list[int]], list[int]]


# A build over this many names gives the allocator's freed memory back to the system after.
TRIM_AFTER = 50_000


def release_freed_memory() -> bool:
    """Give the C allocator's free memory back to the operating system (glibc's
    ``malloc_trim``); whether it could. A build's temporaries (the normalised names, the
    numpy work arrays of the postings and hashes) are freed into the heap, which glibc keeps:
    at 100k entities the process kept 228 MB after a build, 127 MB once trimmed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.malloc_trim(0))
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False


def _id_key(list_code: str, entity_id: str) -> int:
    """A list entry's 64-bit id key (the same in every process, unlike hash())."""
    digest = hashlib.blake2b(f"{list_code}\x00{entity_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


@dataclass(frozen=True, slots=True)
class _ListInfo:
    snapshot: ListSnapshot
    version: ListVersion


class ScreeningEngine:
    # skip the full name score of candidates whose bound (scorer.NameBound) is under the
    # threshold; False only to check that the results are the same without it
    prune = True

    def __init__(self, snapshots: Iterable[ListSnapshot]) -> None:
        infos: list[_ListInfo] = []
        seen: set[str] = set()
        for snapshot in snapshots:
            if snapshot.code in seen:
                raise ValueError(f"list {snapshot.code!r} given twice")
            seen.add(snapshot.code)
            version = ListVersion(
                snapshot.code,
                snapshot.title,
                snapshot.version,
                tuple(sorted(snapshot.checks)),
                snapshot.licence,
            )
            infos.append(_ListInfo(snapshot, version))
        self._lists: tuple[_ListInfo, ...] = tuple(infos)
        entities = EntityStore()
        entity_list = array("h")
        # names are added in entity order: entity e's are rows first_name[e]:first_name[e + 1]
        first_name = array("q")
        table = NameTable()
        identifiers: list[tuple[int, str]] = []
        normalize = list_normalizer()
        id_keys = array("q")  # entity e's id key (list code and entity id hashed), in order
        for list_pos, info in enumerate(self._lists):
            for entity in info.snapshot.entities:
                position = entities.add(entity)
                id_keys.append(_id_key(info.snapshot.code, entity.entity_id))
                entity_list.append(list_pos)
                first_name.append(len(table))
                group = self._group(list_pos, entity.schema)
                is_org = is_org_schema(entity.schema)
                for slot, entry in enumerate(entity.names):
                    norm = normalize(entry.name, is_org)
                    if norm.tokens:
                        table.add(position, slot, entry.kind, norm, group)
                identifiers.extend((position, value) for _, value in entity.identifiers)
        first_name.append(len(table))
        entities.freeze()
        self._entities = entities
        # the engine keeps what each list is, not its entities (those are in the store)
        self._lists = tuple(
            _ListInfo(replace(info.snapshot, entities=(), warnings=()), info.version)
            for info in self._lists
        )
        self._entity_list = np.frombuffer(entity_list, dtype=np.int16).copy()
        self._first_name = np.frombuffer(first_name, dtype=np.int64).copy()
        self.index = CandidateIndex(table)
        self._identifiers = IdentifierIndex(identifiers)
        keys = np.frombuffer(id_keys, dtype=np.int64)
        self._id_order = np.argsort(keys, kind="stable")
        self._id_sorted = keys[self._id_order]
        if table.count >= TRIM_AFTER:
            release_freed_memory()

    @staticmethod
    def _group(list_pos: int, schema: Schema) -> int:
        return list_pos * len(SCHEMAS) + SCHEMAS.index(schema)

    @property
    def lists(self) -> list[ListVersion]:
        return [info.version for info in self._lists]

    def find_entity(self, list_code: str, entity_id: str) -> ListEntity | None:
        """The list's entry ``entity_id`` (names, dates, countries, programmes), or None: a
        binary search of the sorted id keys (8 bytes an entity), then the key's entries (one,
        unless two ids' keys collide) compared in full."""
        key = _id_key(list_code, entity_id)
        start = int(np.searchsorted(self._id_sorted, key, side="left"))
        end = int(np.searchsorted(self._id_sorted, key, side="right"))
        for position in self._id_order[start:end]:
            entity = self._entities[int(position)]
            listed = self._lists[int(self._entity_list[position])].snapshot.code
            if entity.entity_id == entity_id and listed == list_code:
                return entity
        return None

    @property
    def entity_count(self) -> int:
        return len(self._entities)

    @property
    def name_count(self) -> int:
        return self.index.name_count

    def candidate_entities(
        self, subject: Subject, *, checks: Collection[str] = ("sanction",), limit: int = 10
    ) -> list[int]:
        """Positions of the entities whose names the index proposes for ``subject`` (what
        :meth:`screen` scores, identifiers aside): for benchmarks and tests of recall."""
        wanted = (checks,) if isinstance(checks, str) else tuple(checks)
        selected = [
            pos for pos, info in enumerate(self._lists) if info.snapshot.checks.intersection(wanted)
        ]
        query = normalize_name(subject.full_name, is_org_schema(subject.schema))
        if not query or not selected:
            return []
        groups = frozenset(self._group(pos, subject.schema) for pos in selected)
        nids = self.index.candidates(query, max(CANDIDATES, 4 * limit), groups)
        entity = self.index.table.entity
        return list(dict.fromkeys(int(entity[nid]) for nid in nids))

    def entities_of(self, code: str) -> Iterator[ListEntity]:
        """Every entity of the list ``code`` (decoded one at a time: monitoring compares a new
        version's entries with those it last screened)."""
        for list_pos, info in enumerate(self._lists):
            if info.snapshot.code == code:
                for position in np.flatnonzero(self._entity_list == list_pos).tolist():
                    yield self._entities[position]

    def entity_names(self, position: int) -> range:
        """Rows of the name table holding the names of the entity at ``position``."""
        return range(int(self._first_name[position]), int(self._first_name[position + 1]))

    def screen(
        self,
        subject: Subject,
        *,
        checks: Collection[str] = ("sanction",),
        threshold: float = 0.8,
        limit: int = 10,
        prune: Prune | None = None,
    ) -> ScreeningResult:
        """Screen one subject against the lists that provide any of ``checks``.

        Returns hits scoring at least ``threshold`` (0..1), best first, at most ``limit``.
        ``prune`` (monitoring's full pass: :class:`.bound.NameBound`) spares scoring the
        candidate names that cannot reach the cut below; the hits are the same.
        """
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be between 0 and 1")
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if subject.schema not in SCHEMAS:
            raise ValueError(f"schema must be one of {', '.join(SCHEMAS)}")
        if isinstance(checks, str):
            checks = (checks,)
        wanted = list(dict.fromkeys(checks))
        selected = [
            pos for pos, info in enumerate(self._lists) if info.snapshot.checks.intersection(wanted)
        ]
        covered = {c for pos in selected for c in self._lists[pos].snapshot.checks}
        result_lists = [self._lists[pos].version for pos in selected]
        missing = [c for c in wanted if c not in covered]
        hits = self._hits(subject, selected, wanted, threshold, limit, prune) if selected else []
        return ScreeningResult(hits=hits, lists=result_lists, checks_without_lists=missing)

    def _hits(
        self,
        subject: Subject,
        selected: list[int],
        wanted: list[str],
        threshold: float,
        limit: int,
        prune: Prune | None = None,
    ) -> list[Hit]:
        query = normalize_name(subject.full_name, is_org_schema(subject.schema))
        groups = frozenset(self._group(pos, subject.schema) for pos in selected)
        selected_set = frozenset(selected)
        table = self.index.table
        best: dict[int, tuple[NameScore, int]] = {}
        considered: set[int] = set()
        ceiling = DOB_SAME_DATE + COUNTRY_MATCH
        # a name whose score cannot reach the threshold even with the best date of birth and
        # country is not scored (an identifier match scores every name of its entity)
        floor = threshold - ceiling - 1e-9
        bound = NameBound(query) if query and floor > 0.0 and self.prune else None

        def consider(nid: int, prune: bool = False) -> None:
            if nid in considered:
                return
            kind = table.kind_of(nid)
            listed = table.norm(nid)
            if prune and bound is not None and bound.of(listed, kind) < floor:
                return
            considered.add(nid)
            scored = score_name(query, listed, kind)
            position = int(table.entity[nid])
            current = best.get(position)
            if current is None or _better(scored, kind, current[0], table.kind_of(current[1])):
                best[position] = (scored, nid)

        if query:
            nids = self.index.candidates(query, max(CANDIDATES, 4 * limit), groups)
            if prune is not None:
                # an entity sharing an identifier is kept whatever its name scores: its
                # names are never skipped (the best of them is the hit's matched name)
                by_id = {p for v in subject.identifiers for p in self._identifiers.lookup(v)}
                kept = set(prune(table, query, threshold - ceiling, nids))
                owner = table.entity
                nids = [n for n in nids if n in kept or int(owner[n]) in by_id]
            if bound is not None:
                bound.prime(t for nid in nids for t in table.norm(nid).tokens)
            for nid in nids:
                consider(nid, prune=True)
        id_matches: dict[int, list[tuple[str, str]]] = {}
        for value in subject.identifiers:
            for position in self._identifiers.lookup(value):
                if self._entity_list[position] not in selected_set:
                    continue
                key = normalize_identifier(value)
                entity = self._entities[position]
                id_matches[position] = [
                    (t, v) for t, v in entity.identifiers if normalize_identifier(v) == key
                ]
                for nid in self.entity_names(position):
                    consider(nid)
        countries = subject.country_codes
        gender = subject.normalized_gender
        hits: list[tuple[float, float, int, Hit]] = []
        today = today_iso()
        for position, (scored, nid) in best.items():
            if scored.score + ceiling < threshold and position not in id_matches:
                continue
            entity = self._entities[position]
            total, explanation = score_entity(
                scored,
                entity,
                birth_date=subject.birth_date,
                countries=countries,
                gender=gender,
                identifier_matches=id_matches.get(position, ()),
            )
            if total < threshold:
                continue
            info = self._lists[self._entity_list[position]]
            entry = entity.names[int(table.slot[nid])]
            check = next(c for c in wanted if c in info.snapshot.checks)
            hit = Hit(
                check=check,
                list_code=info.snapshot.code,
                list_version=info.snapshot.version,
                programs=entity.programs,
                entity_id=entity.entity_id,
                entity_name=entity.primary_name,
                entity_schema=entity.schema,
                matched_name=entry.name,
                matched_name_kind=entry.kind,
                score=total,
                explanation=explanation,
                entity_fingerprint=entity.fingerprint(),
                pep=pep_details(entity, today) if check == "pep" else None,
            )
            hits.append((total, scored.score, position, hit))
        hits.sort(key=lambda item: (-item[0], -item[1], item[2]))
        return [hit for *_, hit in hits[:limit]]


def _better(new: NameScore, new_kind: NameKind, old: NameScore, old_kind: NameKind) -> bool:
    if new.score != old.score:
        return new.score > old.score
    return _KIND_RANK[new_kind] < _KIND_RANK[old_kind]


_default_engine: ScreeningEngine | None = None
_default_lock = threading.Lock()


def default_engine() -> ScreeningEngine:
    """The engine over the bundled list snapshots, built once per process on first use."""
    global _default_engine
    if _default_engine is None:
        with _default_lock:
            if _default_engine is None:
                from hakiki.engines.screening.bundled import load_bundled_snapshots

                _default_engine = ScreeningEngine(load_bundled_snapshots())
    return _default_engine

"""In-memory candidate index: from a query name to a short list of list names worth scoring.

Built once from the names of all loaded entities, then read-only (safe to share between
threads). These look-ups feed one ranking:

* normalised tokens -> names (postings), weighted by inverse document frequency;
* spelling variants: a query token also reaches the list tokens :mod:`.variants` lists as its
  spellings or short forms (``lanre`` reaches ``olanrewaju``, ``muhammad`` reaches ``mohamed``);
* typo tolerance: every token of 4+ letters is also filed under its one-letter deletions
  (symmetric-delete, as in SymSpell), under its phonetic key (first letter + metaphone) and,
  when it has a "y", under its spelling with "i", so a query token reaches list tokens one edit
  away, sounding alike or romanised with y for i; each proposal is then checked
  with :func:`~.similarity.token_similarity`, the same rule the scorer uses;
* spacing: adjacent list tokens are also filed written together ("abdul rahman" under
  "abdulrahman") and adjacent query tokens are looked up written together, and as their
  variants ("abu bakr" reaches "abubakar").

Names are ranked by a Dice-style overlap of IDF weight and the best ``limit`` are returned.
Identifiers have their own exact look-up.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
import weakref
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hakiki.engines.screening.model import NameEntry
from hakiki.engines.screening.normalize import SUBSTANTIVE, NormalizedName
from hakiki.engines.screening.similarity import (
    MIN_FUZZY_LENGTH,
    phonetic_key,
    token_similarity,
    y_as_i,
)
from hakiki.engines.screening.variants import variants_of

_ID_CLEAN = re.compile(r"[^0-9A-Z]")
MIN_IDENTIFIER_LENGTH = 5


def normalize_identifier(value: str) -> str:
    """Identifier values compare on letters and digits only, uppercased."""
    return _ID_CLEAN.sub("", value.upper())


@dataclass(frozen=True, slots=True)
class IndexedName:
    entity: int  # position of the entity in the engine's entity table
    entry: NameEntry
    norm: NormalizedName
    group: int  # (list, schema) group the engine filters on


def _deletions(token: str) -> set[str]:
    return {token[:i] + token[i + 1 :] for i in range(len(token))}


def _index_tokens(norm: NormalizedName) -> tuple[str, ...]:
    tokens = tuple(
        dict.fromkeys(t for t, w in zip(norm.tokens, norm.weights, strict=True) if w >= SUBSTANTIVE)
    )
    return tokens or tuple(dict.fromkeys(norm.tokens))


class CandidateIndex:
    def __init__(self, names: Sequence[IndexedName]) -> None:
        self.names: tuple[IndexedName, ...] = tuple(names)
        postings: dict[str, list[int]] = defaultdict(list)
        joined: dict[str, list[int]] = defaultdict(list)
        for nid, name in enumerate(self.names):
            for token in _index_tokens(name.norm):
                postings[token].append(nid)
            tokens = name.norm.tokens
            for a, b in itertools.pairwise(tokens):
                joined[a + b].append(nid)
        self._postings: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in postings.items()}
        self._joined: dict[str, tuple[int, ...]] = {
            k: tuple(dict.fromkeys(v)) for k, v in joined.items() if k not in self._postings
        }
        count = max(len(self.names), 1)
        self._idf: dict[str, float] = {
            t: math.log(1.0 + count / len(p)) for t, p in self._postings.items()
        }
        self._unknown_idf = math.log(1.0 + count)
        deletes: dict[str, list[str]] = defaultdict(list)
        phonetic: dict[str, list[str]] = defaultdict(list)
        y_spelled: dict[str, list[str]] = defaultdict(list)
        for token in self._postings:
            if len(token) >= MIN_FUZZY_LENGTH:
                if "y" in token:
                    y_spelled[y_as_i(token)].append(token)
                for deleted in _deletions(token):
                    deletes[deleted].append(token)
                key = phonetic_key(token)
                if key:
                    phonetic[key].append(token)
        # Values are space-joined token lists: far smaller than a tuple per key.
        self._deletes: dict[str, str] = {k: " ".join(v) for k, v in deletes.items()}
        self._phonetic: dict[str, str] = {k: " ".join(v) for k, v in phonetic.items()}
        self._y_spelled: dict[str, str] = {k: " ".join(v) for k, v in y_spelled.items()}
        self._name_weight: tuple[float, ...] = tuple(
            sum(self._idf[t] for t in _index_tokens(n.norm)) for n in self.names
        )
        self.expand = self._expand_cache()

    def _expand_cache(self) -> Callable[[str], tuple[tuple[str, float], ...]]:
        """A memo of :meth:`_expand` that does not hold the index: a cache of the bound method
        would, a cycle that only the garbage collector frees, and never once the index is
        frozen (``gc.freeze``) and then replaced by a reload."""
        method = weakref.WeakMethod(self._expand)

        def expand(token: str) -> tuple[tuple[str, float], ...]:
            bound = method()
            assert bound is not None  # whoever calls the cache holds the index
            return bound(token)

        return lru_cache(maxsize=16384)(expand)

    def __getstate__(self) -> dict[str, object]:
        """Everything but the look-up cache (a bound lru_cache cannot be pickled)."""
        state = dict(self.__dict__)
        del state["expand"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.expand = self._expand_cache()

    @property
    def vocabulary_size(self) -> int:
        return len(self._postings)

    def idf(self, token: str) -> float:
        return self._idf.get(token, self._unknown_idf)

    def _expand(self, token: str) -> tuple[tuple[str, float], ...]:
        """List tokens similar to ``token`` with their similarity (the token itself first)."""
        found: dict[str, float] = {}
        if token in self._postings:
            found[token] = 1.0
        for variant in variants_of(token):
            if variant in self._postings:
                found[variant], _ = token_similarity(token, variant)
        if len(token) >= MIN_FUZZY_LENGTH:
            proposals: set[str] = set(self._deletes.get(token, "").split())
            for deleted in _deletions(token):
                if deleted in self._postings and len(deleted) >= MIN_FUZZY_LENGTH:
                    proposals.add(deleted)
                proposals.update(self._deletes.get(deleted, "").split())
            proposals.update(self._phonetic.get(phonetic_key(token), "").split())
            folded = y_as_i(token)
            proposals.update(self._y_spelled.get(folded, "").split())
            if folded in self._postings:
                proposals.add(folded)
            proposals.difference_update(found)
            proposals.discard(token)
            for proposal in proposals:
                score, _ = token_similarity(token, proposal)
                if score > 0.0:
                    found[proposal] = score
        return tuple(sorted(found.items(), key=lambda item: -item[1]))

    def candidates(
        self,
        query: NormalizedName,
        limit: int = 40,
        groups: Collection[int] | None = None,
    ) -> list[int]:
        """Ids (positions in ``names``) of up to ``limit`` list names most like ``query``.

        ``groups`` restricts the result to names of those groups (lists and schemas).
        """
        q_tokens = [t for t, w in zip(query.tokens, query.weights, strict=True) if w >= SUBSTANTIVE]
        q_tokens = [t for t in dict.fromkeys(q_tokens) if len(t) > 1]
        if not q_tokens:
            return []
        acc: dict[int, float] = {}
        query_weight = 0.0
        postings, joined, idf = self._postings, self._joined, self._idf
        for token in q_tokens:
            # (weight, postings) lowest weight first, so a name reached through several
            # similar tokens keeps the best weight (dict.update overwrites, in C).
            sources = [
                (similarity * idf[listed], postings[listed])
                for listed, similarity in self.expand(token)
            ]
            split = joined.get(token)
            if split:
                sources.append((self._unknown_idf, split))
            if not sources:
                query_weight += self._unknown_idf
                continue
            sources.sort(key=lambda source: source[0])
            query_weight += sources[-1][0]
            best: dict[int, float] = {}
            for weight, ids in sources:
                best.update(dict.fromkeys(ids, weight))
            if not acc:
                acc = best
                continue
            get = acc.get
            for nid, weight in best.items():
                acc[nid] = get(nid, 0.0) + weight
        tokens = query.tokens
        for a, b in itertools.pairwise(tokens):
            for listed in (a + b, *variants_of(a + b)):
                together = postings.get(listed)
                if together:
                    weight = idf[listed]
                    for nid in together:
                        acc[nid] = acc.get(nid, 0.0) + weight
        name_weight = self._name_weight
        if groups is not None:
            names = self.names
            allowed = groups if isinstance(groups, (set, frozenset)) else frozenset(groups)
            items = [(nid, w) for nid, w in acc.items() if names[nid].group in allowed]
        else:
            items = list(acc.items())
        ranked = heapq.nlargest(
            limit, items, key=lambda item: item[1] / (query_weight + name_weight[item[0]])
        )
        return [nid for nid, _ in ranked]


class IdentifierIndex:
    """Exact look-up of identifier values (passport, national ID, IMO...) to entities."""

    def __init__(self, entries: Sequence[tuple[int, str]]) -> None:
        table: dict[str, list[int]] = defaultdict(list)
        for entity, value in entries:
            key = normalize_identifier(value)
            if len(key) >= MIN_IDENTIFIER_LENGTH:
                table[key].append(entity)
        self._table = {k: tuple(dict.fromkeys(v)) for k, v in table.items()}

    def lookup(self, value: str) -> tuple[int, ...]:
        key = normalize_identifier(value)
        if len(key) < MIN_IDENTIFIER_LENGTH:
            return ()
        return self._table.get(key, ())

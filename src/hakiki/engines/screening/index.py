"""Candidate index: from a query name to a short list of list names worth scoring.

Built once from the names of all loaded entities, then read-only (safe to share between
threads). Nothing in it is a Python object per list name: the names are token ids in flat
arrays (:class:`NameTable`), the postings of each token are a slice of one array, and the keys
of the typo and spacing look-ups are 64-bit hashes in sorted arrays. Pickled, it is a few dozen
arrays (the on-disk cache loads it without building millions of objects).

These look-ups feed one ranking:

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

Names are ranked by a Dice-style overlap of IDF weight. The budget adapts (see
:meth:`CandidateIndex.candidates`): the best ``limit`` always, and beyond them the names
tied or nearly tied with the last one taken, so a long list full of similar names does not
push the right one out. Identifiers have their own exact look-up.
"""

from __future__ import annotations

import itertools
import math
import re
import weakref
import zlib
from array import array
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from hakiki.engines.screening.model import NAME_KINDS, NameKind
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
CANDIDATES = 40
# Beyond the best ``limit``, names whose overlap is at least this share of the last one taken
# are taken too (near ties: a list of a million names has many names as like the query as the
# one wanted, and the overlap cannot tell them apart; the scorer can) ...
NEAR_TIE = 0.999
# ... up to this many in all.
MAX_CANDIDATES = 320

IntArray = npt.NDArray[np.int32]
_A = TypeVar("_A")
_R = TypeVar("_R")


def normalize_identifier(value: str) -> str:
    """Identifier values compare on letters and digits only, uppercased."""
    return _ID_CLEAN.sub("", value.upper())


def _deletions(token: str) -> set[str]:
    return {token[:i] + token[i + 1 :] for i in range(len(token))}


def _index_tokens(tokens: Sequence[str], weights: Sequence[float]) -> tuple[str, ...]:
    found = tuple(
        dict.fromkeys(t for t, w in zip(tokens, weights, strict=True) if w >= SUBSTANTIVE)
    )
    return found or tuple(dict.fromkeys(tokens))


def stable_hash(key: str) -> int:
    """A 64-bit hash that is the same in every process (``hash()`` is salted per process):
    CRC-32 and Adler-32 side by side, two C calls (a cryptographic digest costs seconds over
    the millions of keys of a large list)."""
    data = key.encode()
    return (zlib.crc32(data) << 32 | zlib.adler32(data)) - _HASH_OFFSET


_HASH_OFFSET = 1 << 63


class HashedPostings:
    """A multimap from strings to int32 values, held as three arrays: the sorted 64-bit hashes
    of the keys, where each key's values start, and the values. Two keys with the same hash
    would share their values: among 2^64 hashes, never in practice, and the values are only
    proposals that the caller checks anyway."""

    __slots__ = ("_keys", "_starts", "_values")

    def __init__(self, hashes: npt.NDArray[np.int64], values: IntArray) -> None:
        order = np.lexsort((values, hashes))
        hashes, values = hashes[order], values[order]
        if len(hashes):
            keep = np.ones(len(hashes), dtype=bool)
            keep[1:] = (hashes[1:] != hashes[:-1]) | (values[1:] != values[:-1])
            hashes, values = hashes[keep], values[keep]
        keys, starts = np.unique(hashes, return_index=True)
        self._keys = keys
        self._starts = np.append(starts, len(hashes)).astype(np.int64)
        self._values = values.astype(np.int32)

    @classmethod
    def build(cls, pairs: Iterable[tuple[str, int]]) -> HashedPostings:
        hashes = array("q")
        values = array("i")
        add_hash, add_value = hashes.append, values.append
        crc32, adler32 = zlib.crc32, zlib.adler32
        for key, value in pairs:
            data = key.encode()  # stable_hash, inline: millions of keys in a large list
            add_hash((crc32(data) << 32 | adler32(data)) - _HASH_OFFSET)
            add_value(value)
        return cls(np.frombuffer(hashes, dtype=np.int64), np.frombuffer(values, dtype=np.int32))

    def get(self, key: str) -> IntArray:
        h = stable_hash(key)
        i = int(np.searchsorted(self._keys, h))
        if i < len(self._keys) and self._keys[i] == h:
            return self._values[self._starts[i] : self._starts[i + 1]]
        return self._values[:0]

    def __getstate__(self) -> tuple[object, ...]:
        return (self._keys, self._starts, self._values)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        self._keys, self._starts, self._values = state  # type: ignore[assignment]


class NameTable:
    """Every list name as token ids and weight codes in flat arrays, with the entity, the
    (list, schema) group, the kind and the position among the entity's names of each.

    Names are added in entity order (:meth:`add`), then :meth:`freeze` turns the growing
    buffers into arrays. :meth:`norm` gives back the exact :class:`NormalizedName` the name
    was added as."""

    def __init__(self) -> None:
        self.tokens: list[str] = []  # token id -> token
        self._token_ids: dict[str, int] = {}
        self._weights: list[float] = []  # weight code -> weight
        self._weight_codes: dict[float, int] = {}
        self._removed: dict[int, tuple[str, ...]] = {}  # the few names a title was taken from
        self._not_latin: set[int] = set()  # the few names not written in Latin letters
        self._starts = array("q", [0])
        self._ids = array("i")
        self._codes = array("B")
        self._entity = array("i")
        self._group = array("h")
        self._kind = array("B")
        self._slot = array("h")
        self.frozen = False

    def __len__(self) -> int:
        return len(self._entity)

    def token_id(self, token: str) -> int:
        found = self._token_ids.get(token)
        if found is None:
            found = self._token_ids[token] = len(self.tokens)
            self.tokens.append(token)
        return found

    def find(self, token: str) -> int | None:
        return self._token_ids.get(token)

    def add(self, entity: int, slot: int, kind: NameKind, norm: NormalizedName, group: int) -> int:
        nid = len(self._entity)
        token_ids, weight_codes = self._token_ids, self._weight_codes
        ids, codes = self._ids, self._codes
        for token, weight in zip(norm.tokens, norm.weights, strict=True):
            tid = token_ids.get(token)
            if tid is None:
                tid = token_ids[token] = len(self.tokens)
                self.tokens.append(token)
            ids.append(tid)
            code = weight_codes.get(weight)
            if code is None:
                code = weight_codes[weight] = len(self._weights)
                self._weights.append(weight)
            codes.append(code)
        self._starts.append(len(ids))
        if norm.removed:
            self._removed[nid] = norm.removed
        if not norm.latin:
            self._not_latin.add(nid)
        self._entity.append(entity)
        self._group.append(group)
        self._kind.append(NAME_KINDS.index(kind))
        self._slot.append(slot)
        return nid

    def freeze(self) -> None:
        self.starts = np.frombuffer(self._starts, dtype=np.int64).copy()
        self.ids = np.frombuffer(self._ids, dtype=np.int32).copy()
        self.codes = np.frombuffer(self._codes, dtype=np.uint8).copy()
        self.entity = np.frombuffer(self._entity, dtype=np.int32).copy()
        self.group = np.frombuffer(self._group, dtype=np.int16).copy()
        self.kind = np.frombuffer(self._kind, dtype=np.uint8).copy()
        self.slot = np.frombuffer(self._slot, dtype=np.int16).copy()
        for name in ("_starts", "_ids", "_codes", "_entity", "_group", "_kind", "_slot"):
            delattr(self, name)
        self.weights = tuple(self._weights)
        self.frozen = True
        # the names a server scores again and again (the common ones) are rebuilt once
        self.norm = _weak_memo(self._norm, 65536)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_token_ids")  # rebuilt on load: a dict pickles slower than a list
        state.pop("norm", None)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._token_ids = {t: k for k, t in enumerate(self.tokens)}
        if self.frozen:
            self.norm = _weak_memo(self._norm, 65536)

    @property
    def count(self) -> int:
        return len(self.entity) if self.frozen else len(self._entity)

    def token_ids(self, nid: int) -> IntArray:
        return self.ids[self.starts[nid] : self.starts[nid + 1]]

    def _norm(self, nid: int) -> NormalizedName:
        """The name at row ``nid`` as it was added (:attr:`norm` is its memo)."""
        lo, hi = int(self.starts[nid]), int(self.starts[nid + 1])
        tokens = self.tokens
        weights = self.weights
        return NormalizedName(
            tuple(tokens[i] for i in self.ids[lo:hi].tolist()),
            tuple(weights[c] for c in self.codes[lo:hi].tolist()),
            self._removed.get(nid, ()),
            nid not in self._not_latin,
        )

    def kind_of(self, nid: int) -> NameKind:
        return NAME_KINDS[self.kind[nid]]


def _weak_memo(method: Callable[[_A], _R], size: int) -> Callable[[_A], _R]:
    """A memo of a bound method that does not hold its object: a cache of the bound method
    would, a cycle that only the garbage collector frees, and never once the object is frozen
    (``gc.freeze``) and then replaced by a reload."""
    weak = weakref.WeakMethod(method)

    def call(argument: _A) -> _R:
        bound = weak()
        assert bound is not None  # whoever calls the memo holds the object
        return bound(argument)

    return lru_cache(maxsize=size)(call)


class _Scratch:
    """Work arrays as long as the name table, zero between queries. One query uses one at a
    time; the index keeps the free ones (as many as queries ever ran at once, not one per
    thread: 20 bytes a name, 38 MB at a million entities)."""

    def __init__(self, size: int) -> None:
        self.best = np.zeros(size, dtype=np.float64)
        self.acc = np.zeros(size, dtype=np.float64)
        self.owner = np.zeros(size, dtype=np.int32)


def _unique(ids: IntArray, owner: IntArray) -> IntArray:
    """``ids`` without repeats, in linear time: each position writes itself into ``owner`` at
    its id, and the one position that stays written there is the one kept."""
    positions = np.arange(len(ids), dtype=np.int32)
    owner[ids] = positions
    return ids[owner[ids] == positions]


class CandidateIndex:
    def __init__(self, table: NameTable) -> None:
        if not table.frozen:
            table.freeze()
        self.table = table
        count = table.count
        vocabulary = len(table.tokens)
        tokens = table.tokens
        ids = table.ids
        owner_of = np.repeat(np.arange(count, dtype=np.int64), np.diff(table.starts))
        # a name is filed under its substantive tokens, or all of them when it has none
        substantive = np.asarray(table.weights, dtype=np.float64)[table.codes] >= SUBSTANTIVE
        has_substantive = np.bincount(owner_of[substantive], minlength=count) > 0
        filed = substantive | ~has_substantive[owner_of]
        pairs = np.unique(owner_of[filed] * max(vocabulary, 1) + ids[filed])
        name_of, token_of = np.divmod(pairs, max(vocabulary, 1))
        order = np.argsort(token_of, kind="stable")
        self._post_ids = name_of[order].astype(np.int32)
        frequency = np.bincount(token_of, minlength=vocabulary)
        self._post_starts = np.zeros(vocabulary + 1, dtype=np.int64)
        np.cumsum(frequency, out=self._post_starts[1:])
        self._posted = frequency > 0
        total = max(count, 1)
        idf = np.where(self._posted, np.log(1.0 + total / np.maximum(frequency, 1)), 0.0)
        self._idf: list[float] = idf.tolist()
        self._unknown_idf = math.log(1.0 + total)
        self._name_weight = np.bincount(name_of, weights=idf[token_of], minlength=count)
        posted = self._posted.tolist()
        adjacent = np.flatnonzero(owner_of[1:] == owner_of[:-1])
        find = table.find

        def joined() -> Iterable[tuple[str, int]]:
            for a, b, nid in zip(
                ids[adjacent].tolist(),
                ids[adjacent + 1].tolist(),
                owner_of[adjacent].tolist(),
                strict=True,
            ):
                key = tokens[a] + tokens[b]
                tid = find(key)
                if tid is None or not posted[tid]:
                    yield key, nid

        self._joined = HashedPostings.build(joined())
        fuzzy = [
            (tid, token)
            for tid, token in enumerate(tokens)
            if posted[tid] and len(token) >= MIN_FUZZY_LENGTH
        ]
        # generators, not lists: the keys of a large list are millions of short strings
        self._deletes = HashedPostings.build(
            (deleted, tid) for tid, token in fuzzy for deleted in _deletions(token)
        )
        self._phonetic = HashedPostings.build(
            (key, tid) for tid, token in fuzzy if (key := phonetic_key(token))
        )
        self._y_spelled = HashedPostings.build(
            (y_as_i(token), tid) for tid, token in fuzzy if "y" in token
        )
        self._group_count = int(table.group.max()) + 1 if count else 0
        self._free: list[_Scratch] = []
        self.expand = self._expand_cache()

    @classmethod
    def of(cls, names: Iterable[NormalizedName]) -> CandidateIndex:
        """An index over bare names (entity k is name k, one group): for tests and tools."""
        table = NameTable()
        for k, norm in enumerate(names):
            table.add(k, 0, "primary", norm, 0)
        return cls(table)

    def _expand_cache(self) -> Callable[[str], tuple[tuple[int, float], ...]]:
        return _weak_memo(self._expand, 16384)

    def __getstate__(self) -> dict[str, object]:
        """Everything but the look-up cache and the work arrays."""
        state = dict(self.__dict__)
        del state["expand"]
        del state["_free"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._free = []
        self.expand = self._expand_cache()

    @property
    def vocabulary_size(self) -> int:
        return int(self._posted.sum())

    @property
    def name_count(self) -> int:
        return self.table.count

    def _tid(self, token: str) -> int | None:
        tid = self.table.find(token)
        return tid if tid is not None and self._posted[tid] else None

    def idf(self, token: str) -> float:
        tid = self._tid(token)
        return self._idf[tid] if tid is not None else self._unknown_idf

    def _expand(self, token: str) -> tuple[tuple[int, float], ...]:
        """Ids of list tokens similar to ``token`` with their similarity (itself first)."""
        tokens = self.table.tokens
        found: dict[int, float] = {}
        own = self._tid(token)
        if own is not None:
            found[own] = 1.0
        for variant in variants_of(token):
            tid = self._tid(variant)
            if tid is not None:
                found[tid], _ = token_similarity(token, variant)
        if len(token) >= MIN_FUZZY_LENGTH:
            proposals: set[int] = set(self._deletes.get(token).tolist())
            for deleted in _deletions(token):
                tid = self._tid(deleted)
                if tid is not None and len(deleted) >= MIN_FUZZY_LENGTH:
                    proposals.add(tid)
                proposals.update(self._deletes.get(deleted).tolist())
            proposals.update(self._phonetic.get(phonetic_key(token)).tolist())
            folded = y_as_i(token)
            proposals.update(self._y_spelled.get(folded).tolist())
            tid = self._tid(folded)
            if tid is not None:
                proposals.add(tid)
            proposals.difference_update(found)
            if own is not None:
                proposals.discard(own)
            for proposal in proposals:
                listed = tokens[proposal]
                if listed == token:
                    continue
                score, _ = token_similarity(token, listed)
                if score > 0.0:
                    found[proposal] = score
        return tuple(sorted(found.items(), key=lambda item: -item[1]))

    def _postings(self, tid: int) -> IntArray:
        return self._post_ids[self._post_starts[tid] : self._post_starts[tid + 1]]

    def candidates(
        self,
        query: NormalizedName,
        limit: int = CANDIDATES,
        groups: Collection[int] | None = None,
    ) -> list[int]:
        """Ids (rows of the name table) of the list names most like ``query``: the best
        ``limit``, then those nearly tied with the last of them (:data:`NEAR_TIE`), at most
        :data:`MAX_CANDIDATES` in all.

        ``groups`` restricts the result to names of those groups (lists and schemas).
        """
        q_tokens = [t for t, w in zip(query.tokens, query.weights, strict=True) if w >= SUBSTANTIVE]
        q_tokens = [t for t in dict.fromkeys(q_tokens) if len(t) > 1]
        if not q_tokens:
            return []
        scratch: _Scratch | None
        try:
            scratch = self._free.pop()  # atomic under the GIL: no two queries share one
        except IndexError:
            scratch = _Scratch(self.table.count)
        best, acc, owner = scratch.best, scratch.acc, scratch.owner
        idf = self._idf
        touched: list[IntArray] = []
        query_weight = 0.0
        try:
            for token in q_tokens:
                sources = [
                    (similarity * idf[tid], self._postings(tid))
                    for tid, similarity in self.expand(token)
                ]
                split = self._joined.get(token)
                if len(split):
                    sources.append((self._unknown_idf, split))
                if not sources:
                    query_weight += self._unknown_idf
                    continue
                # lowest weight first, so a name reached through several similar tokens keeps
                # the best weight (the last write wins)
                sources.sort(key=lambda source: source[0])
                query_weight += sources[-1][0]
                if len(sources) == 1:
                    weight, reached = sources[0]
                    acc[reached] += weight
                    touched.append(reached)
                    continue
                for weight, reached in sources:
                    best[reached] = weight
                reached = _unique(np.concatenate([ids for _, ids in sources]), owner)
                acc[reached] += best[reached]
                best[reached] = 0.0
                touched.append(reached)
            tokens = query.tokens
            for a, b in itertools.pairwise(tokens):
                for listed in (a + b, *variants_of(a + b)):
                    tid = self._tid(listed)
                    if tid is not None:
                        together = self._postings(tid)
                        acc[together] += idf[tid]
                        touched.append(together)
            if not touched:
                return []
            reached = _unique(np.concatenate(touched), owner) if len(touched) > 1 else touched[0]
            overlap = acc[reached]
        except BaseException:
            scratch = None  # an exception may have left ``best`` dirty: not reused
            raise
        finally:
            for ids in touched:
                acc[ids] = 0.0
            if scratch is not None:
                self._free.append(scratch)
        if groups is not None:
            allowed = np.zeros(self._group_count, dtype=bool)
            allowed[[g for g in groups if 0 <= g < self._group_count]] = True
            keep = allowed[self.table.group[reached]]
            reached, overlap = reached[keep], overlap[keep]
        if not len(reached):
            return []
        ratio = overlap / (query_weight + self._name_weight[reached])
        return self._take(reached, ratio, limit)

    @staticmethod
    def _take(reached: IntArray, ratio: npt.NDArray[np.float64], limit: int) -> list[int]:
        ceiling = max(limit, MAX_CANDIDATES)
        if len(reached) > ceiling:
            top = np.argpartition(-ratio, ceiling - 1)[:ceiling]
        else:
            top = np.arange(len(reached))
        order = top[np.lexsort((reached[top], -ratio[top]))]
        if len(order) > limit:
            floor = ratio[order[limit - 1]] * NEAR_TIE
            extra = int(np.count_nonzero(ratio[order[limit:]] >= floor))
            order = order[: limit + extra]
        return reached[order].tolist()


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

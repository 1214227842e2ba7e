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
import threading
import weakref
import zlib
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

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
# Early termination (CandidateIndex._early): tried when a query reaches at least this many
# postings in all; only terms reaching at least this many postings are left unwalked.
EARLY_MIN = 8192
EARLY_SKIP = 256
# The union of a query token's sources is kept when it holds this many names, up to this many
# bytes in all (CandidateIndex._merged).
MERGED_MIN = 2048
MERGED_BYTES = 64 << 20
# The sources of this many query tokens are kept (CandidateIndex.token_sources): views of the
# postings, about 200 bytes a source (a few MB).
SOURCES_KEPT = 2048

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


_P = 0x100000001B3  # the polynomial's base (FNV-1's prime): odd, so powers never vanish
_MASK = (1 << 64) - 1
_P64 = np.uint64(_P)
_GOLDEN = 0x9E3779B97F4A7C15


def _raw_hash(data: bytes) -> int:
    """The polynomial hash of ``data`` modulo 2^64 (sum of byte * P^rank, the last byte at
    rank 0), before mixing: composable, raw(a + b) = raw(a) * P^len(b) + raw(b)."""
    h = 0
    for byte in data:
        h = (h * _P + byte) & _MASK
    return h


def _mix(raw: int, length: int) -> int:
    """The key's hash from its raw hash and byte length (splitmix64's finaliser), signed."""
    z = raw ^ ((length * _GOLDEN) & _MASK)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z - (1 << 64) if z >> 63 else z


def key_hash(key: str) -> int:
    """The 64-bit hash a :class:`HashedPostings` files ``key`` under (the same in every
    process); :func:`_mix_many` computes the same for many keys at once in numpy."""
    data = key.encode()
    return _mix(_raw_hash(data), len(data))


def _mix_many(raw: npt.NDArray[np.uint64], lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:func:`_mix` over arrays."""
    z = raw ^ (lengths.astype(np.uint64) * np.uint64(_GOLDEN))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return z.view(np.int64)


def _powers(count: int) -> npt.NDArray[np.uint64]:
    out = [1]
    for _ in range(1, count):
        out.append(out[-1] * _P & _MASK)
    return np.array(out, dtype=np.uint64)


def _by_length(
    encoded: Sequence[bytes],
) -> Iterable[tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8]]]:
    """The rows of ``encoded`` grouped by length: (their positions, their bytes as a matrix)."""
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    for length in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == length)
        if length == 0:
            yield rows, np.zeros((len(rows), 0), dtype=np.uint8)
            continue
        picked = [encoded[r] for r in rows.tolist()]
        matrix = np.frombuffer(b"".join(picked), dtype=np.uint8).reshape(len(rows), length)
        yield rows, matrix


def _raw_many(encoded: Sequence[bytes]) -> npt.NDArray[np.uint64]:
    """:func:`_raw_hash` of each of ``encoded``."""
    out = np.zeros(len(encoded), dtype=np.uint64)
    for rows, matrix in _by_length(encoded):
        h = np.zeros(len(rows), dtype=np.uint64)
        for column in range(matrix.shape[1]):
            h = h * _P64 + matrix[:, column]
        out[rows] = h
    return out


def _hash_many(keys: Sequence[str]) -> npt.NDArray[np.int64]:
    """:func:`key_hash` of each of ``keys``."""
    encoded = [k.encode() for k in keys]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    return _mix_many(_raw_many(encoded), lengths)


def _deletion_hashes(
    tokens: Sequence[str], tids: IntArray
) -> tuple[npt.NDArray[np.int64], IntArray]:
    """The hashes of every one-letter deletion of each token, with the token's id beside
    (what ``HashedPostings.build((d, tid) for d in _deletions(token))`` files): ASCII tokens
    in numpy (deleting a letter is deleting a byte), from the prefix and suffix hashes; the
    others one by one."""
    hashes: list[npt.NDArray[np.int64]] = []
    values: list[IntArray] = []
    ascii_rows = [k for k, t in enumerate(tokens) if t.isascii()]
    other = [k for k, t in enumerate(tokens) if not t.isascii()]
    encoded = [tokens[k].encode() for k in ascii_rows]
    ascii_tids = tids[np.asarray(ascii_rows, dtype=np.int64)] if ascii_rows else tids[:0]
    for rows, matrix in _by_length(encoded):
        count, length = matrix.shape
        if length == 0:
            continue
        powers = _powers(length + 1)
        prefix = np.zeros((count, length + 1), dtype=np.uint64)  # hash of the first k bytes
        for column in range(length):
            prefix[:, column + 1] = prefix[:, column] * _P64 + matrix[:, column]
        whole = prefix[:, length]
        for i in range(length):
            tail = length - 1 - i  # the bytes after the deleted one
            suffix = whole - prefix[:, i + 1] * powers[tail]
            raw = prefix[:, i] * powers[tail] + suffix
            hashes.append(_mix_many(raw, np.full(count, length - 1, dtype=np.int64)))
            values.append(ascii_tids[rows])
    if other:
        keys = [(d, int(tids[k])) for k in other for d in _deletions(tokens[k])]
        hashes.append(_hash_many([d for d, _ in keys]))
        values.append(np.fromiter((v for _, v in keys), dtype=np.int32, count=len(keys)))
    if not hashes:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    return np.concatenate(hashes), np.concatenate(values).astype(np.int32)


class HashedPostings:
    """A multimap from strings to int32 values, held as three arrays: the sorted 64-bit hashes
    of the keys (:func:`key_hash`), where each key's values start, and the values. Two keys
    with the same hash would share their values: among 2^64 hashes, never in practice, and the
    values are only proposals that the caller checks anyway."""

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
        listed = list(pairs)
        values = np.fromiter((v for _, v in listed), dtype=np.int32, count=len(listed))
        return cls(_hash_many([k for k, _ in listed]), values)

    def get(self, key: str) -> IntArray:
        h = key_hash(key)
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
        self.tokens: list[str] = []  # token id -> token (made by freeze)
        self._token_ids: dict[str, int] = {}
        self._weight_codes: dict[float, int] = {}
        self._code_memo: dict[tuple[float, ...], bytes] = {}  # weights -> their codes
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
        return self._token_ids.setdefault(token, len(self._token_ids))

    def find(self, token: str) -> int | None:
        return self._token_ids.get(token)

    def add(self, entity: int, slot: int, kind: NameKind, norm: NormalizedName, group: int) -> int:
        nid = len(self._entity)
        token_ids, weight_codes = self._token_ids, self._weight_codes
        new_token = token_ids.setdefault
        self._ids.extend([new_token(token, len(token_ids)) for token in norm.tokens])
        codes = self._code_memo.get(norm.weights)
        if codes is None:  # a list has few distinct weight patterns
            new_code = weight_codes.setdefault
            codes = bytes([new_code(weight, len(weight_codes)) for weight in norm.weights])
            self._code_memo[norm.weights] = codes
        self._codes.frombytes(codes)
        ids = self._ids
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
        for name in (
            "_starts",
            "_ids",
            "_codes",
            "_entity",
            "_group",
            "_kind",
            "_slot",
            "_code_memo",
        ):
            delattr(self, name)
        # ids were given in the order tokens and weights were first met: the dicts' order
        self.tokens = list(self._token_ids)
        self.weights = tuple(self._weight_codes)
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


class _BytesCache:
    """A least-recently-used map holding at most ``limit`` bytes of values (their sizes are
    given). Safe between threads: one lock, held for dictionary work only."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._size = 0
        self._items: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: str, value: object, size: int) -> None:
        if size > self._limit:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= old[1]
            self._items[key] = (value, size)
            self._size += size
            while self._size > self._limit:
                _, (_, dropped) = self._items.popitem(last=False)
                self._size -= dropped


def _best_of(
    sources: Sequence[tuple[float, IntArray, float]], scratch: _Scratch
) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """The names ``sources`` reach, sorted, each with the best weight of the sources it is in
    (sources lowest weight first: the last write wins)."""
    best, owner = scratch.best, scratch.owner
    for weight, ids, _ in sources:
        best[ids] = weight
    names = np.sort(_unique(np.concatenate([ids for _, ids, _ in sources]), owner))
    weights = best[names]
    best[names] = 0.0
    return names, weights


def _kth(values: npt.NDArray[np.float64], k: int) -> float:
    """The ``k``-th largest of ``values`` (at least ``k`` of them)."""
    return float(np.partition(values, len(values) - k)[len(values) - k])


class CandidateIndex:
    # the early pass (:meth:`_early`) is on by default: it proposes the plain pass's names
    # (docs/benchmarks.md, issue 33; tests/engines/screening/test_candidates_early.py)
    early = True

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
        # adjacent tokens written together, by the hash of their concatenation (the raw hash
        # composes), except where that is a list token of its own
        encoded = [t.encode() for t in tokens]
        raw = _raw_many(encoded)
        size = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        del encoded
        first, second = ids[adjacent], ids[adjacent + 1]
        powers = _powers(int(size.max()) + 1 if len(size) else 1)
        pair_hash = _mix_many(
            raw[first] * powers[size[second]] + raw[second], size[first] + size[second]
        )
        own = _mix_many(raw, size)[self._posted]
        keep = ~np.isin(pair_hash, own)
        self._joined = HashedPostings(pair_hash[keep], owner_of[adjacent][keep].astype(np.int32))
        del raw, size, first, second, pair_hash, own, keep
        fuzzy = [
            (tid, token)
            for tid, token in enumerate(tokens)
            if posted[tid] and len(token) >= MIN_FUZZY_LENGTH
        ]
        fuzzy_tids = np.fromiter((tid for tid, _ in fuzzy), dtype=np.int32, count=len(fuzzy))
        self._deletes = HashedPostings(*_deletion_hashes([t for _, t in fuzzy], fuzzy_tids))
        self._phonetic = HashedPostings.build(
            (key, tid) for tid, token in fuzzy if (key := phonetic_key(token))
        )
        self._y_spelled = HashedPostings.build(
            (y_as_i(token), tid) for tid, token in fuzzy if "y" in token
        )
        self._group_count = int(table.group.max()) + 1 if count else 0
        self._free: list[_Scratch] = []
        self.expand = self._expand_cache()
        self.token_sources = _weak_memo(self._token_sources, SOURCES_KEPT)
        self._merged_cache = _BytesCache(MERGED_BYTES)

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
        del state["token_sources"]
        del state["_free"]
        del state["_merged_cache"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._free = []
        self.expand = self._expand_cache()
        self.token_sources = _weak_memo(self._token_sources, SOURCES_KEPT)
        self._merged_cache = _BytesCache(MERGED_BYTES)

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

    def _token_sources(self, token: str) -> tuple[tuple[float, IntArray, float], ...]:
        """A query token's sources (:meth:`_sources`), lowest weight first, so a name reached
        through several similar tokens keeps the best weight (the last write wins). Kept per
        token (:attr:`token_sources`): a common token has a hundred or more."""
        idf = self._idf
        sources = [
            (similarity * idf[tid], self._postings(tid), idf[tid])
            for tid, similarity in self.expand(token)
        ]
        split = self._joined.get(token)
        if len(split):
            sources.append((self._unknown_idf, split, 0.0))
        sources.sort(key=lambda source: source[0])
        return tuple(sources)

    def _sources(
        self, query: NormalizedName
    ) -> tuple[list[list[tuple[float, IntArray, float]]], list[str | None], float]:
        """The query's terms, in the order their weights are summed, the token of each (None
        for the pairs) and the query's weight.

        A term is a substantive query token (its sources: the postings of each list token it
        reaches, with ``similarity * idf``, and the names where it is two list tokens written
        together) or two adjacent query tokens found written together in the list. A name
        gets from a term the best weight of the sources it is in; each source also carries a
        floor of the ``_name_weight`` of any name in it (``idf`` of its token; 0 for the split
        names)."""
        q_tokens = [t for t, w in zip(query.tokens, query.weights, strict=True) if w >= SUBSTANTIVE]
        q_tokens = [t for t in dict.fromkeys(q_tokens) if len(t) > 1]
        terms: list[list[tuple[float, IntArray, float]]] = []
        keys: list[str | None] = []
        if not q_tokens:
            return terms, keys, 0.0
        idf = self._idf
        query_weight = 0.0
        for token in q_tokens:
            sources = self.token_sources(token)
            if not sources:
                query_weight += self._unknown_idf
                continue
            query_weight += sources[-1][0]
            terms.append(list(sources))
            keys.append(token)
        for a, b in itertools.pairwise(query.tokens):
            for listed in (a + b, *variants_of(a + b)):
                tid = self._tid(listed)
                if tid is not None:
                    terms.append([(idf[tid], self._postings(tid), idf[tid])])
                    keys.append(None)
        return terms, keys, query_weight

    def candidates(
        self,
        query: NormalizedName,
        limit: int = CANDIDATES,
        groups: Collection[int] | None = None,
        *,
        early: bool | None = None,
    ) -> list[int]:
        """Ids (rows of the name table) of the list names most like ``query``: the best
        ``limit``, then those nearly tied with the last of them (:data:`NEAR_TIE`), at most
        :data:`MAX_CANDIDATES` in all, best first (equal overlaps by row).

        ``groups`` restricts the result to names of those groups (lists and schemas).

        ``early`` (default :attr:`early`) stops short of the postings of common tokens when it
        can prove that no name reached only through them can be proposed (:meth:`_early`); the
        result is the same as the plain pass over every posting.
        """
        if early is None:
            early = self.early
        terms, keys, query_weight = self._sources(query)
        if not terms:
            return []
        scratch: _Scratch | None
        try:
            scratch = self._free.pop()  # atomic under the GIL: no two queries share one
        except IndexError:
            scratch = _Scratch(self.table.count)
        try:
            found = (
                self._early(terms, query_weight, limit, groups, scratch, keys) if early else None
            )
            if found is None:
                reached, overlap = self._walk(terms, scratch, keys=keys)
                reached, overlap = self._allowed(reached, overlap, groups)
                if not len(reached):
                    return []
                ratio = overlap / (query_weight + self._name_weight[reached])
                found = self._take(reached, ratio, limit)
        except BaseException:
            scratch = None  # an exception may have left the work arrays dirty: not reused
            raise
        finally:
            if scratch is not None:
                self._free.append(scratch)
        return found

    def _merged(
        self, key: str, sources: list[tuple[float, IntArray, float]], scratch: _Scratch
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        """The names a token's sources reach, each with the best weight among them: what the
        token gives each name, the same values as scattering the sources one by one. Kept
        (:data:`MERGED_BYTES` in all, the latest first) when the token reaches many names:
        the common tokens are the ones queried again and again."""
        found = self._merged_cache.get(key)
        if found is not None:
            return found
        names, weights = _best_of(sources, scratch)
        if len(names) >= MERGED_MIN:
            self._merged_cache.put(key, (names, weights), names.nbytes + weights.nbytes)
        return names, weights

    def _allowed(
        self,
        reached: IntArray,
        overlap: npt.NDArray[np.float64],
        groups: Collection[int] | None,
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        if groups is None:
            return reached, overlap
        allowed = np.zeros(self._group_count, dtype=bool)
        allowed[[g for g in groups if 0 <= g < self._group_count]] = True
        keep = allowed[self.table.group[reached]]
        return reached[keep], overlap[keep]

    def _walk(
        self,
        terms: list[list[tuple[float, IntArray, float]]],
        scratch: _Scratch,
        keys: Sequence[str | None] | None = None,
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        """Every name any source reaches, with its overlap (the plain pass). ``keys`` name
        the terms whose union :meth:`_merged` may keep."""
        best, acc, owner = scratch.best, scratch.acc, scratch.owner
        touched: list[IntArray] = []
        try:
            for t, sources in enumerate(terms):
                key = keys[t] if keys is not None else None
                if key is not None and len(sources) > 1:
                    names, weights = self._merged(key, sources, scratch)
                    acc[names] += weights
                    touched.append(names)
                    continue
                if len(sources) == 1:
                    weight, reached, _ = sources[0]
                    acc[reached] += weight
                    touched.append(reached)
                    continue
                for weight, reached, _ in sources:
                    best[reached] = weight
                reached = _unique(np.concatenate([ids for _, ids, _ in sources]), owner)
                acc[reached] += best[reached]
                best[reached] = 0.0
                touched.append(reached)
            if not touched:
                return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float64)
            reached = _unique(np.concatenate(touched), owner) if len(touched) > 1 else touched[0]
            return reached, acc[reached]
        finally:
            for ids in touched:
                acc[ids] = 0.0

    def _term(
        self, sources: list[tuple[float, IntArray, float]], key: str | None, scratch: _Scratch
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        """The names a term reaches, sorted, each with what the term gives it (the best weight
        among its sources): the values the plain pass adds for that term."""
        if key is not None and len(sources) > 1:
            return self._merged(key, sources, scratch)
        if len(sources) == 1:
            weight, ids, _ = sources[0]
            if len(ids) > 1 and not bool(np.all(ids[1:] > ids[:-1])):
                ids = np.unique(ids)
            return ids, np.full(len(ids), weight)
        return _best_of(sources, scratch)

    def _early(
        self,
        terms: list[list[tuple[float, IntArray, float]]],
        query_weight: float,
        limit: int,
        groups: Collection[int] | None,
        scratch: _Scratch,
        keys: Sequence[str | None] | None = None,
    ) -> list[int] | None:
        """The plain pass's result without walking the longest postings, or None when that
        cannot be proven (max-score early termination).

        Whether to try is decided before any walk, from what the index keeps per list token
        (the length of its postings, its ``idf``): the long sources (at least
        :data:`EARLY_SKIP` postings) must hold a quarter of the query's postings, and the
        short ones reach ``limit`` names; else the plain pass runs, at no extra cost.

        The short sources are walked first: every name they reach gets its exact overlap
        (each term's union of sources, sorted, :meth:`_term`, read by binary search or added
        whole, the terms summed in the plain pass's order, so equal to the last bit), and the
        ``limit``-th best ratio among them is a lower bound of the plain pass's. A name reached
        only through ``left`` sources gets from each term at most the best weight of that
        term's left sources, and its ``_name_weight`` is at least the smallest floor among them
        (the ``idf`` of their tokens; 0 for the split names): its ratio is at most their
        ``bound``. The long sources are left, longest first, while that bound stays under
        :data:`NEAR_TIE` times the lower bound; the long sources not left are walked too (their
        names, exact overlaps), which can only raise the ``limit``-th best ratio. No name
        reached only through left sources can then be taken: the plain pass would not take
        it, and everything it would take was walked. When the left sources hold less than a
        quarter of the postings, the plain pass runs.
        """
        flat = [
            (len(ids), t, s)
            for t, sources in enumerate(terms)
            for s, (_, ids, _) in enumerate(sources)
        ]
        total = sum(size for size, _, _ in flat)
        if total < EARLY_MIN:
            return None
        flat.sort(key=lambda item: (-item[0], item[1], item[2]))
        long = [item for item in flat if item[0] >= EARLY_SKIP]
        short = flat[len(long) :]
        reach = sum(size for size, _, _ in short)
        while long and reach < limit:  # the shortest long sources walked first, if need be
            reach += long[-1][0]
            short.append(long.pop())
        if sum(size for size, _, _ in long) < total // 4 or not short:
            return None
        if keys is None:
            keys = [None] * len(terms)
        unions = [self._term(sources, keys[t], scratch) for t, sources in enumerate(terms)]
        names, ratio = self._exact(terms, short, unions, query_weight, groups, scratch)
        if len(names) < limit:
            return None
        target = _kth(ratio, limit) * NEAR_TIE / (1.0 + 1e-9)
        left: set[tuple[int, int]] = set()
        saved = 0
        ceilings = [0.0] * len(terms)  # per term the best weight of its left sources
        ceiling, floor = 0.0, math.inf
        rest: list[tuple[int, int, int]] = []
        for size, t, s in long:
            weight, _, at_least = terms[t][s]
            raised = ceiling + max(weight - ceilings[t], 0.0)
            lowered = min(floor, at_least)
            if raised / (query_weight + lowered) < target:
                left.add((t, s))
                saved += size
                ceilings[t] = max(ceilings[t], weight)
                ceiling, floor = raised, lowered
            else:
                rest.append((size, t, s))
        if saved < total // 4:
            return None
        if rest:
            more, more_ratio = self._exact(terms, rest, unions, query_weight, groups, scratch)
            new = ~np.isin(more, names, assume_unique=True)
            names = np.concatenate([names, more[new]])
            ratio = np.concatenate([ratio, more_ratio[new]])
        return self._take(names, ratio, limit)

    def _exact(
        self,
        terms: list[list[tuple[float, IntArray, float]]],
        chosen: Sequence[tuple[int, int, int]],
        unions: Sequence[tuple[IntArray, npt.NDArray[np.float64]]],
        query_weight: float,
        groups: Collection[int] | None,
        scratch: _Scratch,
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        """The allowed names the ``chosen`` sources reach, sorted, with their ratios as the
        plain pass computes them (every term's weight added in the plain pass's order)."""
        acc, owner = scratch.acc, scratch.owner
        parts = [terms[t][s][1] for _, t, s in chosen]
        names = np.sort(_unique(np.concatenate(parts), owner) if len(parts) > 1 else parts[0])
        names, _ = self._allowed(names, np.zeros(len(names)), groups)
        touched: list[IntArray] = [names]
        try:
            for u_names, u_weights in unions:
                if not len(u_names):
                    continue
                if len(u_names) <= 4 * len(names):
                    acc[u_names] += u_weights
                    touched.append(u_names)
                    continue
                at = np.searchsorted(u_names, names)
                at[at == len(u_names)] = 0
                hit = u_names[at] == names
                acc[names[hit]] += u_weights[at[hit]]
            overlap = acc[names]
        finally:
            for ids in touched:
                acc[ids] = 0.0
        return names, overlap / (query_weight + self._name_weight[names])

    @staticmethod
    def _take(reached: IntArray, ratio: npt.NDArray[np.float64], limit: int) -> list[int]:
        """Best ratio first, equal ratios by row: the first ``limit``, then the near ties,
        at most ``max(limit, MAX_CANDIDATES)`` (names tied at that edge go by row too, so the
        result depends on the names and their ratios only)."""
        ceiling = max(limit, MAX_CANDIDATES)
        if len(reached) > ceiling:
            edge = np.partition(ratio, len(ratio) - ceiling)[len(ratio) - ceiling]
            top = np.flatnonzero(ratio >= edge)
        else:
            top = np.arange(len(reached))
        order = top[np.lexsort((reached[top], -ratio[top]))][:ceiling]
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

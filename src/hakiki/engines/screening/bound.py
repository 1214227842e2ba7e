"""A cheap upper bound of :func:`.scorer.score_name`, for screening many subjects at once.

A screening scores every candidate name the index proposes (a hundred or so per subject), then
drops every entity whose best name score plus the most the other features can add
(``DOB_SAME_DATE + COUNTRY_MATCH``) stays under the threshold. Ongoing monitoring's daily full
pass screens every monitored subject that way, and most of its time went to the scorer on
candidates that cannot hit. :class:`NameBound` bounds every candidate's name score from the
tokens, a few array operations per subject; only the candidates whose bound reaches that cut
are scored. No hit is lost: a candidate is skipped only when its name score cannot pass the
cut the screening applies anyway.

The bound follows the scorer's structure without running it. The name score is
``0.8 * list coverage + 0.2 * query coverage`` (:mod:`.scorer`), then only lowered (penalties,
caps) and clamped to 0..1. A part of either name counts as matched only if
:func:`.similarity.match_tokens` can pair it:

* with a token of the other name of positive :func:`.similarity.token_similarity`, credited
  what the scorer credits that similarity (``INITIAL_CREDIT`` for an initial). Most pairs are
  ruled out without calling it: only pairs that are equal, within the edit distance its rules
  allow (one C call for all the pairs of a subject), equal once y is i and sh is s, an
  initial, a Yoruba short form or near a listed spelling are asked;
* by a context rule (a short part one slip away, the given name written short), or written
  together with its neighbour (a moved boundary, "abdu lrahman" / "abdul rahman"; a merge,
  "abdul rahman" / "abdulrahman"): credited 1.

A list part left unmatched costs at least ``INNER_MISSING_WEIGHT`` of its weight in the list
coverage's denominator, so with ``A`` the most the matchable parts can credit and ``U`` the
weight of the others, list coverage <= ``A / (A + 0.3 U)``; the query coverage is at most the
credited share of the query's weight. Then what the scorer surely takes off: the substantive
parts of each side that cannot match make at least ``min(query's, list's)`` conflicts (0.1
each; no omission discount then, and each charged in full), and a name of which at most one
substantive part can match is capped at ``SINGLE_PART_CAP`` when the scorer would cap it.

tests/engines/screening/test_bound.py checks the bound against the scorer on the bundled lists'
names; tests/screening/test_monitoring_full_pass.py checks the pass it speeds against a plain
screening of every subject.
"""

from __future__ import annotations

import itertools
import threading
from array import array
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from rapidfuzz import process
from rapidfuzz.distance import OSA

from hakiki.engines.screening.index import NameTable, stable_hash
from hakiki.engines.screening.normalize import SUBSTANTIVE, NormalizedName
from hakiki.engines.screening.scorer import (
    CONFLICT_PENALTY,
    EDGE_MISSING_WEIGHT,
    INITIAL_CREDIT,
    INNER_MISSING_WEIGHT,
    LIST_COVERAGE_WEIGHT,
    SINGLE_PART_CAP,
)
from hakiki.engines.screening.similarity import (
    INITIAL_SIMILARITY,
    MERGE_MIN_SIMILARITY,
    MIN_FUZZY_LENGTH,
    SOUND_MIN_LENGTH,
    YORUBA_PREFIXES,
    phonetic_key,
    token_similarity,
)
from hakiki.engines.screening.variants import VARIANT_TOKENS, is_theophoric, variants_of

# Safety margin for floating-point sums taken in another order than the scorer's.
EPSILON = 1e-9
_MISSING = min(INNER_MISSING_WEIGHT, EDGE_MISSING_WEIGHT)
_SHORT_FORM_MIN = 4  # similarity._given_short_form's shortest side (a superset is tested)
_TWO_EDITS_FROM = 7  # similarity.INNER_TWO_EDITS_MIN_LENGTH; 8 without the ends rule
_MERGE_SLACK = 2  # _merge_adjacent: lengths within two letters

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _credit(similarity: float) -> float:
    """What the scorer's coverage credits a matched part of this similarity."""
    if similarity <= 0.0:
        return 0.0
    return INITIAL_CREDIT if similarity <= INITIAL_SIMILARITY else similarity


def _folded(token: str) -> str:
    """The key both transliteration rules compare under (y as i, sh as s)."""
    return token.replace("sh", "s").replace("y", "i")


def _may_be_short_form(a: str, b: str) -> bool:
    """A superset of similarity._given_short_form."""
    short, full = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= _SHORT_FORM_MIN and full.startswith(short[:-1])


def _head(token: str) -> int:
    """The first two letters as one number (the "inner two edits" rule compares them)."""
    return ord(token[0]) * 0x110000 + (ord(token[1]) if len(token) > 1 else 0)


def _with_deletions(token: str) -> set[str]:
    """The token and its one-letter deletions: two tokens one edit apart (OSA) share one."""
    return {token, *(token[:i] + token[i + 1 :] for i in range(len(token)))}


def _first_substantive(weights: Sequence[float]) -> int | None:
    return next((k for k, w in enumerate(weights) if w >= SUBSTANTIVE), None)


def _spans(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """(start, length) of the two and three adjacent tokens _merge_adjacent writes together."""
    return [(k, s) for s in (3, 2) for k in range(len(tokens) - s + 1)]


class _Vocabulary:
    """Per token of a name table: what the pair tests read, as arrays."""

    def __init__(self, table: NameTable) -> None:
        tokens = table.tokens
        self.length = np.fromiter((len(t) for t in tokens), dtype=np.int64, count=len(tokens))
        self.first = np.fromiter((ord(t[0]) for t in tokens), dtype=np.int64, count=len(tokens))
        self.alpha = np.fromiter((t.isalpha() for t in tokens), dtype=bool, count=len(tokens))
        self.last = np.fromiter((ord(t[-1]) for t in tokens), dtype=np.int64, count=len(tokens))
        self.head = np.fromiter((_head(t) for t in tokens), dtype=np.int64, count=len(tokens))
        folded: dict[str, int] = {}
        self.folded = np.fromiter(
            (folded.setdefault(_folded(t), len(folded)) for t in tokens),
            dtype=np.int64,
            count=len(tokens),
        )
        self.folded_ids = folded
        sounds: dict[str, int] = {}
        self.sound = np.fromiter(
            (
                sounds.setdefault(key, len(sounds)) if (key := phonetic_key(t)) else -1
                for t in tokens
            ),
            dtype=np.int64,
            count=len(tokens),
        )
        self.sound_ids = sounds
        # tokens with listed spellings
        self.variant = np.fromiter(
            (t in VARIANT_TOKENS for t in tokens), dtype=bool, count=len(tokens)
        )
        # per token with listed spellings: those spellings and their one-letter deletions
        self._near: dict[int, frozenset[str]] = {}
        self.tokens = tokens

    def near_variants(self, tid: int) -> frozenset[str]:
        found = self._near.get(tid)
        if found is None:
            found = self._near[tid] = frozenset(
                key for v in variants_of(self.tokens[tid]) for key in _with_deletions(v)
            )
        return found


class _Names:
    """Per name row of a table: its first substantive token, and its spans (two or three
    adjacent tokens written together: first letter, length, place) and adjacent pairs (by a
    hash of the two written together), as flat arrays: no string per name, so a table of
    millions of names costs arrays, not objects."""

    def __init__(self, table: NameTable) -> None:
        count = table.count
        weights = np.asarray(table.weights, dtype=np.float64)
        self.weight = weights[table.codes]
        ids = table.ids
        starts = table.starts
        tokens = table.tokens
        first = np.full(count, -1, dtype=np.int64)
        # per row: this token and the next of the same name write one theophoric name
        self.theophoric = np.zeros(len(ids), dtype=bool)
        # per row: strictly between the name's first and last substantive tokens
        self.inner = np.zeros(len(ids), dtype=bool)
        span_starts = array("q", [0])
        span_first = array("i")
        span_length = array("i")
        span_at = array("b")
        span_size = array("b")
        pair_keys = array("q")
        pair_names = array("i")
        pair_at = array("i")
        for nid in range(count):
            lo, hi = int(starts[nid]), int(starts[nid + 1])
            row = [tokens[t] for t in ids[lo:hi].tolist()]
            row_weights = self.weight[lo:hi].tolist()
            k = _first_substantive(row_weights)
            if k is not None:
                first[nid] = ids[lo + k]
                last = max(j for j, w in enumerate(row_weights) if w >= SUBSTANTIVE)
                self.inner[lo + k + 1 : lo + last] = True
            if len(row) > 1:
                lengths = [len(t) for t in row]
                for start, size in _spans(row):
                    span_first.append(ord(row[start][0]))
                    span_length.append(sum(lengths[start : start + size]))
                    span_at.append(min(start, 127))
                    span_size.append(size)
                for k, (a, b) in enumerate(itertools.pairwise(row)):
                    pair_keys.append(stable_hash(a + b))
                    pair_names.append(nid)
                    pair_at.append(k)
                    if is_theophoric(a, b):
                        self.theophoric[lo + k] = True
            span_starts.append(len(span_first))
        self.first = first
        self.span_starts = np.frombuffer(span_starts, dtype=np.int64).copy()
        self.span_first = np.frombuffer(span_first, dtype=np.int32).astype(np.int64)
        self.span_length = np.frombuffer(span_length, dtype=np.int32).astype(np.int64)
        self.span_at = np.frombuffer(span_at, dtype=np.int8).copy()
        self.span_size = np.frombuffer(span_size, dtype=np.int8).copy()
        keys = np.frombuffer(pair_keys, dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        self.pair_keys = keys[order]
        self.pair_names = np.frombuffer(pair_names, dtype=np.int32)[order]
        self.pair_at = np.frombuffer(pair_at, dtype=np.int32)[order]

    def pairs(self, joined: str) -> tuple[list[int], list[int]]:
        """(name rows, positions of the first token) of the adjacent pairs written ``joined``
        (a hash collision adds a pair: more credit, never less)."""
        key = stable_hash(joined)
        lo = int(np.searchsorted(self.pair_keys, key, side="left"))
        hi = int(np.searchsorted(self.pair_keys, key, side="right"))
        return self.pair_names[lo:hi].tolist(), self.pair_at[lo:hi].tolist()


def _rows(starts: IntArray, nids: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The flat rows of the given names (CSR ``starts``), where each name's rows begin, and
    the name (its place in ``nids``) of each row."""
    lo, hi = starts[nids], starts[nids + 1]
    sizes = hi - lo
    offsets = np.zeros(len(nids), dtype=np.int64)
    np.cumsum(sizes[:-1], out=offsets[1:])
    rows = np.repeat(lo - offsets, sizes) + np.arange(int(sizes.sum()), dtype=np.int64)
    return rows, offsets, np.repeat(np.arange(len(nids), dtype=np.int64), sizes)


class NameBound:
    """The bound over one name table, for many queries: what
    :meth:`.engine.ScreeningEngine.screen` takes as ``prune``. Keeps what it learns of the
    table and of token pairs for the next queries (a full pass's worth; the pair memo is
    emptied when it grows past :data:`PAIRS`)."""

    PAIRS = 200_000

    def __init__(self) -> None:
        self._table: NameTable | None = None
        self._vocabulary: _Vocabulary | None = None
        self._names: _Names | None = None
        self._similar: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    def _similarity(self, a: str, b: str) -> float:
        key = (a, b)
        found = self._similar.get(key)
        if found is None:
            if len(self._similar) >= self.PAIRS:
                self._similar.clear()
            found = self._similar[key] = token_similarity(a, b)[0]
        return found

    def _prepare(self, table: NameTable) -> tuple[_Vocabulary, _Names]:
        with self._lock:  # several threads may screen with one engine's bound
            if table is not self._table or self._vocabulary is None or self._names is None:
                self._vocabulary = _Vocabulary(table)
                self._names = _Names(table)
                self._table = table
            return self._vocabulary, self._names

    def __call__(
        self, table: NameTable, query: NormalizedName, cut: float, nids: Sequence[int]
    ) -> list[int]:
        """The names of ``nids`` (rows of ``table``) that may score ``cut`` against
        ``query``, in their order."""
        if not nids:
            return []
        bounds = self.upper(table, query, nids)
        return [nid for nid, b in zip(nids, bounds.tolist(), strict=True) if b + EPSILON >= cut]

    def upper(self, table: NameTable, query: NormalizedName, nids: Sequence[int]) -> FloatArray:
        """Per name of ``nids``: at least :func:`.scorer.score_name` of ``query`` against it
        (any kind)."""
        vocabulary, names = self._prepare(table)
        names_arr = np.asarray(nids, dtype=np.int64)
        q_tokens = query.tokens
        nq = len(q_tokens)
        if nq == 0:
            return np.zeros(len(names_arr))
        rows, offsets, owner = _rows(table.starts, names_arr)
        slot_tid = table.ids[rows].astype(np.int64)
        slot_weight = names.weight[rows]
        distinct, inverse = np.unique(slot_tid, return_inverse=True)
        credits = self._credits(table, vocabulary, query, distinct)  # (nq, distinct)
        self._query_merges(table, vocabulary, query, distinct, credits)
        slot_credits = credits[:, inverse]  # (nq, slots)
        self._list_merges(table, names, query, names_arr, offsets, slot_credits)
        best = slot_credits.max(axis=0)
        # the given name written short (similarity._in_context): credited in full
        q_first = _first_substantive(query.weights)
        short_name = np.zeros(len(names_arr), dtype=bool)
        if q_first is not None:
            firsts = names.first[names_arr]
            first_token = q_tokens[q_first]
            short_tids = [
                t
                for t in np.unique(firsts[firsts >= 0]).tolist()
                if _may_be_short_form(first_token, table.tokens[t])
            ]
            if short_tids:
                short_name = np.isin(firsts, short_tids)
                best[short_name[owner] & (slot_tid == firsts[owner])] = 1.0
        possible = best > 0.0
        substantive = slot_weight >= SUBSTANTIVE
        matched = np.add.reduceat(np.where(possible, slot_weight * best, 0.0), offsets)
        q_best = np.maximum.reduceat(slot_credits, offsets, axis=1)  # (nq, names)
        if q_first is not None and short_name.any():
            q_best[q_first, short_name] = 1.0
        q_weights = np.asarray(query.weights, dtype=np.float64)
        q_total = float(q_weights.sum())
        q_substantive = q_weights >= SUBSTANTIVE
        # name parts that differ (scorer: conflicts), at least: the substantive parts of each
        # side that cannot match; each costs CONFLICT_PENALTY, voids the omission discount
        # (an unmatched part outside the first and last substantive ones then counts in
        # full) and is charged in full itself (a substantive part weighs SUBSTANTIVE or more)
        q_left = (q_best[q_substantive] == 0.0).sum(axis=0)
        l_left = np.add.reduceat((~possible & substantive).astype(np.int64), offsets)
        conflicts = np.minimum(q_left, l_left)
        unmatched = np.add.reduceat(np.where(possible, 0.0, slot_weight), offsets)
        edge = np.add.reduceat(np.where(possible | names.inner[rows], 0.0, slot_weight), offsets)
        missing = np.maximum(
            _MISSING * unmatched + (EDGE_MISSING_WEIGHT - _MISSING) * SUBSTANTIVE * conflicts,
            np.where(
                conflicts > 0, _MISSING * unmatched + (EDGE_MISSING_WEIGHT - _MISSING) * edge, 0.0
            ),
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            list_coverage = np.where(matched > 0.0, matched / (matched + missing), 0.0)
        query_coverage = (q_weights @ q_best) / q_total if q_total else np.zeros(len(names_arr))
        bound = LIST_COVERAGE_WEIGHT * list_coverage + (1.0 - LIST_COVERAGE_WEIGHT) * query_coverage
        bound = bound - CONFLICT_PENALTY * conflicts
        bound = np.where(matched > 0.0, np.clip(bound, 0.0, 1.0), 0.0)
        # "only one name part matched" (scorer): at most one substantive list part can match,
        # and the list name has two (theophoric pairs counting one) or a query part is left
        matchable = np.add.reduceat((possible & substantive).astype(np.int64), offsets)
        parts = np.add.reduceat(substantive.astype(np.int64), offsets)
        compound = names.theophoric[rows] & possible & np.append(possible[1:], False)
        parts -= np.add.reduceat(compound.astype(np.int64), offsets)
        single = (matchable <= 1) & ((parts >= 2) | (q_left > 0))
        bound[single] = np.minimum(bound[single], SINGLE_PART_CAP)
        return bound

    def _credits(
        self, table: NameTable, vocabulary: _Vocabulary, query: NormalizedName, tids: IntArray
    ) -> FloatArray:
        """(query token, list token) -> the most the scorer credits that pairing (0: never)."""
        q_tokens = query.tokens
        tokens = table.tokens
        listed = [tokens[t] for t in tids.tolist()]
        q_len = np.fromiter((len(t) for t in q_tokens), dtype=np.int64)[:, None]
        l_len = vocabulary.length[tids][None, :]
        shortest = np.minimum(q_len, l_len)
        longest = np.maximum(q_len, l_len)
        # token_similarity's edit rules: a typo (1 edit, 2 from 7 or 8 letters) or "sounds
        # alike" (40% of the longer, from 5 letters), both from 4 letters
        q_last = np.fromiter((ord(t[-1]) for t in q_tokens), dtype=np.int64)[:, None]
        q_head = np.fromiter((_head(t) for t in q_tokens), dtype=np.int64)[:, None]
        ends = (q_last == vocabulary.last[tids][None, :]) & (
            q_head == vocabulary.head[tids][None, :]
        )
        typo = np.where((shortest >= 8) | ((shortest >= _TWO_EDITS_FROM) & ends), 2, 1)
        sound = np.where(shortest >= SOUND_MIN_LENGTH, (4 * longest) // 10, 0)
        edits = process.cdist(q_tokens, listed, scorer=OSA.distance, dtype=np.int64, workers=1)
        q_sound = np.fromiter(
            (vocabulary.sound_ids.get(phonetic_key(t), -2) for t in q_tokens), dtype=np.int64
        )[:, None]
        alike = (edits <= sound) & (q_sound == vocabulary.sound[tids][None, :])
        ask = (shortest >= MIN_FUZZY_LENGTH) & ((edits <= typo) | alike)
        q_first = np.fromiter((ord(t[0]) for t in q_tokens), dtype=np.int64)[:, None]
        l_first = vocabulary.first[tids][None, :]
        ask |= (shortest == 1) & (q_first == l_first)  # an initial
        q_folded = np.fromiter(
            (vocabulary.folded_ids.get(_folded(t), -1) for t in q_tokens), dtype=np.int64
        )[:, None]
        ask |= q_folded == vocabulary.folded[tids][None, :]  # equal, or y/i, sh/s
        # listed spellings (are_variants), and one edit from one of them (from 5 letters:
        # _variant_with_typo)
        l_variant = vocabulary.variant[tids]
        long_enough = shortest >= SOUND_MIN_LENGTH
        for i, token in enumerate(q_tokens):
            spellings = variants_of(token)
            if spellings:
                found = [f for f in (table.find(v) for v in spellings) if f is not None]
                if found:
                    ask[i] |= np.isin(tids, found)
                near = process.cdist(
                    spellings, listed, scorer=OSA.distance, dtype=np.int64, workers=1
                )
                ask[i] |= long_enough[i] & (near.min(axis=0) <= 1)
            mine = _with_deletions(token)
            for j in np.flatnonzero(l_variant & long_enough[i] & ~ask[i]).tolist():
                if not mine.isdisjoint(vocabulary.near_variants(int(tids[j]))):
                    ask[i, j] = True
        # a Yoruba short form: the longer is the shorter after Olu-, Oluwa- or Ola-
        for i, token in enumerate(q_tokens):
            forms = {p + token for p in YORUBA_PREFIXES}
            forms.update(token[len(p) :] for p in YORUBA_PREFIXES if token.startswith(p))
            forms_ids = [f for f in (table.find(form) for form in forms) if f is not None]
            if forms_ids:
                ask[i] |= np.isin(tids, forms_ids)
        credits = np.zeros((len(q_tokens), len(tids)), dtype=np.float64)
        for i, j in zip(*np.nonzero(ask), strict=True):
            credits[i, j] = _credit(self._similarity(q_tokens[i], listed[j]))
        # a short part one slip from another, in context (similarity._in_context): 1
        q_alpha = np.fromiter((t.isalpha() for t in q_tokens), dtype=bool)[:, None]
        l_alpha = vocabulary.alpha[tids][None, :]
        slip = (
            q_alpha
            & l_alpha
            & (q_len >= 2)
            & (q_len <= 4)
            & (l_len >= 2)
            & (l_len <= 4)
            & (shortest <= 3)
            & (np.abs(q_len - l_len) <= 1)
            & (edits <= 1)
        )
        credits[slip] = 1.0
        return credits

    def _query_merges(
        self,
        table: NameTable,
        vocabulary: _Vocabulary,
        query: NormalizedName,
        tids: IntArray,
        credits: FloatArray,
    ) -> None:
        """Two or three query tokens written together that may pair with a list token
        (_merge_adjacent): each of them credited in full against it."""
        tokens = table.tokens
        first = vocabulary.first[tids]
        length = vocabulary.length[tids]
        q_tokens = query.tokens
        for start, size in _spans(q_tokens):
            joined = "".join(q_tokens[start : start + size])
            near = (first == ord(joined[0])) & (np.abs(length - len(joined)) <= _MERGE_SLACK)
            for j in np.flatnonzero(near).tolist():
                if self._similarity(joined, tokens[int(tids[j])]) >= MERGE_MIN_SIMILARITY:
                    credits[start : start + size, j] = 1.0

    def _list_merges(
        self,
        table: NameTable,
        names: _Names,
        query: NormalizedName,
        nids: IntArray,
        offsets: IntArray,
        slot_credits: FloatArray,
    ) -> None:
        """Name by name: a moved boundary (_moved_boundary: two adjacent tokens on each side
        written together alike) and two or three list tokens written together that may pair
        with a query token (_merge_adjacent): those tokens credited in full."""
        q_tokens = query.tokens
        place: dict[int, int] | None = None
        for k, (a, b) in enumerate(itertools.pairwise(q_tokens)):
            pair_names, pair_at = names.pairs(a + b)
            if not pair_names:
                continue
            if place is None:
                place = {n: name for name, n in enumerate(nids.tolist())}
            for n, m in zip(pair_names, pair_at, strict=True):
                name = place.get(n)
                if name is not None:
                    slot = int(offsets[name]) + m
                    slot_credits[k, slot] = slot_credits[k + 1, slot + 1] = 1.0
        rows, _, owner = _rows(names.span_starts, nids)
        if not len(rows):
            return
        span_first = names.span_first[rows]
        span_length = names.span_length[rows]
        for i, token in enumerate(q_tokens):
            near = (span_first == ord(token[0])) & (
                np.abs(span_length - len(token)) <= _MERGE_SLACK
            )
            for k in np.flatnonzero(near).tolist():
                row = int(rows[k])
                at, size = int(names.span_at[row]), int(names.span_size[row])
                lo = int(table.starts[int(nids[owner[k]])]) + at
                text = "".join(table.tokens[t] for t in table.ids[lo : lo + size].tolist())
                if self._similarity(text, token) >= MERGE_MIN_SIMILARITY:
                    slot = int(offsets[owner[k]]) + at
                    slot_credits[i, slot : slot + size] = 1.0

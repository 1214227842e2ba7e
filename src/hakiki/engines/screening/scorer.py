"""Explainable scoring of one query against one list entity.

The name decides; the other features move the score a little and say why:

* ``name``: ``0.8 * list-name coverage + 0.2 * query coverage`` (weighted, see
  :mod:`.normalize`), so extra given or clan names on the customer side cost little while list
  name parts the customer lacks cost a lot (a missing middle part costs about a third).
  Then: at most 0.65 when only one name part matched but either side has more; -0.10 when
  the matched parts are in a different order (a swapped first and last name is never an exact
  match), -0.25 instead when a part moved across "bin" (the given and the father's name
  swapped); -0.20 for different specific legal forms (AG / GmbH); a cap for common names
  (below; a near spelling counts as common as the commoner of its two spellings; compare
  mode reports common names without capping); -0.05 for a weak alias.
* ``birth_date``: +0.05 same date, +0.02 same year where one side gives only the year, 0 for
  day and month swapped, -0.08 same year but another day or one year apart, -0.20 otherwise.
* ``country``: +0.02 when a country is shared, -0.05 when both sides have countries and none is
  shared.
* ``gender``: -0.10 when both sides give it and they differ.
* ``identifier``: an equal identifier value lifts the score to at least
  ``0.85 + 0.15 * name score``.

Every feature the query supplies appears in the explanation, with its score (0..1), its
effect on the total and a one-line reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from rapidfuzz.distance import OSA
from rapidfuzz.process import cdist

from hakiki.engines.screening.frequency import COMMON, measured_rarity, rarity
from hakiki.engines.screening.model import ListEntity, NameKind
from hakiki.engines.screening.normalize import (
    HONORIFICS,
    ORG_TYPE_WEIGHT,
    SUBSTANTIVE,
    NormalizedName,
)
from hakiki.engines.screening.similarity import (
    BOUNDARY_SIMILARITY,
    GIVEN_SHORT_SIMILARITY,
    INITIAL_SIMILARITY,
    INNER_TWO_EDITS_MIN_LENGTH,
    MERGE_MIN_SIMILARITY,
    MIN_FUZZY_LENGTH,
    SOUND_MIN_LENGTH,
    TYPO_SOFTENING,
    VARIANT_SIMILARITY,
    YORUBA_PREFIXES,
    Alignment,
    TokenMatch,
    align,
    given_short_form,
    is_reordered,
    match_tokens,
    swaps_father,
    token_similarity,
)
from hakiki.engines.screening.variants import VARIANT_TOKENS, is_theophoric

LIST_COVERAGE_WEIGHT = 0.8
INNER_MISSING_WEIGHT = 0.3
EDGE_MISSING_WEIGHT = 1.0
INITIAL_CREDIT = 0.8
CONFLICT_PENALTY = 0.1
LEGAL_FORM_CONFLICT = 0.2  # both names give a legal form and they differ (AG / GmbH)
GENERIC_LEGAL_FORMS = frozenset({"co", "corp", "inc"})
# Common-name cap on the name score, by the joint evidence of the matched list-name parts (the
# sum of their rarity, see .frequency; a shared honorific such as "Haji" adds its rarity, at
# most COMMON): two very common parts ("Mohamed Ali", 0.5) cap at 0.735, a common and a very
# common one ("Abubakar Ibrahim", 0.75) at 0.7975, so neither hits on the name alone but both
# do with a matching date of birth and country (+0.07); one ordinary part (1.0), or two very
# common parts and a shared "Haji" ("Abdalla Haji Ali"), leave the score alone.
COMMON_CAP_POINTS = ((0.0, 0.61), (0.75, 0.7975), (1.0, 1.0))
SINGLE_PART_CAP = 0.65
REORDER_PENALTY = 0.10
# Reordered parts of which at most one is common ("GEMADE Barnabas Andyar", "ADAMU Aisha"):
# records write the surname first, so the order says little; never 0 (nomenklatura#247: a
# reversed name is never the same name).
RARE_REORDER_PENALTY = 0.03
RECOGNISABLE_SIMILARITY = 0.9  # one edit in eight letters or more, a variant, or exact
# Parts present on one side only, when two or more parts agree in full with this much joint
# rarity (a rare part and a common one): an omission (a middle, clan or second surname one
# record leaves out), charged like a missing middle part wherever it stands. On the list side
# only: a customer's extra surname against a shorter list name is evidence against; compare
# mode (score_names_symmetric) charges both records alike.
OMISSION_EVIDENCE = 1.25
# "Salman bin Muhammad" is the son of a Muhammad, "Muhammad bin Salman" the son of a Salman.
FATHER_SWAP_PENALTY = 0.25
# Compare mode, one name part shared and other parts on both sides ("Bassey Albert" /
# "BASSEY AKPAN", a married name, a different second name): the name cannot tell one person
# from two, so it says "possible" just under the threshold and the date of birth decides (a
# same date, +0.05, makes the match; a different one, -0.20, excludes it).
ONE_SHARED_POSSIBLE = 0.76
WEAK_ALIAS_PENALTY = 0.05
# Screening: when every matched name part is only a near spelling (no part exact or a listed
# spelling: "Jonah Jang" / "Jonha LANG"), two slips are a coincidence the 40,000 listed names
# make likely; the name alone stays under the threshold, a date of birth or country decides.
ALL_NEAR_CAP = 0.79

DOB_SAME_DATE = 0.05
DOB_SAME_YEAR = 0.02
DOB_NEAR = -0.08
DOB_MISMATCH = -0.20
COUNTRY_MATCH = 0.02
COUNTRY_MISMATCH = -0.05
GENDER_MISMATCH = -0.10
IDENTIFIER_FLOOR = 0.85

Explanation = dict[str, dict[str, Any]]


class NameScore:
    """A name score; the alignment and the reason are built on demand (most candidates never
    need them)."""

    __slots__ = ("_alignment", "_listed", "_query", "notes", "score")

    def __init__(
        self,
        score: float,
        query: NormalizedName,
        listed: NormalizedName,
        notes: tuple[str, ...] = (),
    ) -> None:
        self.score = score
        self.notes = notes
        self._query = query
        self._listed = listed
        self._alignment: Alignment | None = None

    @property
    def alignment(self) -> Alignment:
        if self._alignment is None:
            self._alignment = align(self._query, self._listed)
        return self._alignment

    @property
    def reason(self) -> str:
        """One line a reviewer can read."""
        return _name_reason(self.alignment, self.notes)


def score_name(
    query: NormalizedName, listed: NormalizedName, kind: NameKind, *, search: bool = True
) -> NameScore:
    """Score a query name against one list name (0..1) with a short reason.

    ``search=False`` (compare mode: two records the caller already links, not one query among
    every listed name) reports common names without capping the score; the cap guards a
    search against the coincidences a population of list names makes likely.
    """
    matches, q_scores, l_scores = match_tokens(query, listed)
    l_tokens, l_weights = listed.tokens, listed.weights
    pair_rarity = _pair_rarity(matches)
    substantive_list = [k for k, w in enumerate(l_weights) if w >= SUBSTANTIVE]
    near_only = True
    full = initials = 0
    evidence = 0.0
    for k, (token, weight, sim) in enumerate(zip(l_tokens, l_weights, l_scores, strict=True)):
        if sim == 0.0:
            continue
        if weight < SUBSTANTIVE:
            if token in HONORIFICS and sim > INITIAL_SIMILARITY:
                evidence += min(pair_rarity.get(k, 1.0), COMMON) * sim
            continue
        if sim > INITIAL_SIMILARITY:
            full += 1
            evidence += pair_rarity.get(k, 1.0) * sim
            near_only = near_only and sim < VARIANT_SIMILARITY
        elif not _middle_initial_for_surname(k, substantive_list, matches, query, q_scores):
            initials += 1
    if full == 0:
        return NameScore(0.0, query, listed, ("no name part matched",))
    substantive = [k for k, w in enumerate(l_weights) if w >= SUBSTANTIVE]
    first, last = substantive[0], substantive[-1]
    unmatched_query = sum(
        1 for w, sim in zip(query.weights, q_scores, strict=True) if w >= SUBSTANTIVE and sim == 0.0
    )
    unmatched_list = [k for k in substantive if l_scores[k] == 0.0]
    conflicts = min(unmatched_query, len(unmatched_list))
    # Compare mode: the given name and the surname agree and only middle parts differ (a
    # baptismal, clan or father's name one record gives and the other gives another): the
    # middle parts are omissions, not a changed identity.
    middle_only = (
        not search
        and conflicts > 0
        and l_scores[first] > INITIAL_SIMILARITY
        and l_scores[last] > INITIAL_SIMILARITY
        and _ends_matched(query, q_scores)
    )
    if middle_only:
        conflicts = 0
    # Compare mode reports common names instead of capping them (below), and counts two
    # agreeing parts as the evidence an omission needs whatever their frequency.
    omission = full >= 2 and conflicts == 0 and (evidence >= OMISSION_EVIDENCE or not search)
    # The query contradicts these list parts rather than leaving them out: no middle-name
    # discount for them (inner ones first, as those would otherwise get it).
    inner_first = sorted(unmatched_list, key=lambda k: not first < k < last)
    contradicted = frozenset(inner_first[:conflicts])
    l_total = l_matched = 0.0
    for k, (weight, sim) in enumerate(zip(l_weights, l_scores, strict=True)):
        if sim > 0.0:
            credit = INITIAL_CREDIT if sim <= INITIAL_SIMILARITY else sim
            l_total += weight
            l_matched += weight * credit
        elif (first < k < last or omission) and k not in contradicted:
            l_total += weight * INNER_MISSING_WEIGHT
        else:
            l_total += weight * EDGE_MISSING_WEIGHT
    q_total = q_matched = 0.0
    for weight, sim in zip(query.weights, q_scores, strict=True):
        q_total += weight
        q_matched += weight * (INITIAL_CREDIT if 0.0 < sim <= INITIAL_SIMILARITY else sim)
    list_coverage = l_matched / l_total if l_total else 0.0
    query_coverage = q_matched / q_total if q_total else 0.0
    score = LIST_COVERAGE_WEIGHT * list_coverage + (1.0 - LIST_COVERAGE_WEIGHT) * query_coverage
    notes: list[str] = []
    if query.removed or listed.removed:
        notes.append("titles removed: " + ", ".join(query.removed + listed.removed))
    if middle_only:
        notes.append(
            "given name and surname agree; middle names differ (omitted, not contradicted)"
        )
    elif omission and (unmatched_query or unmatched_list):
        notes.append("a name part on one side only (omitted, not contradicted)")
    if conflicts:
        score -= CONFLICT_PENALTY * conflicts
        notes.append("a name part differs" if conflicts == 1 else f"{conflicts} name parts differ")
    q_forms = _legal_forms(query)
    if q_forms:
        l_forms = _legal_forms(listed)
        if l_forms and q_forms.isdisjoint(l_forms):
            score -= LEGAL_FORM_CONFLICT
            notes.append("different legal forms")
    compounds = _compound_names(listed, l_scores)
    if (
        full + initials - compounds < 2
        and (len(substantive) - compounds >= 2 or unmatched_query >= 1)
        and score > SINGLE_PART_CAP
    ):
        score = SINGLE_PART_CAP
        notes.append(
            "only one name part matched"
            if not compounds
            else "only one name matched ('Abdul X' is one name)"
        )
    if search and near_only and full >= 2 and score > ALL_NEAR_CAP:
        score = ALL_NEAR_CAP
        notes.append("every matched part is a near spelling")
    cap = _common_name_cap(evidence)
    if score > cap:
        if search:
            score = cap
            notes.append("matched name parts are common names")
        else:
            notes.append("matched name parts are common names (not capped: two records compared)")
    if swaps_father(matches, query, listed):
        score -= FATHER_SWAP_PENALTY
        notes.append("given name and father's name swapped")
    elif is_reordered(matches, listed):
        moved = [
            m
            for m in matches
            if m.score > INITIAL_SIMILARITY and l_weights[m.list_index] >= SUBSTANTIVE
        ]
        common = sum(1 for m in moved if pair_rarity.get(m.list_index, 1.0) <= COMMON)
        # A surname written first is recognisable only when its parts are: one slip in a long
        # name (Byandaala / Byandala) still is, a near-spelling of a short one is another name
        # (Abeid / Abid), and moved as well it compounds two doubts.
        if common >= 2 or any(m.score < RECOGNISABLE_SIMILARITY for m in moved):
            score -= REORDER_PENALTY
            notes.append("name parts in a different order")
        else:
            score -= RARE_REORDER_PENALTY
            notes.append("name parts in a different order (surname written first; rare parts)")
    if kind == "weak_alias":
        score -= WEAK_ALIAS_PENALTY
        notes.append("weak alias")
    score = min(max(score, 0.0), 1.0)
    return NameScore(score, query, listed, tuple(notes))


class NameBound:
    """A cheap upper bound on :func:`score_name` of one query against any list name, so the
    engine skips the full score for a candidate that cannot reach the threshold.

    It never underestimates (``tests/engines/screening/test_name_bound.py`` compares it with
    the score on every pair of the evaluation sets): each list part is credited with the best
    similarity any of :func:`~.similarity.match_tokens`'s ways of matching could give it (a
    token pair, parts written together on either side, a moved part boundary, a short-part
    slip or a given name written short in context), every part no way can match is charged
    as little as :func:`score_name` ever charges it, and of the penalties and caps only those
    that are certain count: no list part matched in full (0), the conflicts between parts
    no way can match on either side, one part at most (:data:`SINGLE_PART_CAP`) and the
    common-name cap of the most evidence the parts that can match could give. Most candidates
    a large list proposes share one common part with the query and fall under the threshold
    here, at a fraction of the full score's cost.
    Similarities are kept per list token for the query's lifetime (candidates share tokens).
    """

    __slots__ = (
        "_by_letter",
        "_first",
        "_joins",
        "_lengths",
        "_memo",
        "_span_letters",
        "_spans",
        "_special",
        "_tokens",
        "_total",
        "_weights",
        "_with_y",
    )

    def __init__(self, query: NormalizedName) -> None:
        tokens = query.tokens
        self._tokens = tokens
        self._weights = query.weights
        self._total = sum(query.weights)
        self._first = next((k for k, w in enumerate(query.weights) if w >= SUBSTANTIVE), None)
        self._lengths = np.array([len(t) for t in tokens], dtype=np.int32)
        self._special = np.array([_special_token(t) for t in tokens], dtype=bool)
        self._with_y = np.array(["y" in t for t in tokens], dtype=bool)
        # the query's parts written together (see similarity._merge_adjacent), with their bits
        self._spans = [
            ("".join(tokens[k : k + span]), ((1 << span) - 1) << k)
            for span in (3, 2)
            for k in range(len(tokens) - span + 1)
        ]
        self._span_letters = frozenset(joined[0] for joined, _ in self._spans)
        # two adjacent parts written together (a moved boundary keeps the join)
        self._joins: dict[str, int] = {}
        for k in range(len(tokens) - 1):
            join = tokens[k] + tokens[k + 1]
            self._joins[join] = self._joins.get(join, 0) | (0b11 << k)
        self._memo: dict[str, tuple[float, int, float]] = {}
        self._by_letter: dict[str, list[tuple[int, str]]] = {}
        for i, token in enumerate(tokens):
            self._by_letter.setdefault(token[0], []).append((i, token))

    def prime(self, listed: Iterable[str]) -> None:
        """Work out the list tokens ``listed`` at once: the edit distances of every query
        part to every new token in one C call, and :func:`~.similarity.token_similarity` only
        for the pairs whose distance, length or spelling leaves it a chance."""
        memo = self._memo
        new = [t for t in dict.fromkeys(listed) if t not in memo]
        if not new:
            return
        tokens = self._tokens
        distance = cdist(tokens, new, scorer=OSA.distance, dtype=np.int32, workers=1)
        lengths = np.array([len(t) for t in new], dtype=np.int32)
        longest = np.maximum.outer(self._lengths, lengths)
        shortest = np.minimum.outer(self._lengths, lengths)
        # token_similarity is 0 unless: equal; a listed variant (or one edit from one); an
        # initial; y for i or sh for s; a Yoruba short form; or, both parts 4+ letters,
        # within the edits a typo or "sounds alike" allows: a superset of those
        typo = np.where(shortest >= INNER_TWO_EDITS_MIN_LENGTH, 2, 1)
        sound = np.where(shortest >= SOUND_MIN_LENGTH, (4 * longest) // 10, 0)
        limit = np.maximum(typo, sound)
        chance = (distance == 0) | ((shortest >= MIN_FUZZY_LENGTH) & (distance <= limit))
        same_length = self._lengths[:, None] == lengths[None, :]
        with_y = np.array(["y" in t for t in new], dtype=bool)
        chance |= same_length & (self._with_y[:, None] | with_y[None, :])
        special = np.array([_special_token(t) for t in new], dtype=bool)
        chance |= self._special[:, None] | special[None, :]
        best = [0.0] * len(new)
        bits = [0] * len(new)
        for i, j in zip(*np.nonzero(chance), strict=True):
            score, _ = token_similarity(tokens[i], new[j])
            if score > 0.0:
                bits[j] |= 1 << int(i)
                best[j] = max(best[j], score)
        first = self._first
        first_letter = tokens[first][0] if first is not None else ""
        span_letters = self._span_letters
        for j, token in enumerate(new):
            found, found_bits = best[j], bits[j]
            if token[0] in span_letters:
                for joined, span_bits in self._spans:
                    if joined[0] == token[0] and abs(len(token) - len(joined)) <= 2:
                        score, _ = token_similarity(joined, token)
                        if score >= MERGE_MIN_SIMILARITY:
                            found_bits |= span_bits
                            found = max(found, score)
            size = len(token)
            if 2 <= size <= 4 and token.isalpha():  # a slip in a short part (in context)
                for i, part in enumerate(tokens):
                    if (
                        2 <= len(part) <= 4
                        and abs(len(part) - size) <= 1
                        and OSA.distance(part, token, score_cutoff=1) <= 1
                    ):
                        found_bits |= 1 << i
                        found = max(found, 1.0 - 1.0 / (min(len(part), size) + TYPO_SOFTENING))
            if (
                first is not None
                and token[0] == first_letter
                and given_short_form(tokens[first], token)
            ):
                found_bits |= 1 << first
                found = max(found, GIVEN_SHORT_SIMILARITY)
            # the most a match of this token adds to the common-name evidence (score_name's
            # _pair_rarity is the lower of both spellings' rarity, at most this one's)
            memo[token] = (found, found_bits, rarity(token) if found > INITIAL_SIMILARITY else 0.0)

    def of(self, listed: NormalizedName, kind: NameKind) -> float:
        """At least ``score_name(query, listed, kind).score``."""
        l_tokens, l_weights = listed.tokens, listed.weights
        size = len(l_tokens)
        memo = self._memo
        best = [0.0] * size
        rare = [1.0] * size
        bits = 0
        for k, token in enumerate(l_tokens):
            found = memo.get(token)
            if found is None:
                self.prime((token,))
                found = memo[token]
            best[k], token_bits, rare[k] = found
            bits |= token_bits
        if size > 1:
            by_letter = self._by_letter
            for span in (3, 2):  # list parts written together against a query part
                for k in range(size - span + 1):
                    parts = by_letter.get(l_tokens[k][0])
                    if parts is None:
                        continue
                    joined = "".join(l_tokens[k : k + span])
                    for i, token in parts:
                        if abs(len(token) - len(joined)) > 2:
                            continue
                        score, _ = token_similarity(joined, token)
                        if score >= MERGE_MIN_SIMILARITY:
                            bits |= 1 << i
                            for n in range(k, k + span):
                                rare[n] = 1.0  # score_name counts these parts' rarity 1.0
                                if best[n] < score:
                                    best[n] = score
            joins = self._joins
            for k in range(size - 1):  # a part boundary moved by one letter
                join_bits = joins.get(l_tokens[k] + l_tokens[k + 1])
                if join_bits is not None:
                    bits |= join_bits
                    best[k] = max(best[k], BOUNDARY_SIMILARITY)
                    best[k + 1] = max(best[k + 1], BOUNDARY_SIMILARITY)
                    rare[k] = rare[k + 1] = 1.0
        full = reached = substantive_count = 0
        first = last = -1
        evidence = 0.0
        for k, weight in enumerate(l_weights):
            if weight >= SUBSTANTIVE:
                if first < 0:
                    first = k
                last = k
                substantive_count += 1
                if best[k] > 0.0:
                    reached += 1
                    if best[k] > INITIAL_SIMILARITY:
                        full += 1
                        evidence += rare[k] * best[k]
            elif best[k] > INITIAL_SIMILARITY and l_tokens[k] in HONORIFICS:
                evidence += COMMON * best[k]
        if full == 0:
            return 0.0  # score_name: "no name part matched"
        q_matched = 0.0
        unmatched_query = 0  # substantive query parts no list part can match
        for i, weight in enumerate(self._weights):
            if bits >> i & 1:
                q_matched += weight
            elif weight >= SUBSTANTIVE:
                unmatched_query += 1
        # list parts no query part can match: at least this many conflicts (score_name's
        # min(unmatched query parts, unmatched list parts)), and then no omission
        conflicts = min(unmatched_query, substantive_count - reached)
        omission = full >= 2 and conflicts == 0
        matched = missing = 0.0
        for k, weight in enumerate(l_weights):
            if best[k] > 0.0:
                matched += weight * (best[k] if best[k] > INITIAL_CREDIT else INITIAL_CREDIT)
            elif omission or first < k < last:
                missing += weight * INNER_MISSING_WEIGHT
            else:
                missing += weight * EDGE_MISSING_WEIGHT
        bound = (
            LIST_COVERAGE_WEIGHT * matched / (matched + missing)
            + (1.0 - LIST_COVERAGE_WEIGHT) * (q_matched / self._total if self._total else 0.0)
            - CONFLICT_PENALTY * conflicts
        )
        if reached <= 1 and bound > SINGLE_PART_CAP:
            compounds = sum(
                1
                for k in range(size - 1)
                if best[k] > INITIAL_SIMILARITY
                and best[k + 1] > INITIAL_SIMILARITY
                and is_theophoric(l_tokens[k], l_tokens[k + 1])
            )
            if substantive_count - compounds >= 2 or unmatched_query:
                bound = SINGLE_PART_CAP
        bound = min(bound, _common_name_cap(evidence))
        if kind == "weak_alias":
            bound -= WEAK_ALIAS_PENALTY
        return min(max(bound, 0.0), 1.0)


def _special_token(token: str) -> bool:
    """Tokens :meth:`NameBound.prime` always checks in full: listed variants, initials,
    Yoruba-prefixed names and spellings with "sh"."""
    return (
        len(token) == 1
        or token in VARIANT_TOKENS
        or "sh" in token
        or token.startswith(YORUBA_PREFIXES)
    )


def score_names_symmetric(a: NormalizedName, b: NormalizedName, kind: NameKind) -> NameScore:
    """Compare mode (two records, neither is "the list"): the mean of both directions, so
    ``score(a, b) == score(b, a)`` and a part only one record has costs the same on either
    side; common names are reported, not capped (see :func:`score_name`). The reason is read
    from ``a`` to ``b``, with the notes of both directions."""
    ab = score_name(a, b, kind, search=False)
    ba = score_name(b, a, kind, search=False)
    notes = ab.notes + tuple(n for n in ba.notes if n not in ab.notes)
    score = (ab.score + ba.score) / 2
    if score < ONE_SHARED_POSSIBLE and _one_part_shared(a, b):
        score = ONE_SHARED_POSSIBLE
        notes += ("one name part shared, other parts on both sides: a date of birth decides",)
    return NameScore(score, a, b, notes)


def _ends_matched(name: NormalizedName, scores: list[float]) -> bool:
    """The first and the last substantive parts of ``name`` are matched in full."""
    ends = [k for k, w in enumerate(name.weights) if w >= SUBSTANTIVE]
    return (
        bool(ends)
        and scores[ends[0]] > INITIAL_SIMILARITY
        and scores[ends[-1]] > INITIAL_SIMILARITY
    )


def _one_part_shared(a: NormalizedName, b: NormalizedName) -> bool:
    """Exactly one substantive part matched in full, nothing else matched, and each name has
    a substantive part of its own."""
    matches, a_scores, b_scores = match_tokens(a, b)
    full = [
        m
        for m in matches
        if m.score > INITIAL_SIMILARITY and b.weights[m.list_index] >= SUBSTANTIVE
    ]
    if len(full) != 1 or any(0.0 < sc <= INITIAL_SIMILARITY for sc in a_scores):
        return False
    own_a = any(w >= SUBSTANTIVE and sc == 0.0 for w, sc in zip(a.weights, a_scores, strict=True))
    own_b = any(w >= SUBSTANTIVE and sc == 0.0 for w, sc in zip(b.weights, b_scores, strict=True))
    return own_a and own_b


def _middle_initial_for_surname(
    k: int,
    substantive: list[int],
    matches: list[TokenMatch],
    query: NormalizedName,
    q_scores: list[float],
) -> bool:
    """True when list part ``k``, the surname (last part), is matched only by a query initial
    written before a query surname the list does not have ("Alex M. Mwiru" against "Alex
    MIJALKOV"): a middle initial, not the list's surname."""
    if not substantive or k != substantive[-1]:
        return False
    q_index = next((m.query_index for m in matches if m.list_index == k), None)
    if q_index is None:
        return False
    q_last = max((i for i, w in enumerate(query.weights) if w >= SUBSTANTIVE), default=-1)
    return q_index < q_last and q_scores[q_last] == 0.0


def _compound_names(listed: NormalizedName, l_scores: list[float]) -> int:
    """How many matched theophoric names ("Abdul Jabar", see :func:`.variants.is_theophoric`)
    the list name writes as two parts."""
    tokens = listed.tokens
    return sum(
        1
        for k in range(len(tokens) - 1)
        if l_scores[k] > INITIAL_SIMILARITY
        and l_scores[k + 1] > INITIAL_SIMILARITY
        and is_theophoric(tokens[k], tokens[k + 1])
    )


def _pair_rarity(matches: Iterable[TokenMatch]) -> dict[int, float]:
    """Rarity of each matched list part, as the commoner of its two spellings: a customer's
    "Omar" near a listed "Omarow" is the evidence of an "Omar" (the near neighbours of a common
    name are met often), not of the rare list spelling."""
    return {m.list_index: min(rarity(m.listed), measured_rarity(m.query)) for m in matches}


def _legal_forms(name: NormalizedName) -> set[str]:
    """The name's specific legal forms; "company", "corporation", "inc" name no particular
    form (translations use them for any), so they conflict with none."""
    return {
        t
        for t, w in zip(name.tokens, name.weights, strict=True)
        if w == ORG_TYPE_WEIGHT and t not in GENERIC_LEGAL_FORMS
    }


def _common_name_cap(evidence: float) -> float:
    points = COMMON_CAP_POINTS
    if evidence >= points[-1][0]:
        return 1.0
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if evidence <= x1:
            return y0 + (y1 - y0) * (evidence - x0) / (x1 - x0)
    return 1.0  # pragma: no cover


def _describe(match: TokenMatch) -> str:
    if match.how == "exact":
        return f"'{match.listed}' exact"
    return f"'{match.query}'~'{match.listed}' {match.how}"


def _name_reason(alignment: Alignment, notes: tuple[str, ...]) -> str:
    if alignment.matched_substantive == 0:
        return "no name part matched"
    matched = alignment.matches
    parts = [
        f"{alignment.matched_substantive} of {alignment.list_substantive} list-name parts matched"
    ]
    if matched:
        parts[0] += " (" + ", ".join(_describe(m) for m in matched) + ")"
    if alignment.unmatched_list:
        parts.append("missing from query: " + ", ".join(f"'{t}'" for t in alignment.unmatched_list))
    if alignment.unmatched_query:
        parts.append("extra in query: " + ", ".join(f"'{t}'" for t in alignment.unmatched_query))
    parts.extend(notes)
    return "; ".join(parts)


# --- dates --------------------------------------------------------------------------------


def _date_parts(value: str) -> tuple[int, int | None, int | None] | None:
    pieces = value.strip()[:10].split("-")
    try:
        year = int(pieces[0])
        month = int(pieces[1]) if len(pieces) > 1 and pieces[1] else None
        day = int(pieces[2]) if len(pieces) > 2 and pieces[2] else None
    except ValueError:
        return None
    if not 1000 <= year <= 2999:
        return None
    return year, month, day


def compare_birth_dates(query: str, listed: Sequence[str]) -> tuple[float, float, str]:
    """(score, effect, reason) for a query birth date against the list's birth dates."""
    q = _date_parts(query)
    if q is None:
        return 0.0, 0.0, f"query birth date {query!r} not understood"
    if not listed:
        return 0.0, 0.0, "list gives no date of birth"
    best: tuple[float, float, str] | None = None
    for value in listed:
        item = _date_parts(value)
        if item is None:
            continue
        result = _compare_date(q, item, query, value)
        if best is None or result[0] > best[0]:
            best = result
    if best is None:
        return 0.0, 0.0, "list dates of birth not understood"
    return best


def _compare_date(
    q: tuple[int, int | None, int | None],
    item: tuple[int, int | None, int | None],
    query: str,
    value: str,
) -> tuple[float, float, str]:
    qy, qm, qd = q
    ly, lm, ld = item
    if qy == ly:
        if qd is not None and ld is not None:
            if (qm, qd) == (lm, ld):
                return 1.0, DOB_SAME_DATE, f"same date {value}"
            if (qm, qd) == (ld, lm):
                return 0.7, 0.0, f"day and month swapped ({query} vs {value})"
            return 0.4, DOB_NEAR, f"same year, different day ({query} vs {value})"
        if qm is not None and lm is not None:
            if qm != lm:
                return 0.4, DOB_NEAR, f"same year, different month ({query} vs {value})"
            return 0.8, DOB_SAME_YEAR, f"same month {value[:7]} (one side gives no day)"
        return 0.8, DOB_SAME_YEAR, f"same year {ly} (one side gives only the year)"
    if abs(qy - ly) == 1:
        return 0.3, DOB_NEAR, f"one year apart ({query} vs {value})"
    return 0.0, DOB_MISMATCH, f"different date of birth ({query} vs {value})"


# --- other features -----------------------------------------------------------------------


def compare_countries(query: Iterable[str], listed: Sequence[str]) -> tuple[float, float, str]:
    wanted = set(query)
    if not listed:
        return 0.0, 0.0, "list gives no country"
    common = sorted(wanted.intersection(listed))
    if common:
        return 1.0, COUNTRY_MATCH, "country in common: " + ", ".join(common)
    return (
        0.0,
        COUNTRY_MISMATCH,
        f"no country in common (query {', '.join(sorted(wanted))}; list {', '.join(listed)})",
    )


def compare_gender(query: str, listed: str | None) -> tuple[float, float, str]:
    if listed is None:
        return 0.0, 0.0, "list gives no gender"
    if query == listed:
        return 1.0, 0.0, f"same gender ({listed})"
    return 0.0, GENDER_MISMATCH, f"different gender (query {query}, list {listed})"


def score_entity(
    name: NameScore,
    entity: ListEntity,
    *,
    birth_date: str | None = None,
    countries: Sequence[str] = (),
    gender: str | None = None,
    identifier_matches: Sequence[tuple[str, str]] = (),
) -> tuple[float, Explanation]:
    """Final score (0..1) and explanation of a query against one entity.

    ``identifier_matches`` are the entity's (type, value) identifiers equal to a query value.
    """
    explanation: Explanation = {
        "name": {"score": round(name.score, 4), "reason": name.reason},
    }
    total = name.score
    features: list[tuple[str, tuple[float, float, str]]] = []
    if birth_date:
        features.append(("birth_date", compare_birth_dates(birth_date, entity.birth_dates)))
    if countries:
        features.append(("country", compare_countries(countries, entity.countries)))
    if gender:
        features.append(("gender", compare_gender(gender, entity.gender)))
    for key, (score, effect, reason) in features:
        total += effect
        explanation[key] = {"score": round(score, 4), "effect": effect, "reason": reason}
    total = min(max(total, 0.0), 1.0)
    if identifier_matches:
        id_type, value = identifier_matches[0]
        floor = IDENTIFIER_FLOOR + (1.0 - IDENTIFIER_FLOOR) * name.score
        effect = max(0.0, floor - total)
        total = max(total, floor)
        explanation["identifier"] = {
            "score": 1.0,
            "effect": round(effect, 4),
            "reason": f"same {id_type.replace('_', ' ')} {value}",
        }
    return round(total, 4), explanation

"""Token similarity and token alignment between two normalised names.

Both the candidate index (to expand a query token to similar list tokens) and the scorer use
:func:`token_similarity`, so a token the index proposes is a token the scorer accepts.

Rules (deliberately few, each with a reason a reviewer can read):

* equal tokens: 1.0, "exact";
* listed spellings or short forms of one name (:mod:`.variants`, Mohamed / Muhammad,
  Olanrewaju / Lanre): 0.95, "variant";
* tokens of 4+ letters that differ only in "y" for "i" (one letter of Cyrillic and Arabic
  names, romanised either way: Volodymyr / Volodimir, Yusuf / Iusuf): 0.95, "transliteration";
* a Yoruba given name and its short form without the ``Olu-``/``Oluwa-``/``Ola-`` prefix
  (Olugbenga / Gbenga, Olufunke / Funke; four letters left at least): 0.9, "short form";
* a spelling one edit from a listed variant of the other (Mohamad against Muhammad's
  "Mohammad" with a letter dropped: Mohmmad): the variant's 0.95 less the typo's cost,
  "variant with a typo";
* tokens of 4+ letters equal once "sh" is written "s": Yoruba writes both with one letter,
  s with a dot below, which English spelling writes "s" (Ṣẹgun / Segun, Ṣoyinka) or "sh"
  (Jóṣúà / Joshua) and ASCII folding always "s": 0.95, "transliteration";
* an initial against a name starting with that letter: 0.6, "initial";
* tokens of 4+ letters within 1 edit (2 edits from 8 letters; a transposition is one edit):
  ``1 - edits / (shortest + 2)``, "typo"; two edits from 7 letters too when the first two
  letters and the last one agree (Iyorihyer / Iyorher: the edits are inside a long name);
* tokens of 5+ letters, same first letter, same metaphone key (a "kh" after the first letter
  read as "h") and edits within 40% of the longer token: at least 0.85, "sounds alike"
  (Mohamed / Muhammad, Mukhtar / Muhtar); two edits on a four-letter name make another name
  (Omar / Omarow, Said / Saade);
* anything else: 0.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA
from rigour.text import metaphone

from hakiki.engines.screening.frequency import measured_rarity
from hakiki.engines.screening.normalize import PATRONYMIC_LINKS, SUBSTANTIVE, NormalizedName
from hakiki.engines.screening.variants import (
    VARIANT_TOKENS as _VARIANT_TOKENS,
)
from hakiki.engines.screening.variants import are_variants, has_variants, variants_of

INITIAL_SIMILARITY = 0.6
SHORT_FORM_SIMILARITY = 0.9
# Yoruba given names built on Olu- ("God"), Oluwa- ("the Lord") and Ola- ("wealth, honour")
# are called by the rest of the name (Olugbenga / Gbenga, Oluwaseun / Seun, Olajumoke /
# Jumoke); longest prefix first.
YORUBA_PREFIXES = ("oluwa", "olu", "ola")
_YORUBA_SET = frozenset(YORUBA_PREFIXES)
_NO_MATCH = (0.0, "")
SHORT_FORM_MIN_LENGTH = 4
INNER_TWO_EDITS_MIN_LENGTH = 7
# A slip between two short spellings that are both names of their own needs this much joint
# rarity (see .frequency) in the other matched parts: one rare part, or two common ones.
SHORT_CONTEXT = 1.0
BOUNDARY_SIMILARITY = 0.95  # every letter agrees; one slip in the space
GIVEN_SHORT_SIMILARITY = 0.85
VARIANT_SIMILARITY = 0.95
# 6 gains 0.003 F1 on the name bench but lifts name-only false positives by a fifth: kept at 2.
TYPO_SOFTENING = 2
PHONETIC_SIMILARITY = 0.85
MIN_FUZZY_LENGTH = 4
SOUND_MIN_LENGTH = 5  # the shorter token, for "sounds alike"
MERGE_MIN_SIMILARITY = 0.8
# A list name part missing from the query between the first and the last part (a middle name)
# counts this much of its weight against the list-name coverage.
INNER_MISSING_WEIGHT = 0.35


def allowed_edits(shortest: int) -> int:
    if shortest < MIN_FUZZY_LENGTH:
        return 0
    return 1 if shortest < 8 else 2


@lru_cache(maxsize=65536)
def phonetic_key(token: str) -> str:
    """First letter plus metaphone: the key the index groups sound-alike tokens under.

    After the first letter, "kh" reads as "h": Arabic and Russian kh is written h in Swahili,
    Turkish and Romanian spellings (Mukhtar / Muhtar, Mikhail / Mihail, Mabukhut / Mabuhut).
    """
    if len(token) < MIN_FUZZY_LENGTH or not token.isalpha():
        return ""
    return token[0] + metaphone(token[0] + token[1:].replace("kh", "h"))


def y_as_i(token: str) -> str:
    """The token with every "y" written "i" (the key of the "transliteration" rule)."""
    return token.replace("y", "i")


def sh_as_s(token: str) -> str:
    """The token with "sh" written "s" (Yoruba's dotted s, see :func:`token_similarity`)."""
    return token.replace("sh", "s")


@lru_cache(maxsize=65536)
def token_similarity(a: str, b: str) -> tuple[float, str]:
    """Similarity in 0..1 of two normalised tokens and how they matched."""
    if a == b:
        return 1.0, "exact"
    if are_variants(a, b):
        return VARIANT_SIMILARITY, "variant"
    la, lb = len(a), len(b)
    if la >= MIN_FUZZY_LENGTH and lb >= MIN_FUZZY_LENGTH:
        if y_as_i(a) == y_as_i(b):
            return VARIANT_SIMILARITY, "transliteration"
        if ("sh" in a or "sh" in b) and sh_as_s(a) == sh_as_s(b):
            return VARIANT_SIMILARITY, "transliteration"
    if la == 1 or lb == 1:
        if a[0] == b[0] and a[0].isalpha():
            return INITIAL_SIMILARITY, "initial"
        return _NO_MATCH
    if (la > lb and a.endswith(b) and _yoruba_short_form(a, b)) or (
        lb > la and b.endswith(a) and _yoruba_short_form(b, a)
    ):
        return SHORT_FORM_SIMILARITY, "short form"
    shortest = la if la < lb else lb
    if shortest < MIN_FUZZY_LENGTH:
        return _NO_MATCH
    typo_limit = allowed_edits(shortest)
    if shortest >= INNER_TWO_EDITS_MIN_LENGTH and a[-1] == b[-1] and a[:2] == b[:2]:
        typo_limit = 2
    sound_limit = int(0.4 * max(la, lb)) if shortest >= SOUND_MIN_LENGTH else 0
    limit = max(typo_limit, sound_limit)
    edits = OSA.distance(a, b, score_cutoff=limit)
    if edits > limit:
        return (
            _variant_with_typo(a, b) if a in _VARIANT_TOKENS or b in _VARIANT_TOKENS else _NO_MATCH
        )
    score = 0.0
    how = ""
    if edits <= typo_limit:
        score, how = 1.0 - edits / (shortest + TYPO_SOFTENING), "typo"
    if score < PHONETIC_SIMILARITY and phonetic_key(a) and phonetic_key(a) == phonetic_key(b):
        score, how = PHONETIC_SIMILARITY, "sounds alike"
    if score == 0.0:
        return _variant_with_typo(a, b)
    return score, how


def _yoruba_short_form(full: str, short: str) -> bool:
    """``full`` is ``short`` after a Yoruba prefix (``full`` ends with ``short``)."""
    return len(short) >= SHORT_FORM_MIN_LENGTH and full[: len(full) - len(short)] in _YORUBA_SET


def _variant_with_typo(a: str, b: str) -> tuple[float, str]:
    """One edit from a listed variant of the other token (5+ letters): a slip on top of
    another spelling of the same name."""
    if min(len(a), len(b)) < SOUND_MIN_LENGTH or not (has_variants(a) or has_variants(b)):
        return _NO_MATCH
    for x, y in ((a, b), (b, a)):
        for variant in variants_of(y):
            if abs(len(variant) - len(x)) <= 1 and OSA.distance(x, variant, score_cutoff=1) <= 1:
                cost = 1.0 / (min(len(x), len(variant)) + TYPO_SOFTENING)
                return VARIANT_SIMILARITY - cost, "variant with a typo"
    return 0.0, ""


@dataclass(frozen=True, slots=True)
class TokenMatch:
    query: str
    listed: str
    score: float
    how: str
    query_index: int
    list_index: int


@dataclass(frozen=True, slots=True)
class Alignment:
    """How the tokens of a query name line up with the tokens of a list name."""

    matches: tuple[TokenMatch, ...]
    list_coverage: float  # weighted share of the list name's tokens matched (0..1); missing
    # middle parts count half
    query_coverage: float  # weighted share of the query's tokens matched (0..1)
    matched_substantive: int  # substantive list tokens matched
    list_substantive: int
    query_substantive: int
    unmatched_query: tuple[str, ...]
    unmatched_list: tuple[str, ...]
    reordered: bool
    query_scores: tuple[float, ...] = ()  # per query token: similarity of its match, or 0
    list_scores: tuple[float, ...] = ()  # per list token


def align(query: NormalizedName, listed: NormalizedName) -> Alignment:
    """Greedy best-first alignment; tokens may pair in any order, each token used once.

    Tokens left over on both sides are then tried as adjacent pairs (or triples) written
    together ("abdul rahman" against "abdulrahman").
    """
    matches, q_score, l_score = match_tokens(query, listed)
    return _summarise(query, listed, matches, q_score, l_score)


def is_reordered(matches: list[TokenMatch], listed: NormalizedName) -> bool:
    """True when the (non-initial) matched name parts come in another order on the two sides.

    Only substantive parts count: a legal form written first or last ("OOO Oboronnye" /
    "Oboronnye OOO") or a moved particle does not reorder a name.
    """
    weights = listed.weights
    ordered = sorted(
        (
            m
            for m in matches
            if m.score > INITIAL_SIMILARITY and weights[m.list_index] >= SUBSTANTIVE
        ),
        key=lambda m: m.query_index,
    )
    return any(a.list_index > b.list_index for a, b in itertools.pairwise(ordered))


def swaps_father(matches: list[TokenMatch], query: NormalizedName, listed: NormalizedName) -> bool:
    """True when a matched name part is before "bin" (or "ibn", "ould"...) on one side and after
    it on the other: the given name and the father's name swapped, so father and son."""
    q_link = _first_link(query)
    l_link = _first_link(listed)
    if l_link is not None:
        # The father-name reference read through the alignment: a slip in "bin" ("bim")
        # leaves the query's first exact link further on, which is no swap.
        aligned = next((m.query_index for m in matches if m.list_index == l_link), None)
        if aligned is not None and 0 < aligned < len(query.tokens) - 1:
            q_link = aligned
    if q_link is None or l_link is None:
        return False
    return any(
        (m.query_index < q_link) != (m.list_index < l_link)
        for m in matches
        if m.score > INITIAL_SIMILARITY and listed.weights[m.list_index] >= SUBSTANTIVE
    )


def _first_link(name: NormalizedName) -> int | None:
    """Position of the first "bin" with a name part on either side ("X bin Y"), if any."""
    k = next((k for k, t in enumerate(name.tokens) if t in PATRONYMIC_LINKS), None)
    return k if k is not None and 0 < k < len(name.tokens) - 1 else None


def match_tokens(
    query: NormalizedName, listed: NormalizedName
) -> tuple[list[TokenMatch], list[float], list[float]]:
    """The token matches of :func:`align` and each token's match score (0 when unmatched)."""
    q_tokens, l_tokens = query.tokens, listed.tokens
    q_weights, l_weights = query.weights, listed.weights
    q_score = [0.0] * len(q_tokens)
    l_score = [0.0] * len(l_tokens)
    q_used = [False] * len(q_tokens)
    l_used = [False] * len(l_tokens)
    matches: list[TokenMatch] = []
    if (
        len(q_tokens) > 1
        and len(l_tokens) > 1
        and not _adjacent_joins(q_tokens).isdisjoint(_adjacent_joins(l_tokens))
    ):
        _moved_boundary(query, listed, q_used, l_used, q_score, l_score, matches)
    pairs: list[tuple[float, float, int, int, int, str]] = []
    moved = bool(matches)
    for i, qt in enumerate(q_tokens):
        if moved and q_used[i]:
            continue
        for j, lt in enumerate(l_tokens):
            if moved and l_used[j]:
                continue
            score, how = token_similarity(qt, lt)
            if score > 0.0:
                pairs.append((score, min(q_weights[i], l_weights[j]), -abs(i - j), i, j, how))
    pairs.sort(reverse=True)
    for score, _, _, i, j, how in pairs:
        if q_used[i] or l_used[j]:
            continue
        q_used[i] = l_used[j] = True
        q_score[i] = l_score[j] = score
        matches.append(TokenMatch(q_tokens[i], l_tokens[j], score, how, i, j))
    if not all(q_used) and not all(l_used):
        _merge_adjacent(query, listed, q_used, l_used, q_score, l_score, matches)
    if not all(q_used) and not all(l_used):
        _in_context(query, listed, q_used, l_used, q_score, l_score, matches)
    return matches, q_score, l_score


def _pair(
    matches: list[TokenMatch],
    used: tuple[list[bool], list[bool]],
    scores: tuple[list[float], list[float]],
    match: TokenMatch,
) -> None:
    used[0][match.query_index] = used[1][match.list_index] = True
    scores[0][match.query_index] = scores[1][match.list_index] = match.score
    matches.append(match)


@lru_cache(maxsize=65536)
def _adjacent_joins(tokens: tuple[str, ...]) -> frozenset[str]:
    """Every two adjacent tokens written together (a moved boundary keeps the join)."""
    return frozenset(a + b for a, b in itertools.pairwise(tokens))


def _moved_boundary(
    query: NormalizedName,
    listed: NormalizedName,
    q_used: list[bool],
    l_used: list[bool],
    q_score: list[float],
    l_score: list[float],
    matches: list[TokenMatch],
) -> None:
    """Two adjacent parts on each side that are the same letters split one letter apart
    ("Abdu Lrahman" / "Abdul Rahman", "Ta Ehun" / "Tae Hun"): one slip in the space."""
    q, lt = query.tokens, listed.tokens
    for k in range(len(q) - 1):
        a = q[k]
        for m in range(len(lt) - 1):
            b = lt[m]
            # same letters from the start: the same first letter and one letter more or less
            if a[0] != b[0] or abs(len(a) - len(b)) != 1 or a + q[k + 1] != b + lt[m + 1]:
                continue
            if q_used[k] or q_used[k + 1] or l_used[m] or l_used[m + 1]:
                continue
            for i, j in ((k, m), (k + 1, m + 1)):
                match = TokenMatch(q[i], lt[j], BOUNDARY_SIMILARITY, "part boundary moved", i, j)
                _pair(matches, (q_used, l_used), (q_score, l_score), match)
            break


def _in_context(
    query: NormalizedName,
    listed: NormalizedName,
    q_used: list[bool],
    l_used: list[bool],
    q_score: list[float],
    l_score: list[float],
    matches: list[TokenMatch],
) -> None:
    """Matches only the rest of the name makes safe.

    * a one-letter slip in a part of two or three letters ("Kim Jong On" / "Kim Jong Un",
      "bim" / "bin", "Fazl Rab" / "Fazl Rabi") once another part matched in full (two for a
      two-letter part), beside a rare part or two common ones when both spellings are names
      of their own ("Ho" / "Heo"), and only between names written in Latin letters (a name
      written in Han or Hangul romanises by rule: one letter apart is another character):
      alone, two short words one edit apart are usually two names;
    * the given name written short ("Chris" / "Christopher", "Jonah" / "Jonathan": the
      shorter, four letters or more, is the start of the longer but for its last letter)
      when both are the first name part and two other parts matched (a compound given name,
      "Mohammadyasin" against "Mohammad", leaves fewer).
    """
    full = sum(1 for m in matches if m.score > INITIAL_SIMILARITY)
    if full == 0:
        return
    q, lt = query.tokens, listed.tokens
    short_form_context = full >= 2
    slips = (
        query.latin
        and listed.latin
        and any(not u and len(t) <= 4 for t, u in zip(q, q_used, strict=True))
        and any(not u and len(t) <= 4 for t, u in zip(lt, l_used, strict=True))
    )
    if not short_form_context and not slips:
        return
    q_first = _first_substantive(query)
    l_first = _first_substantive(listed)
    if (
        q_first is not None
        and l_first is not None
        and short_form_context
        and not q_used[q_first]
        and not l_used[l_first]
        and given_short_form(q[q_first], lt[l_first])
    ):
        match = TokenMatch(
            q[q_first], lt[l_first], GIVEN_SHORT_SIMILARITY, "short form", q_first, l_first
        )
        _pair(matches, (q_used, l_used), (q_score, l_score), match)
        full += 1
    if not slips:
        return
    context = sum(measured_rarity(m.listed) for m in matches if m.score > INITIAL_SIMILARITY)
    for i, a in enumerate(q):
        if q_used[i] or not 2 <= len(a) <= 4 or not a.isalpha():
            continue
        for j, b in enumerate(lt):
            if l_used[j] or not 2 <= len(b) <= 4 or not b.isalpha():
                continue
            shortest = min(len(a), len(b))
            if shortest > 3 or abs(len(a) - len(b)) > 1 or full < (2 if shortest == 2 else 1):
                continue
            if measured_rarity(a) < 1.0 and measured_rarity(b) < 1.0 and context < SHORT_CONTEXT:
                continue
            if OSA.distance(a, b, score_cutoff=1) <= 1:
                score = 1.0 - 1.0 / (min(len(a), len(b)) + TYPO_SOFTENING)
                match = TokenMatch(a, b, score, "typo (short part, in context)", i, j)
                _pair(matches, (q_used, l_used), (q_score, l_score), match)
                break


def _first_substantive(name: NormalizedName) -> int | None:
    return next((k for k, w in enumerate(name.weights) if w >= SUBSTANTIVE), None)


def given_short_form(a: str, b: str) -> bool:
    """The shorter of ``a`` and ``b`` is the given name the longer starts with (see
    :func:`_in_context`)."""
    short, full = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < SHORT_FORM_MIN_LENGTH or len(full) - len(short) < 2:
        return False
    return full.startswith(short) or (full.startswith(short[:-1]) and len(short) > 4)


def _merge_adjacent(
    query: NormalizedName,
    listed: NormalizedName,
    q_used: list[bool],
    l_used: list[bool],
    q_score: list[float],
    l_score: list[float],
    matches: list[TokenMatch],
) -> None:
    for side_tokens, side_used, side_score, other_tokens, other_used, other_score, is_query in (
        (query.tokens, q_used, q_score, listed.tokens, l_used, l_score, True),
        (listed.tokens, l_used, l_score, query.tokens, q_used, q_score, False),
    ):
        for span, k in [(s, k) for s in (3, 2) for k in range(len(side_tokens) - s + 1)]:
            if any(side_used[k : k + span]):
                continue
            joined = "".join(side_tokens[k : k + span])
            size = len(joined)
            for m, other in enumerate(other_tokens):
                # Written together, the first letter stays and the length barely changes.
                if other_used[m] or other[0] != joined[0] or abs(len(other) - size) > 2:
                    continue
                score, how = token_similarity(joined, other)
                if score < MERGE_MIN_SIMILARITY:
                    continue
                other_used[m] = True
                other_score[m] = score
                for n in range(k, k + span):
                    side_used[n] = True
                    side_score[n] = score
                written = " ".join(side_tokens[k : k + span])
                how = "written together" if how == "exact" else f"written together, {how}"
                if is_query:
                    matches.append(TokenMatch(written, other, score, how, k, m))
                else:
                    matches.append(TokenMatch(other, written, score, how, m, k))
                break


def _summarise(
    query: NormalizedName,
    listed: NormalizedName,
    matches: list[TokenMatch],
    q_score: list[float],
    l_score: list[float],
) -> Alignment:
    l_weights = listed.weights
    substantive = [k for k, w in enumerate(l_weights) if w >= SUBSTANTIVE]
    first, last = (substantive[0], substantive[-1]) if substantive else (0, -1)
    l_total = l_matched = 0.0
    matched_substantive = 0
    unmatched_list: list[str] = []
    for k, (token, weight, score) in enumerate(zip(listed.tokens, l_weights, l_score, strict=True)):
        if score > 0.0:
            l_total += weight
            l_matched += weight * score
            if weight >= SUBSTANTIVE and score > INITIAL_SIMILARITY:
                matched_substantive += 1
        elif first < k < last:
            l_total += weight * INNER_MISSING_WEIGHT
            if weight >= SUBSTANTIVE:
                unmatched_list.append(token)
        else:
            l_total += weight
            if weight >= SUBSTANTIVE:
                unmatched_list.append(token)
    q_total = q_matched = 0.0
    unmatched_query: list[str] = []
    for token, weight, score in zip(query.tokens, query.weights, q_score, strict=True):
        q_total += weight
        q_matched += weight * score
        if score == 0.0 and weight >= SUBSTANTIVE:
            unmatched_query.append(token)
    reordered = is_reordered(matches, listed)
    return Alignment(
        matches=tuple(sorted(matches, key=lambda m: m.list_index)),
        list_coverage=l_matched / l_total if l_total else 0.0,
        query_coverage=q_matched / q_total if q_total else 0.0,
        matched_substantive=matched_substantive,
        list_substantive=len(substantive),
        query_substantive=sum(1 for w in query.weights if w >= SUBSTANTIVE),
        unmatched_query=tuple(unmatched_query),
        unmatched_list=tuple(unmatched_list),
        reordered=reordered,
        query_scores=tuple(q_score),
        list_scores=tuple(l_score),
    )

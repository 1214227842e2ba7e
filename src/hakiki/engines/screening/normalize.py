"""Name normalisation shared by the index, the scorer and compare_names.

A name becomes a tuple of ASCII, casefolded tokens with a weight each:

* 1.0 for an ordinary name part;
* 0.5 for an initial (one letter) and for generic business words ("trading", "group");
* 0.3 for particles and honorifics ("al", "bin", "de", "haji");
* 0.1 for organisation legal forms ("ltd", "limited", "llc", "corp"), which rigour rewrites to a
  generic form first so "LIMITED" and "LTD" compare equal, spelled-out forms included
  ("Gesellschaft mit beschränkter Haftung", "Sp. z o.o."), and for vessel prefixes ("MV").

For organisations, number words become digits ("Forty-Four" and "44", "1st" and "First"), a few
abbreviations are spelled out ("Intl", "U.S.", "UK") and a legal form glued to the name is
split off ("SiemensAG"). For people, a name written "SURNAME, Given" is read as
"Given SURNAME".

Weights say how much a token counts as evidence; tokens of weight 0.5 and more are
"substantive". A name with no substantive token (only "CORP" or "LIMITED") can never match.
The per-token weight is the hook a later frequency model replaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from rigour._core import person_name_prefixes_list
from rigour.names import remove_person_prefixes, replace_org_types_compare
from rigour.names import tokenize_name as _rigour_tokenize
from rigour.text import ascii_text

from hakiki.engines.screening.variants import numbers_to_digits

ORG_TYPE_WEIGHT = 0.1
PARTICLE_WEIGHT = 0.3
WEAK_WEIGHT = 0.5
SUBSTANTIVE = 0.5


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Legal forms rigour does not rewrite on their own (it needs them in context), plus the
# generic compare forms it produces (llc, jsc, ...).
ORG_TYPES = _words(
    """corp corporation co company companies inc incorporated ltd limited llc plc sa sarl srl
    spa ag gmbh bv nv pte pvt private public jsc ojsc cjsc pjsc fze fzco fzc fzllc llp lp est
    establishment cooperative coop ltda sas sae saoc kg ohg oao zao ooo pao tov lda eirl jv
    soe ngo npo ano sp fin mil gp mv mt"""
)
GENERIC_BUSINESS_WORDS = _words(
    """group holding holdings trading trade traders international intl enterprise enterprises
    industries industry industrial services service general import export imports exports
    investment investments commercial global shipping logistics"""
)
# Honorifics are part of how a person is named: when both names carry one it is shared
# evidence (see the common-name cap in .scorer); particles only join the parts.
HONORIFICS = _words(
    """haji hajji alhaji alhaj hadji mullah mawlawi maulavi maulvi mawlavi sheikh shaykh shaikh
    sheik qari mufti"""
)
# Titles, ranks and honours records in the region write into a person's name (rigour removes
# the common English prefixes, "Mr", "Dr", "Hon", "Prof", but only in front). They are no name
# part: removed, and the explanation says so.
# Removed wherever they stand: words that are never a name part.
TITLES_ANYWHERE = _words(
    """dr prof engr rtd retd capt brig mheshimiwa mhe honourable honorable excellency"""
)
# Removed in front only, and only while two name parts remain: "Sen", "Gen", "Hon" and "Chief"
# are also names ("Amartya Sen").
TITLES_LEADING = TITLES_ANYWHERE | _words(
    """eng hon sen senator gen maj col lt cpl sgt gov amb rev chief sir dame mr mrs ms miss
    madam can cdr cmdr adm barr arc arch pst pastor bishop justice"""
)
# Nigerian national honours written after the name (GCFR, GCON, CFR, CON, OFR, OON, MFR, MON).
HONOURS_TRAILING = _words("gcfr gcon cfr con ofr oon mfr mon ffr")
# "son/daughter of": what follows is the father's name.
PATRONYMIC_LINKS = _words("ibn bin bint binti ben ould wuld walad")
PARTICLES = (
    HONORIFICS
    | PATRONYMIC_LINKS
    | _words(
        """al el ul ad ed as ash at az de da di du del della der den van von la le les los las
        dos das do y e the of and for in on et und"""
    )
)
# Spelled-out and short legal forms rigour leaves as they are.
_ORG_TYPE_SHORT = {"corporation": "corp", "incorporated": "inc", "company": "co", "companies": "co"}
# Abbreviations organisations write either way, spelled out.
_ORG_ABBREVIATIONS = {
    "intl": ("international",),
    "natl": ("national",),
    "us": ("united", "states"),
    "uk": ("united", "kingdom"),
}
_APOSTROPHES = re.compile(r"['`´ʹʻʼʽ‘’′]")
# Maa "ole" and Kalenjin "arap" ("son of") before the father's or clan name: a particle when
# not the first word (a Scandinavian "Ole" is a given name).
SON_OF_INSIDE = _words("ole arap")
# "Ben" is also an English given name: a link only after the first word ("Ben Murray").
GIVEN_WHEN_FIRST = _words("ben")


@dataclass(frozen=True, slots=True)
class NormalizedName:
    tokens: tuple[str, ...]
    weights: tuple[float, ...]
    removed: tuple[str, ...] = ()  # titles, ranks and honours taken out of a person's name
    # written in Latin letters: a keyboard slip is possible; a name written in Han, Hangul,
    # Arabic or Cyrillic is romanised by rule, so one letter apart is another character
    latin: bool = True

    @property
    def total_weight(self) -> float:
        return sum(self.weights)

    @property
    def substantive(self) -> tuple[str, ...]:
        return tuple(t for t, w in zip(self.tokens, self.weights, strict=True) if w >= SUBSTANTIVE)

    @property
    def nospace(self) -> str:
        return "".join(t for t, w in zip(self.tokens, self.weights, strict=True) if w > 0.1)

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def __bool__(self) -> bool:
        return bool(self.substantive)


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """ASCII, casefolded, apostrophes dropped (``"Sa'id"`` -> ``"said"``); punctuation kept."""
    if text.isascii():  # ascii_text leaves ASCII as it is (most list names: no call)
        if "'" in text or "`" in text:
            text = _APOSTROPHES.sub("", text)
        return text.casefold()
    return _APOSTROPHES.sub("", ascii_text(text)).casefold()


@lru_cache(maxsize=8192)
def tokenize(text: str) -> tuple[str, ...]:
    """Folded name tokens, split on spaces and punctuation."""
    if text.isascii() and text.isprintable():
        # folding and splitting see one character at a time: word by word gives the same
        # tokens, and a list of a million names has far fewer distinct words than names
        return tuple(token for word in text.split() for token in _word_tokens(word))
    return tuple(_rigour_tokenize(fold(text)))


@lru_cache(maxsize=65536)
def _word_tokens(word: str) -> tuple[str, ...]:
    return tuple(_rigour_tokenize(fold(word)))


def token_weight(token: str, is_org: bool) -> float:
    if is_org and token in ORG_TYPES:
        return ORG_TYPE_WEIGHT
    if token in PARTICLES:
        return PARTICLE_WEIGHT
    if len(token) == 1 or (is_org and token in GENERIC_BUSINESS_WORDS):
        return WEAK_WEIGHT
    return 1.0


# A legal form written onto the name ("SiemensAG", "AcmeLtd"): split off before folding.
_GLUED_ORG_TYPE = re.compile(r"(?<=[a-z]{3})(AG|GmbH|GMBH|Ltd|LTD|LLC|Inc|INC|Corp|SA|SpA|BV|NV)\b")
# Words rigour's legal-form table would rewrite out of context ("AT&T" is no Austrian "AT").
_NOT_ORG_TYPES = re.compile(r"\bat\b")


def _replace_org_types(text: str) -> str:
    lowered = _NOT_ORG_TYPES.sub("a\u200bt", text.casefold())
    return replace_org_types_compare(lowered, generic=True).replace("a\u200bt", "at")


# Initials written together with dots ("G.J. Munuve", "A.B.C. Okoro"): one initial each.
_GLUED_INITIALS = re.compile(r"(?<![^\W\d_])([^\W\d_])\.(?=[^\W\d_]\.)")


def _surname_first(text: str) -> str:
    """``"NURISTANI, Abdul Aziz"`` -> ``"Abdul Aziz NURISTANI"`` (one comma only)."""
    if text.count(",") != 1:
        return text
    surname, given = text.split(",")
    if not surname.strip() or not given.strip():
        return text
    return f"{given} {surname}"


@lru_cache(maxsize=8192)
def normalize_name(text: str, is_org: bool = False) -> NormalizedName:
    """Tokens and weights of a person name (``is_org=False``) or any other name."""
    if not is_org:
        found = _plain_person(text, _plain_word)
        if found is not None:
            return found
    return _normalize(text, is_org)


# A word's tokens and their weights further into a name than the first token
# (:func:`_plain_word`); None for a word that sends the name down the full path.
_Parts = tuple[tuple[str, ...], tuple[float, ...]] | None


def list_normalizer() -> Callable[[str, bool], NormalizedName]:
    """:func:`normalize_name` for the names of a whole list: each distinct word's tokens and
    weights are worked out once, in a memo as long-lived as the function returned (an index
    build's), where :func:`normalize_name`'s memos are bounded."""
    memo: dict[str, _Parts] = {}

    def word(text: str) -> _Parts:
        try:
            return memo[text]
        except KeyError:
            found = memo[text] = _word_parts(text)
            return found

    def normalize(text: str, is_org: bool) -> NormalizedName:
        if not is_org:
            found = _plain_person(text, word)
            if found is not None:
                return found
        return _normalize(text, is_org)

    return normalize


# The characters that send a person's name down the full path: a comma (surname first) and a
# dot (initials written together, a prefix's dot).
_NOT_PLAIN = frozenset(",.")


def _plain_person(text: str, word: Callable[[str], _Parts]) -> NormalizedName | None:
    """:func:`_normalize` of a plain person's name, from what each of its words gives
    (``word``, memoised): most list names are ASCII words with no comma, dot, title or
    prefix, and a list of a million names has far fewer distinct words than names. Names
    with other letters are not split into words first (rigour's transliteration depends on
    the scripts of the whole name: "Айрат" alone is "ajrat", beside Arabic "airat"). None when
    the name is not that plain (the full path then runs; tests/engines/screening/
    test_index_build.py checks the two agree)."""
    if not text.isascii() or not text.isprintable() or not _NOT_PLAIN.isdisjoint(text):
        return None
    words = text.split()
    if not words or not text[:1].isalnum():
        return None
    tokens: list[str] = []
    weights: list[float] = []
    for part in words:
        parts = word(part)
        if parts is None:
            return None
        tokens.extend(parts[0])
        weights.extend(parts[1])
    if words[0].lower() in _prefix_words():
        return None
    if tokens:
        weights[0] = _person_weight(0, tokens[0])
    return NormalizedName(tuple(tokens), tuple(weights))


def _word_parts(word: str) -> _Parts:
    """A word's tokens, with their weights further into a name than the first token; None
    for a word holding a title, rank or honour (:func:`strip_titles` may take it out)."""
    tokens = _word_tokens(word)
    if any(t in _TITLE_WORDS for t in tokens):
        return None
    return tokens, tuple(_person_weight(1, t) for t in tokens)


_plain_word = lru_cache(maxsize=65536)(_word_parts)


def _normalize(text: str, is_org: bool) -> NormalizedName:
    if is_org:
        text = _replace_org_types(_GLUED_ORG_TYPE.sub(r" \1", text).replace("&", " and "))
        tokens = tokenize(text)
        if tokens:
            tokens = tuple(_replace_org_types(" ".join(tokens)).split())
            tokens = tuple(
                word
                for t in tokens
                for word in _ORG_ABBREVIATIONS.get(t, (_ORG_TYPE_SHORT.get(t, t),))
            )
            tokens = numbers_to_digits(tokens)
        removed: tuple[str, ...] = ()
    else:
        text = _surname_first(text)
        if "." in text:
            text = _GLUED_INITIALS.sub(r"\1. ", text)
        written = tokenize(text)
        tokens = written if _no_prefix(text) else tokenize(remove_person_prefixes(text))
        # rigour removes prefixes in front only: what it took is the head of the written tokens
        cut = len(written) - len(tokens)
        prefixes = written[:cut] if cut > 0 and written[cut:] == tokens else ()
        tokens, removed = strip_titles(tokens)
        removed = prefixes + removed
    weights = tuple(
        _person_weight(k, t) if not is_org else token_weight(t, is_org)
        for k, t in enumerate(tokens)
    )
    return NormalizedName(tokens, weights, removed, is_latin(text))


@lru_cache(maxsize=1)
def _prefix_words() -> frozenset[str]:
    """The first word of each of rigour's person prefixes, lowercased, without trailing dots."""
    return frozenset(
        p.split()[0].rstrip(".").lower() for p in person_name_prefixes_list() if p.split()
    )


def _no_prefix(text: str) -> bool:
    """True when ``remove_person_prefixes(text)`` is surely ``text`` itself (most names: the
    regex's call is skipped). Its pattern, ``^\\W*((prefix)\\.?\\s+)*``, removes something only
    when the text starts with a non-word character or with a prefix followed by an optional
    dot and a space, so by a first word that, without trailing dots, is a prefix's first word."""
    if not text.isascii() or not text[:1].isalnum():
        return False
    first = text.split(maxsplit=1)[0].rstrip(".").lower()
    return first not in _prefix_words()


def is_latin(text: str) -> bool:
    """True unless the text has a letter of another script than Latin."""
    if text.isascii():
        return True
    return all(ord(c) < 0x250 or not c.isalpha() or 0x1E00 <= ord(c) < 0x1F00 for c in text)


def _person_weight(position: int, token: str) -> float:
    if position == 0 and token in GIVEN_WHEN_FIRST:
        return 1.0
    if position > 0 and token in SON_OF_INSIDE:
        return PARTICLE_WEIGHT
    return token_weight(token, False)


def strip_titles(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A person's name tokens without titles, ranks and post-nominal honours, and those taken
    out: unambiguous titles anywhere ("Ali Tarab Dr. Ali", "Col (Rtd)"), other titles and
    ranks in front and honours at the end while two name parts remain."""
    removed: list[str] = []
    kept = [t for t in tokens if t not in TITLES_ANYWHERE]
    if len(kept) < 2:
        return tokens, ()
    removed.extend(t for t in tokens if t in TITLES_ANYWHERE)
    while len(kept) > 2 and kept[0] in TITLES_LEADING:
        removed.append(kept.pop(0))
    while len(kept) > 2 and kept[-1] in HONOURS_TRAILING:
        removed.append(kept.pop())
    return tuple(kept), tuple(removed)


_TITLE_WORDS = TITLES_ANYWHERE | TITLES_LEADING | HONOURS_TRAILING


def is_org_schema(schema: str) -> bool:
    """Organisations, vessels and aircraft get legal-form handling; people do not."""
    return schema != "Person"

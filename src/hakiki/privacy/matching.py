"""Whether a stored value is about the data subject: the identifiers of a subject request,
normalised, compared with every text leaf of a decrypted column (pure: no database)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

_NOT_ALNUM = re.compile(r"[^0-9A-Z]")
_TOKENS = re.compile(r"[0-9A-Za-z]+")
_NOT_DIGIT = re.compile(r"\D")
_WORDS = re.compile(r"[^\W\d_]+")
PHONE_DIGITS = 9  # national significant number's length in KE, NG, UG, TZ, RW, GH (its tail)


@dataclass(frozen=True)
class Needles:
    """A subject's identifiers as compared: identity numbers upper-case without punctuation,
    phones by their last nine digits, e-mails lower-case, names as word sets (only with the
    date of birth: a name alone is many people), the organisation's reference exactly."""

    references: frozenset[str]
    ids: frozenset[str]
    phones: frozenset[str]
    emails: frozenset[str]
    name_words: frozenset[str]
    birth_date: str | None

    @classmethod
    def of(
        cls,
        *,
        reference: str | None = None,
        id_numbers: list[str] | tuple[str, ...] = (),
        phones: list[str] | tuple[str, ...] = (),
        emails: list[str] | tuple[str, ...] = (),
        names: list[str] | tuple[str, ...] = (),
        birth_date: str | None = None,
    ) -> Needles:
        words = {w.casefold() for n in names for w in _WORDS.findall(n)}
        return cls(
            references=frozenset([reference] if reference else []),
            ids=frozenset(_NOT_ALNUM.sub("", i.upper()) for i in id_numbers),
            phones=frozenset(_NOT_DIGIT.sub("", p)[-PHONE_DIGITS:] for p in phones),
            emails=frozenset(e.strip().lower() for e in emails),
            name_words=frozenset(words if birth_date else ()),
            birth_date=birth_date,
        )


def leaves(value: Any) -> Iterator[str]:
    """Every string (and number) inside a decoded JSON value, or the text itself."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item)
            yield str(key)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, str):
        yield value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield str(value)


def decode(text: str | bytes) -> Any:
    """JSON when it parses, else the text (bytes that are no UTF-8 text: latin-1's reading)."""
    if isinstance(text, bytes):
        try:
            as_text = text.decode()
        except UnicodeDecodeError:
            as_text = text.decode("latin-1")
    else:
        as_text = text
    try:
        return orjson.loads(as_text)
    except orjson.JSONDecodeError:
        return as_text


def _leaf_matches(leaf: str, needles: Needles) -> bool:
    if leaf in needles.references:
        return True
    if needles.ids:
        upper = leaf.upper()
        if _NOT_ALNUM.sub("", upper) in needles.ids:
            return True
        if any(token in needles.ids for token in _TOKENS.findall(upper)):
            return True
    if needles.emails and "@" in leaf:
        lowered = leaf.lower()
        if lowered.strip() in needles.emails or any(e in lowered for e in needles.emails):
            return True
    if needles.phones:
        digits = _NOT_DIGIT.sub("", leaf)
        if PHONE_DIGITS <= len(digits) <= 15 and digits[-PHONE_DIGITS:] in needles.phones:
            return True
    return False


def matches(values: list[Any], needles: Needles) -> bool:
    """True when any leaf of the decoded values names the subject (an identifier, a phone, an
    e-mail, the reference), or the values hold every word of the name and the birth date."""
    words: set[str] = set()
    birth_date_seen = False
    for value in values:
        for leaf in leaves(value):
            if _leaf_matches(leaf, needles):
                return True
            if needles.name_words:
                words.update(w.casefold() for w in _WORDS.findall(leaf))
                birth_date_seen = birth_date_seen or (needles.birth_date or "\0") in leaf
    return bool(needles.name_words) and birth_date_seen and needles.name_words <= words

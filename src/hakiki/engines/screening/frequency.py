"""How common a name token is, so a common name alone cannot make a hit.

``rarity(token)`` is in (0, 1]: 1.0 for an unremarkable token, less for common ones. It is the
lowest of these sources, both shipped with the package (no work at import beyond reading two
small text files):

* ``data/common_names.txt``: a hand-compiled table of very common and common given and family
  names (African, Arabic-derived, South and East Asian, European; sources in the file);
* ``data/han_syllables.txt``: the syllables Chinese characters and kana transliterate to; a
  name part of one or two such syllables ("li", "wen", "guihua") is common;
* rigour's generic person names (the forms OpenSanctions marks as identifying nobody on their
  own: Muhammad, Hassan, Bilal, Abdul Rahman...): very common;
* ``data/list_token_counts.tsv``: for each name token used by 10 or more listed persons of the
  bundled lists (OFAC SDN and UN), in how many persons' names it occurs. Regenerate it after a
  list update with ``python -m hakiki.engines.screening.frequency``.

Spelling variants (:mod:`.variants`) share the commonest rarity of their group, so "Mohamed"
and "Muhammad" are equally common.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from hakiki.engines.screening.variants import variants_of

_DATA = "hakiki.engines.screening.data"
COMMON_NAMES = "common_names.txt"
LIST_COUNTS = "list_token_counts.tsv"
SYLLABLES = "han_syllables.txt"
MIN_LIST_COUNT = 10

VERY_COMMON = 0.25
COMMON = 0.5
_TIERS = {"very": VERY_COMMON, "common": COMMON}


def _list_rarity(count: int) -> float:
    if count >= 100:
        return VERY_COMMON
    if count >= 30:
        return COMMON
    return 0.75


@lru_cache(maxsize=1)
def _table() -> dict[str, float]:
    table: dict[str, float] = {}
    tier = 1.0
    text = resources.files(_DATA).joinpath(COMMON_NAMES).read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            tier = _TIERS[line.strip("[]")]
            continue
        for token in line.split():
            table[token] = min(table.get(token, 1.0), tier)
    for token in _syllables():
        table[token] = min(table.get(token, 1.0), COMMON)
    for token in _generic_person_names():
        table[token] = VERY_COMMON
    counts = resources.files(_DATA).joinpath(LIST_COUNTS).read_text(encoding="utf-8")
    for line in counts.splitlines():
        token, _, count = line.partition("\t")
        if count:
            table[token] = min(table.get(token, 1.0), _list_rarity(int(count)))
    return table


def _generic_person_names() -> set[str]:
    """rigour's generic person names (OpenSanctions: forms that alone identify nobody), one
    token each ("abdul rahman" as "abdulrahman", as the aligner joins them)."""
    from rigour._core import generic_person_names_list

    from hakiki.engines.screening.normalize import normalize_name

    found: set[str] = set()
    for name in generic_person_names_list():
        if not name.isascii():  # the Arabic-script forms transliterate to other spellings
            continue
        tokens = normalize_name(name).tokens
        if tokens:
            found.add("".join(tokens))
    return found


@lru_cache(maxsize=1)
def _syllables() -> frozenset[str]:
    text = resources.files(_DATA).joinpath(SYLLABLES).read_text(encoding="utf-8")
    return frozenset(
        token for line in text.splitlines() if not line.startswith("#") for token in line.split()
    )


def _two_syllables(token: str) -> bool:
    """A given name of two Chinese syllables written as one word ("guihua", "jianping")."""
    syllables = _syllables()
    return any(token[:i] in syllables and token[i:] in syllables for i in range(2, len(token) - 1))


@lru_cache(maxsize=65536)
def rarity(token: str) -> float:
    """1.0 for an ordinary token, :data:`COMMON` or :data:`VERY_COMMON` for frequent ones.

    A one-word given name of two Chinese syllables counts as common too.
    """
    value = measured_rarity(token)
    if value > COMMON and 4 <= len(token) <= 12 and _two_syllables(token):
        value = COMMON
    return value


@lru_cache(maxsize=65536)
def measured_rarity(token: str) -> float:
    """:func:`rarity` from the tables alone, without the two-syllable guess (which would call
    "pulin" or "baowei" common)."""
    table = _table()
    value = table.get(token, 1.0)
    for variant in variants_of(token):
        value = min(value, table.get(variant, 1.0))
    return value


def build_syllables() -> list[str]:
    """The syllables of ``han_syllables.txt``, as rigour transliterates them."""
    from rigour.text import ascii_text

    found: set[str] = set()
    for lo, hi in ((0x4E00, 0x9FFF), (0x3041, 0x3096), (0x30A1, 0x30FA)):
        for code in range(lo, hi + 1):
            text = ascii_text(chr(code)).strip().lower()
            if text.isalpha() and len(text) <= 6:
                found.add(text)
    return sorted(found)


def build_list_counts() -> str:
    """The ``list_token_counts.tsv`` text for the bundled lists (persons' name tokens)."""
    from collections import Counter

    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.engines.screening.normalize import normalize_name

    counts: Counter[str] = Counter()
    for snapshot in load_bundled_snapshots():
        for entity in snapshot.entities:
            if entity.schema != "Person":
                continue
            tokens: set[str] = set()
            for entry in entity.names:
                tokens.update(t for t in normalize_name(entry.name).tokens if len(t) > 1)
            counts.update(tokens)
    rows = sorted((t, c) for t, c in counts.items() if c >= MIN_LIST_COUNT)
    return "".join(f"{token}\t{count}\n" for token, count in rows)


if __name__ == "__main__":  # pragma: no cover - maintenance command
    target = resources.files(_DATA).joinpath(LIST_COUNTS)
    with resources.as_file(target) as path:
        path.write_text(build_list_counts(), encoding="utf-8")
        print(f"wrote {path}")

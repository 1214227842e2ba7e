"""Country names and codes to lowercase ISO 3166-1 alpha-2 codes (rigour's territory codes).

The name table comes from rigour's territory data (strong and weak names in many languages).
It is built here with a light normalisation, which is much cheaper than rigour's own
``lookup_territory`` index (that one transliterates every name on first use).
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from rigour._core import territories_jsonl
from rigour.data import iter_jsonl_text

# Spellings seen in the lists that the territory data does not carry.
_EXTRA: dict[str, str] = {
    "korea north": "kp",
    "north korea": "kp",
    "korea south": "kr",
    "south korea": "kr",
    "burma": "mm",
    "west bank": "ps",
    "gaza": "ps",
    "northern gaza": "ps",
    "north gaza": "ps",
    "congo democratic republic of the": "cd",
    "congo republic of the": "cg",
    "the democratic republic of the congo": "cd",
    "palestinian": "ps",
    "crimea": "ua",
}


def _key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
    return " ".join(kept.split())


@cache
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(codes, names): every known code (alpha-2, alpha-3, other codes) and name to a code."""
    codes: dict[str, str] = {}
    strong: dict[str, str] = {}
    weak: dict[str, str] = {}
    for data in iter_jsonl_text(territories_jsonl()):
        code = str(data["code"])
        codes[code] = code
        if data.get("alpha3"):
            codes[str(data["alpha3"])] = code
        for name in [data.get("name"), data.get("full_name"), *data.get("names_strong", [])]:
            if name:
                strong.setdefault(_key(str(name)), code)
        for name in data.get("names_weak", []):
            weak.setdefault(_key(str(name)), code)
    names = {**weak, **strong}
    names.update(_EXTRA)
    return codes, names


@lru_cache(maxsize=4096)
def to_country_code(value: str | None) -> str | None:
    """Map "Kenya", "KE", "ken", "Korea, North", "Region: Crimea" to a code such as "ke".

    Sub-national codes ("us-ny") are reduced to their country. None when nothing matches.
    """
    if value is None:
        return None
    key = _key(value)
    if key.startswith("region "):
        key = key[7:]
    if not key:
        return None
    codes, names = _tables()
    code = codes.get(key) if len(key) <= 3 and " " not in key else None
    if code is None:
        code = names.get(key)
    if code is None:
        return None
    return code.split("-", 1)[0]

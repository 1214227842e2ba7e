"""The codes a zone may give as issuing state or nationality (ICAO 9303 part 3, section 5):
ISO 3166-1 alpha-3 (from rigour's territories), Germany's ``D``, and the codes ICAO adds for
British nationals, organisations, stateless persons and refugees, and its own specimens (UTO)."""

from __future__ import annotations

from functools import lru_cache

ICAO_CODES = frozenset(
    {
        "D", "UTO", "EUE", "GBD", "GBN", "GBO", "GBP", "GBS", "RKS",
        "UNA", "UNK", "UNO", "XBA", "XCC", "XCE", "XCO", "XDC", "XEC", "XES", "XIM", "XMP",
        "XOM", "XPO", "XXA", "XXB", "XXC", "XXX",
    }
)  # fmt: skip


@lru_cache(maxsize=1)
def _iso() -> frozenset[str]:
    from rigour.territories import get_territories

    return frozenset(t.alpha3.upper() for t in get_territories() if t.alpha3)


def known_code(field: str) -> bool:
    """Whether a state field as the zone holds it (padded with ``<``) is a code ICAO lists."""
    code = field.rstrip("<")
    return code in ICAO_CODES or code in _iso()

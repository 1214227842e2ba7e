"""OFAC Consolidated (non-SDN) list, legacy CSV (cons_prim.csv, cons_alt.csv, cons_add.csv).

The layout is exactly that of sdn.csv/alt.csv/add.csv, so this reuses
:func:`~.ofac_csv.parse_ofac_csv` with the consolidated list's code, title and URL. The
programmes (SSI ``UKRAINE-EO13662``, ``NS-PLC``, ``CMIC-EO13959``...) come from the Program
column as for the SDN list. ``cons_comments.csv`` (remarks overflow) is not needed.
"""

from __future__ import annotations

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_csv

OFAC_CONS_PRIM_URL = "https://www.treasury.gov/ofac/downloads/consolidated/cons_prim.csv"


def parse_ofac_consolidated_csv(
    prim: bytes,
    alt: bytes | None = None,
    add: bytes | None = None,
    *,
    version: str,
    code: str = "us_ofac_consolidated",
    title: str = "OFAC Consolidated (non-SDN) Sanctions List",
    source_url: str = OFAC_CONS_PRIM_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse the OFAC consolidated legacy CSV bytes; ``version`` is the publication date."""
    return parse_ofac_csv(
        prim,
        alt,
        add,
        version=version,
        code=code,
        title=title,
        source_url=source_url,
        checks=checks,
    )

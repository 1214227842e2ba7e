"""US Commerce BIS Denied Persons List (``dpl.txt``, tab-separated) to a ListSnapshot.

Format: a quoted header ``Name, Street_Address, City, State, Country, Postal_Code,
Effective_Date, Expiration_Date, Standard_Order, Last_Update, Action, FR_Citation`` (tabs
between), one row per name and address. The list has no record id and no person/entity flag:

* rows with the same name (case and spacing ignored) are one entity, whose id is a stable
  hash of that name (``dpl-`` + 12 hex digits);
* a name with a company marker (LTD, INC, LLC, S.A., CORPORATION, AIRLINES...) is an
  Organization, any other a Person (its name kept as printed);
* ``Country`` (ISO-2, often empty) gives the countries, ``FR_Citation`` the remarks.

The version is the latest valid ``Last_Update``; typo'd dates (``2922-09-01``) are reported
in the warnings and ignored.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, Schema
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.common import parse_iso_date, parse_mdy_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy, unique

BIS_DPL_URL = "https://www.bis.doc.gov/dpl/dpl.txt"

_REQUIRED = ("Name", "Country", "Effective_Date", "FR_Citation")
_COMPANY = re.compile(
    r"\b(LTD|LIMITED|INC|LLC|L\.L\.C|CORP|CORPORATION|COMPANY|CO|S\.?A|S\.?A\.?S|S\.?R\.?L|"
    r"GMBH|AG|BV|B\.V|PLC|PTE|PVT|FZE|FZCO|LLP|TRADING|INDUSTRIES|INDUSTRY|INTERNATIONAL|GROUP|"
    r"AIRLINES?|AIRWAYS|AVIATION|ENTERPRISES?|TECHNOLOGY|TECHNOLOGIES|ELECTRONICS|SERVICES?|"
    r"SYSTEMS|HOLDINGS?|CARGO|LOGISTICS|EXPRESS|IMPORTS?|EXPORTS?|SUPPLY|SUPPLIES|ENGINEERING|"
    r"MANAGEMENT|EMPRESA|SOCIEDAD|GESELLSCHAFT|INSTITUTE|UNIVERSITY|FREIGHT|SHIPPING|"
    r"TECH|TECHNIK|SOLUTIONS|AIR)\b\.?",
    re.IGNORECASE,
)


@dataclass
class _Draft:
    name: str
    countries: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)


def parse_bis_dpl(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "us_bis_denied",
    title: str = "US BIS Denied Persons List",
    source_url: str = BIS_DPL_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse dpl.txt bytes. Raises ListFormatError if the header is not the DPL's."""
    reader = csv.reader(io.StringIO(decode_legacy(data), newline=""), delimiter="\t")
    header = [c.strip() for c in next(reader, [])]
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise ListFormatError(f"BIS DPL: not a DPL file (missing columns {', '.join(missing)})")
    collected = Collected()
    warnings = collected.warnings
    drafts: dict[str, _Draft] = {}
    latest: str | None = None
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        line_no = reader.line_num
        if len(row) != len(header):
            warnings.append(f"line {line_no}: expected {len(header)} columns, got {len(row)}")
        record = dict(zip(header, row, strict=False))
        name = clean(record.get("Name"), empty="")
        if name is None:
            warnings.append(f"line {line_no}: no name; skipped")
            continue
        for column in ("Effective_Date", "Expiration_Date", "Last_Update"):
            raw = clean(record.get(column), empty="")
            parsed = parse_mdy_date(raw) or parse_iso_date(raw)
            if raw and parsed is None:
                warnings.append(f"line {line_no}: invalid {column} {raw!r} ignored")
            elif column == "Last_Update" and parsed and (latest is None or parsed > latest):
                latest = parsed
        key = name.casefold()
        draft = drafts.setdefault(key, _Draft(name))
        country = to_country_code(clean(record.get("Country"), empty=""))
        if country:
            draft.countries.append(country)
        citation = clean(record.get("FR_Citation"), empty="")
        if citation:
            draft.remarks.append(citation)
    list_version = version or latest
    if not list_version:
        raise ListFormatError("BIS DPL: no valid Last_Update and no version given")
    collected.entities.extend(_finish(key, draft, code) for key, draft in drafts.items())
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _finish(key: str, draft: _Draft, code: str) -> ListEntity:
    schema: Schema = "Organization" if _COMPANY.search(draft.name) else "Person"
    return ListEntity(
        entity_id="dpl-" + hashlib.sha256(key.encode()).hexdigest()[:12],
        list_code=code,
        schema=schema,
        names=(NameEntry(draft.name, "primary"),),
        countries=unique(draft.countries),
        remarks="; ".join(unique(draft.remarks)) or None,
    )

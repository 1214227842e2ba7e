"""OFAC legacy CSV files (sdn.csv, alt.csv, add.csv) to a ListSnapshot.

Format (https://ofac.treasury.gov/sdn-list-data-formats-data-schemas): no header row, ``-0-``
for an empty field, cp1252 text, a trailing 0x1A byte.

* sdn.csv: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vessel_Type, Tonnage, GRT,
  Vessel_Flag, Vessel_Owner, Remarks. SDN_Type is ``individual``, ``vessel``, ``aircraft``
  or ``-0-`` (an entity). Individuals are written "LAST, First Middle".
* alt.csv: ent_num, alt_num, alt_type (aka/fka/nka), alt_name, alt_remarks.
* add.csv: ent_num, add_num, address, city/state/postal code, country, add_remarks.

Remarks carry birth dates, nationalities, documents, gender and the list's *weak* aliases
(``a.k.a. 'NAME'``); these become ``weak_alias`` names. Rows that cannot be used are reported in
``ListSnapshot.warnings``, never raised.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.text import clean, decode_legacy, unique, year_range

OFAC_SDN_URL = "https://www.treasury.gov/ofac/downloads/sdn.csv"
OFAC_ALT_URL = "https://www.treasury.gov/ofac/downloads/alt.csv"
OFAC_ADD_URL = "https://www.treasury.gov/ofac/downloads/add.csv"

_SDN_COLUMNS = 12
_SCHEMAS: dict[str, Schema] = {
    "individual": "Person",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
    "": "Organization",
}
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_DAY_MONTH_YEAR = re.compile(r"^(?:(\d{1,2}) )?([A-Za-z]{3})[a-z]* (\d{4})$")
_YEAR = re.compile(r"^(?:circa |c\. ?)?(\d{4})$")
_WEAK_ALIAS = re.compile(r"\b[afn]\.k\.a\.,? '([^']+(?:'[A-Za-z][^']*)*)'")
# (prefix in the remarks, identifier type). Longest prefixes first.
_ID_PREFIXES: tuple[tuple[str, str], ...] = (
    ("vessel registration identification imo", "imo"),
    ("national id no.", "national_id"),
    ("national identification number", "national_id"),
    ("identification number", "national_id"),
    ("passport", "passport"),
    ("diplomatic passport", "passport"),
    ("tax id no.", "tax_id"),
    ("cedula no.", "national_id"),
    ("c.u.r.p.", "national_id"),
    ("r.f.c.", "tax_id"),
    ("d.n.i.", "national_id"),
    ("ssn", "national_id"),
    ("registration number", "registration"),
    ("business registration number", "registration"),
    ("company number", "registration"),
    ("unified social credit code (uscc)", "registration"),
    ("mmsi", "mmsi"),
    ("aircraft manufacturer's serial number (msn)", "msn"),
)
_ID_PREFIXES = tuple(sorted(_ID_PREFIXES, key=lambda p: -len(p[0])))
_ID_VALUE = re.compile(
    r"^([A-Za-z0-9][A-Za-z0-9 ./\-]*?)\s*(?:\(([^)]*)\))?\s*"
    r"(?:(?:issued|expires|valid|registered)\b.*)?\.?$"
)


@dataclass
class _Draft:
    entity_id: str
    schema: Schema
    names: list[NameEntry]
    programs: tuple[str, ...]
    remarks: str | None
    birth_dates: list[str] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)
    identifiers: list[tuple[str, str]] = field(default_factory=list)
    gender: str | None = None


def parse_ofac_csv(
    sdn: bytes,
    alt: bytes | None = None,
    add: bytes | None = None,
    *,
    version: str,
    code: str = "us_ofac_sdn",
    title: str = "OFAC Specially Designated Nationals (SDN) List",
    source_url: str = OFAC_SDN_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse OFAC legacy CSV bytes. ``version`` is the list's publication date (ISO)."""
    collected = Collected()
    warnings = collected.warnings
    drafts: dict[str, _Draft] = {}
    for line_no, row in _rows(sdn):
        draft = _parse_sdn_row(row, line_no, warnings)
        if draft is None:
            continue
        if draft.entity_id in drafts:
            warnings.append(f"sdn.csv line {line_no}: duplicate ent_num {draft.entity_id} skipped")
            continue
        drafts[draft.entity_id] = draft
    if alt is not None:
        _apply_aliases(alt, drafts, warnings)
    if add is not None:
        _apply_addresses(add, drafts, warnings)
    collected.entities.extend(_finish(d, code) for d in drafts.values())
    return collected.snapshot(
        code=code, title=title, version=version, source_url=source_url, checks=checks
    )


def _rows(data: bytes) -> Iterator[tuple[int, list[str]]]:
    text = decode_legacy(data)
    reader = csv.reader(io.StringIO(text, newline=""), strict=False)
    for row in reader:
        if row and any(c.strip() for c in row):
            yield reader.line_num, row


def _parse_sdn_row(row: list[str], line_no: int, warnings: list[str]) -> _Draft | None:
    if len(row) != _SDN_COLUMNS:
        warnings.append(
            f"sdn.csv line {line_no}: expected {_SDN_COLUMNS} columns, got {len(row)}; skipped"
        )
        return None
    ent_num = row[0].strip()
    name = clean(row[1])
    if not ent_num.isdigit() or name is None:
        warnings.append(f"sdn.csv line {line_no}: no ent_num or name; skipped")
        return None
    sdn_type = (clean(row[2]) or "").lower()
    schema = _SCHEMAS.get(sdn_type)
    if schema is None:
        warnings.append(f"sdn.csv line {line_no}: unknown SDN_Type {sdn_type!r}; skipped")
        return None
    programs = _programs(clean(row[3]))
    remarks = clean(row[11])
    draft = _Draft(
        entity_id=ent_num,
        schema=schema,
        names=[_name_entry(name, "primary", schema)],
        programs=programs,
        remarks=remarks,
    )
    call_sign = clean(row[5])
    if call_sign:
        draft.identifiers.append(("call_sign", call_sign))
    flag = to_country_code(clean(row[9]))
    if flag:
        draft.countries.append(flag)
    if remarks:
        _parse_remarks(remarks, draft)
    return draft


def _programs(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return unique(p.strip(" []") for p in value.split("] ["))


def _name_entry(name: str, kind: NameKind, schema: Schema) -> NameEntry:
    """Natural order for people: "LAST, First Middle" becomes "First Middle LAST"."""
    if schema == "Person" and ", " in name:
        family, _, given = name.partition(", ")
        family, given = family.strip(), given.strip()
        if family and given:
            return NameEntry(f"{given} {family}", kind, original=name, given=given, family=family)
    return NameEntry(name, kind)


def _parse_remarks(remarks: str, draft: _Draft) -> None:
    for alias in _WEAK_ALIAS.findall(remarks):
        alias = clean(alias)
        if alias:
            draft.names.append(_name_entry(alias, "weak_alias", draft.schema))
    for raw in remarks.split(";"):
        item = raw.strip().rstrip(".").strip()
        if item.startswith("alt. "):
            item = item[5:].strip()
        lower = item.lower()
        if lower.startswith("dob "):
            draft.birth_dates.extend(parse_ofac_date(item[4:]))
        elif lower.startswith(("nationality ", "citizen ")):
            country = to_country_code(item.split(" ", 1)[1])
            if country:
                draft.countries.append(country)
        elif lower.startswith("pob "):
            country = to_country_code(item.rsplit(",", 1)[-1].removeprefix("POB "))
            if country:
                draft.countries.append(country)
        elif lower.startswith("gender "):
            gender = lower.split(" ", 1)[1].strip()
            if gender in ("male", "female"):
                draft.gender = gender
        else:
            _parse_identifier(item, lower, draft)


def _parse_identifier(item: str, lower: str, draft: _Draft) -> None:
    for prefix, id_type in _ID_PREFIXES:
        if lower.startswith(prefix + " "):
            match = _ID_VALUE.match(item[len(prefix) + 1 :].strip())
            if match is None:
                return
            value = match.group(1).strip()
            if sum(c.isdigit() for c in value) >= 3:
                draft.identifiers.append((id_type, value))
            country = to_country_code(match.group(2)) if match.group(2) else None
            if country and id_type in ("passport", "national_id"):
                draft.countries.append(country)
            return


def parse_ofac_date(text: str) -> list[str]:
    """``01 Jan 1970`` / ``Jan 1970`` / ``1970`` / ``circa 1970`` / ``1970 to 1972``."""
    text = " ".join(text.split()).strip(" .")
    if " to " in text:
        start, _, end = text.partition(" to ")
        a, b = parse_ofac_date(start), parse_ofac_date(end)
        if a and b:
            return year_range(int(a[0][:4]), int(b[0][:4]))
        return a + b
    match = _YEAR.match(text)
    if match:
        return [match.group(1)]
    match = _DAY_MONTH_YEAR.match(text)
    if match:
        day, month_name, year = match.groups()
        month = _MONTHS.get(month_name.lower())
        if month is None:
            return [year]
        if day is None:
            return [f"{year}-{month:02d}"]
        return [f"{year}-{month:02d}-{int(day):02d}"]
    return []


def _apply_aliases(data: bytes, drafts: dict[str, _Draft], warnings: list[str]) -> None:
    orphans = 0
    for line_no, row in _rows(data):
        if len(row) < 4 or not row[0].strip().isdigit():
            warnings.append(f"alt.csv line {line_no}: malformed row skipped")
            continue
        name = clean(row[3])
        if name is None:
            continue
        draft = drafts.get(row[0].strip())
        if draft is None:
            orphans += 1
            continue
        alt_type = (clean(row[2]) or "").lower()
        alt_remarks = (clean(row[4]) if len(row) > 4 else None) or ""
        weak = "weak" in alt_type or "weak" in alt_remarks.lower()
        draft.names.append(_name_entry(name, "weak_alias" if weak else "alias", draft.schema))
    if orphans:
        warnings.append(f"alt.csv: {orphans} aliases of entities not in sdn.csv skipped")


def _apply_addresses(data: bytes, drafts: dict[str, _Draft], warnings: list[str]) -> None:
    orphans = 0
    for line_no, row in _rows(data):
        if len(row) < 5 or not row[0].strip().isdigit():
            warnings.append(f"add.csv line {line_no}: malformed row skipped")
            continue
        draft = drafts.get(row[0].strip())
        if draft is None:
            orphans += 1
            continue
        country = to_country_code(clean(row[4]))
        if country:
            draft.countries.append(country)
    if orphans:
        warnings.append(f"add.csv: {orphans} addresses of entities not in sdn.csv skipped")


def _finish(draft: _Draft, code: str) -> ListEntity:
    seen: set[tuple[str, str]] = set()
    names: list[NameEntry] = []
    for entry in draft.names:
        key = (entry.name.casefold(), entry.kind)
        if key in seen or (entry.kind != "primary" and (entry.name.casefold(), "primary") in seen):
            continue
        seen.add(key)
        names.append(entry)
    return ListEntity(
        entity_id=draft.entity_id,
        list_code=code,
        schema=draft.schema,
        names=tuple(names),
        programs=draft.programs,
        birth_dates=unique(draft.birth_dates),
        countries=unique(draft.countries),
        identifiers=tuple(dict.fromkeys(draft.identifiers)),
        gender=draft.gender,
        remarks=draft.remarks,
    )

"""UK OFSI consolidated list, CSV (``ConList.csv``) to a ListSnapshot.

Format (https://ofsistorage.blob.core.windows.net/publishlive/ConList.csv): an optional first
row ``Last Updated,dd/mm/yyyy``, then the header ``Name 6,Name 1,...,Name 5,Title,DOB,Town of
Birth,Country of Birth,Nationality,Passport Details,NI Number,Position,Address 1..6,
Post/Zip Code,Country,Other Information,Group Type,Alias Type,[Alias Quality,]Regime,Listed On,
[UK Sanctions List Date Designated,]Last Updated,Group ID``. Columns are found by name.

One row per name *and* per date of birth or address: rows sharing a ``Group ID`` are one
entity. ``Name 6`` is the family name (the whole name for entities), ``Name 1..5`` the given
names. ``Alias Type`` "Primary name" or "Prime Alias" is the primary name, others ("AKA",
"Primary name variation") aliases; ``Alias Quality`` "Low" makes a weak alias. ``Group Type``
is Individual, Entity or Ship. DOB is dd/mm/yyyy with ``00`` for unknown parts. Documents in
``Passport Details`` / ``NI Number`` are free text: number-like tokens are kept.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity
from hakiki.engines.screening.parsers.common import parse_dmy_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

UK_CONLIST_URL = "https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv"

_REQUIRED = ("Name 6", "Group Type", "Group ID")
_GIVEN = ("Name 1", "Name 2", "Name 3", "Name 4", "Name 5")
_SCHEMAS: dict[str, Schema] = {
    "individual": "Person",
    "entity": "Organization",
    "ship": "Vessel",
}
_PRIMARY_ALIAS_TYPES = frozenset({"primary name", "prime alias"})
_LIST_SPLIT = re.compile(r"\(?\b\d{1,2}\)|\(?\b[a-h]\)|;|\n")
_DOC_TOKEN = re.compile(r"(?<![\w/-])(?=[A-Z0-9/-]*\d)[A-Z0-9][A-Z0-9/-]{4,}(?![\w/-])")
_IMO = re.compile(r"\bIMO:?\s*(\d{7})\b")
_HEADER_SEARCH_ROWS = 5


@dataclass
class _Draft:
    entity_id: str
    schema: Schema
    names: list[NameEntry] = field(default_factory=list)
    programs: list[str] = field(default_factory=list)
    birth_dates: list[str] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)
    identifiers: list[tuple[str, str]] = field(default_factory=list)
    remarks: str | None = None


def parse_uk_csv(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "gb_hmt_sanctions",
    title: str = "UK OFSI Consolidated List of Financial Sanctions Targets",
    source_url: str = UK_CONLIST_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse ConList.csv bytes. Raises ListFormatError if no ConList header is found."""
    rows = list(csv.reader(io.StringIO(decode_legacy(data), newline=""), strict=False))
    header_at, header, stamp = _find_header(rows)
    collected = Collected()
    warnings = collected.warnings
    drafts: dict[str, _Draft] = {}
    latest: str | None = None
    for line_no, row in enumerate(rows[header_at + 1 :], header_at + 2):
        if not any(cell.strip() for cell in row):
            continue
        # Some exports carry a leading unnamed index column in the header only.
        offset = len(header) - len(row) if header[0] == "" and len(row) < len(header) else 0
        record = {
            name: row[i - offset] for i, name in enumerate(header) if 0 <= i - offset < len(row)
        }
        updated = parse_dmy_date(record.get("Last Updated"))
        if updated and (latest is None or updated > latest):
            latest = updated
        _apply_row(record, line_no, drafts, warnings)
    list_version = version or stamp or latest
    if not list_version:
        raise ListFormatError("UK CSV: no Last Updated date and no version given")
    collected.entities.extend(_finish(d, code) for d in drafts.values() if d.names)
    for draft in drafts.values():
        if not draft.names:
            warnings.append(f"Group ID {draft.entity_id}: no usable name; skipped")
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _find_header(rows: list[list[str]]) -> tuple[int, list[str], str | None]:
    stamp: str | None = None
    for index, row in enumerate(rows[:_HEADER_SEARCH_ROWS]):
        cells = [c.strip() for c in row]
        if cells and cells[0].lower() == "last updated" and len(cells) > 1:
            stamp = parse_dmy_date(cells[1])
        if all(name in cells for name in _REQUIRED):
            return index, cells, stamp
    raise ListFormatError("UK CSV: no header row with Name 6, Group Type and Group ID")


def _field(record: dict[str, str], name: str) -> str | None:
    return clean(record.get(name), empty="")


def _apply_row(
    record: dict[str, str], line_no: int, drafts: dict[str, _Draft], warnings: list[str]
) -> None:
    group_id = _field(record, "Group ID")
    group_type = (_field(record, "Group Type") or "").lower()
    schema = _SCHEMAS.get(group_type)
    if group_id is None or schema is None:
        warnings.append(f"line {line_no}: no Group ID or unknown Group Type {group_type!r}")
        return
    draft = drafts.get(group_id)
    if draft is None:
        draft = drafts[group_id] = _Draft(group_id, schema)
    elif draft.schema != schema:
        warnings.append(f"line {line_no}: Group ID {group_id} changes Group Type; row skipped")
        return
    entry = _name(record, schema)
    if entry is None:
        warnings.append(f"line {line_no}: no name; row skipped")
    else:
        draft.names.append(entry)
    regime = _field(record, "Regime")
    if regime:
        draft.programs.append(regime)
    dob = _field(record, "DOB")
    if dob:
        parsed = parse_dmy_date(dob)
        if parsed:
            draft.birth_dates.append(parsed)
        else:
            warnings.append(f"line {line_no}: unreadable DOB {dob!r} ignored")
    for column in ("Nationality", "Country of Birth", "Country"):
        draft.countries.extend(_countries(_field(record, column)))
    for column, id_type in (("Passport Details", "passport"), ("NI Number", "national_id")):
        text = _field(record, column)
        if text:
            draft.identifiers.extend((id_type, t) for t in _DOC_TOKEN.findall(text))
    other = _field(record, "Other Information")
    if other:
        draft.remarks = draft.remarks or other
        if schema == "Vessel" or "IMO" in other:
            draft.identifiers.extend(("imo", m) for m in _IMO.findall(other))


def _name(record: dict[str, str], schema: Schema) -> NameEntry | None:
    alias_type = (_field(record, "Alias Type") or "").lower()
    quality = (_field(record, "Alias Quality") or "").lower()
    kind: NameKind = "alias"
    if alias_type in _PRIMARY_ALIAS_TYPES:
        kind = "primary"
    elif quality.startswith("low"):
        kind = "weak_alias"
    family = _field(record, "Name 6")
    given = " ".join(p for p in (_field(record, c) for c in _GIVEN) if p) or None
    if schema != "Person":
        text = " ".join(p for p in (given, family) if p)
        return NameEntry(text, kind) if text else None
    if family and given:
        return NameEntry(
            f"{given} {family}", kind, original=f"{family}, {given}", given=given, family=family
        )
    single = family or given
    return NameEntry(single, kind) if single else None


def _countries(text: str | None) -> list[str]:
    if not text:
        return []
    found: list[str] = []
    for part in _LIST_SPLIT.split(text):
        part = part.strip(" ,.-()")
        if not part:
            continue
        country = to_country_code(part) or to_country_code(re.sub(r"\s*\(.*$", "", part))
        if country:
            found.append(country)
    return found


def _finish(draft: _Draft, code: str) -> ListEntity:
    # Exactly one primary name: the first "Primary name" row, else the first row's name.
    main = next((n for n in draft.names if n.kind == "primary"), draft.names[0])
    names = [NameEntry(main.name, "primary", main.original, main.given, main.family)]
    for entry in draft.names:
        if entry.kind == "primary":
            entry = NameEntry(entry.name, "alias", entry.original, entry.given, entry.family)
        names.append(entry)
    return build_entity(
        draft.entity_id,
        code,
        draft.schema,
        names,
        programs=draft.programs,
        birth_dates=draft.birth_dates,
        countries=draft.countries,
        identifiers=draft.identifiers,
        remarks=draft.remarks,
    )

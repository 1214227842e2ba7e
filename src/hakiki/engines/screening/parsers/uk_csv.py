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

A file in the FCDO UK Sanctions List layout (header with ``Unique ID``) is recognised and
parsed by :mod:`.uk_sanctions_list` instead, so one ``uk_csv`` source reads either layout.
"""

from __future__ import annotations

import csv
import io
import re

from hakiki.engines.screening.model import ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.common import parse_dmy_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy
from hakiki.engines.screening.parsers.uk_common import (
    IMO,
    SCHEMAS,
    Draft,
    countries,
    finish_all,
    header_row,
    records,
    uk_name,
)
from hakiki.engines.screening.parsers.uk_sanctions_list import (
    SANCTIONS_LIST_REQUIRED,
    parse_uk_sanctions_list_rows,
)

UK_CONLIST_URL = "https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv"

_REQUIRED = ("Name 6", "Group Type", "Group ID")
_GIVEN = ("Name 1", "Name 2", "Name 3", "Name 4", "Name 5")
_PRIMARY_ALIAS_TYPES = frozenset({"primary name", "prime alias"})
_DOC_TOKEN = re.compile(r"(?<![\w/-])(?=[A-Z0-9/-]*\d)[A-Z0-9][A-Z0-9/-]{4,}(?![\w/-])")


def parse_uk_csv(
    data: bytes,
    *,
    version: str | None = None,
    code: str | None = None,
    title: str | None = None,
    source_url: str | None = None,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse a UK CSV in either layout (ConList or UK Sanctions List), told apart by header.

    ``code``, ``title`` and ``source_url`` default to those of the layout found. Raises
    ListFormatError if neither header is found.
    """
    rows = list(csv.reader(io.StringIO(decode_legacy(data), newline=""), strict=False))
    if header_row(rows, SANCTIONS_LIST_REQUIRED) is not None:
        given = {"code": code, "title": title, "source_url": source_url}
        return parse_uk_sanctions_list_rows(
            rows,
            version=version,
            checks=checks,
            **{key: value for key, value in given.items() if value is not None},
        )
    header_at = header_row(rows, _REQUIRED)
    if header_at is None:
        raise ListFormatError(
            "UK CSV: no header row with Name 6, Group Type and Group ID (ConList) or "
            "Unique ID and Name 6 (UK Sanctions List)"
        )
    first = [c.strip() for c in rows[0]] if rows else []
    stamp = None
    if len(first) > 1 and first[0].lower() == "last updated":
        stamp = parse_dmy_date(first[1])
    collected = Collected()
    drafts: dict[str, Draft] = {}
    latest: str | None = None
    for line_no, record in records(rows, header_at):
        updated = parse_dmy_date(record.get("Last Updated"))
        if updated and (latest is None or updated > latest):
            latest = updated
        _apply_row(record, line_no, drafts, collected.warnings)
    list_version = version or stamp or latest
    if not list_version:
        raise ListFormatError("UK CSV: no Last Updated date and no version given")
    finish_all(drafts, code or "gb_hmt_sanctions", "Group ID", collected)
    return collected.snapshot(
        code=code or "gb_hmt_sanctions",
        title=title or "UK OFSI Consolidated List of Financial Sanctions Targets",
        version=list_version,
        source_url=source_url or UK_CONLIST_URL,
        checks=checks,
    )


def _field(record: dict[str, str], name: str) -> str | None:
    return clean(record.get(name), empty="")


def _apply_row(
    record: dict[str, str], line_no: int, drafts: dict[str, Draft], warnings: list[str]
) -> None:
    group_id = _field(record, "Group ID")
    group_type = (_field(record, "Group Type") or "").lower()
    schema = SCHEMAS.get(group_type)
    if group_id is None or schema is None:
        warnings.append(f"line {line_no}: no Group ID or unknown Group Type {group_type!r}")
        return
    draft = drafts.get(group_id)
    if draft is None:
        draft = drafts[group_id] = Draft(group_id, schema)
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
        draft.countries.extend(countries(_field(record, column)))
    for column, id_type in (("Passport Details", "passport"), ("NI Number", "national_id")):
        text = _field(record, column)
        if text:
            draft.identifiers.extend((id_type, t) for t in _DOC_TOKEN.findall(text))
    other = _field(record, "Other Information")
    if other:
        draft.remarks = draft.remarks or other
        if schema == "Vessel" or "IMO" in other:
            draft.identifiers.extend(("imo", m) for m in IMO.findall(other))


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
    return uk_name(given, family, kind, schema)

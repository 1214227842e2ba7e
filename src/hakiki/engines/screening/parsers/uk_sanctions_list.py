"""FCDO UK Sanctions List, CSV (``UK-Sanctions-List.csv``) to a ListSnapshot.

Source: https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv (gov.uk "UK sanctions
list", the only official UK list since OFSI retired its Consolidated List on 28 January 2026).
First line ``Report Date: dd-Mon-yyyy``, then the header: ``Last Updated,Unique ID,OFSI Group
ID,UN Reference Number,Name 6,Name 1,...,Name 5,Name type,Alias strength,Title,Name non-latin
script,Non-latin script type,Non-latin script language,Regime Name,Designation Type,Designation
source,Sanctions Imposed,Other Information,UK Statement of Reasons,Address Line 1..6,Address
Postal Code,Address Country,Phone number,Website,Email address,Date Designated,D.O.B,
Nationality(/ies),National Identifier number,National Identifier additional information,
Passport number,Passport additional information,Position,Gender,Town of birth,Country of birth,
Type of entity,Subsidiaries,Parent company,Business registration number (s),IMO number,...``
(ship columns follow). Earlier files name the type column ``Individual, Entity, Ship``. Columns
are found by name.

One row per name (and per address): rows sharing a ``Unique ID`` are one entity. ``Name 6`` is
the family name (the whole name for entities), ``Name 1..5`` the given names; ``Name type``
"Primary Name" is the primary name, "Primary Name Variation" and "Alias" are aliases, and an
``Alias strength`` starting "Low" or "Weak" makes a weak alias; the non-Latin script name is an
alias. Dates are dd/mm/yyyy, with ``dd``/``mm`` or ``00`` for unknown parts. Multi-valued cells
("(1) Russia (2) Ukraine") are split.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from hakiki.engines.screening.model import ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.common import parse_dmy_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean
from hakiki.engines.screening.parsers.uk_common import (
    SCHEMAS,
    Draft,
    countries,
    finish_all,
    header_row,
    records,
    split_list,
    uk_name,
)

UK_SANCTIONS_LIST_URL = "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv"
SANCTIONS_LIST_REQUIRED = ("Unique ID", "Name 6")
_TYPE_COLUMNS = ("Designation Type", "Individual, Entity, Ship")
_GIVEN = ("Name 1", "Name 2", "Name 3", "Name 4", "Name 5")
_DOCUMENTS = (
    ("Passport number", "passport"),
    ("National Identifier number", "national_id"),
    ("Business registration number (s)", "registration"),
)
_REPORT_DATE = re.compile(r"^\s*report date:?\s*(.+?)\s*$", re.IGNORECASE)
_SEVEN_DIGITS = re.compile(r"\b(\d{7})\b")


def parse_uk_sanctions_list_rows(
    rows: list[list[str]],
    *,
    version: str | None = None,
    code: str = "gb_fcdo_sanctions",
    title: str = "UK Sanctions List (FCDO)",
    source_url: str = UK_SANCTIONS_LIST_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse the rows of a UK Sanctions List CSV (``parse_uk_csv`` reads and dispatches)."""
    header_at = header_row(rows, SANCTIONS_LIST_REQUIRED)
    if header_at is None:
        raise ListFormatError("UK Sanctions List CSV: no header row with Unique ID and Name 6")
    stamp = next((_report_date(row) for row in rows[:header_at] if row), None)
    type_column = next((c for c in _TYPE_COLUMNS if c in rows[header_at]), _TYPE_COLUMNS[0])
    collected = Collected()
    drafts: dict[str, Draft] = {}
    rejected: set[str] = set()
    latest: str | None = None
    for line_no, record in records(rows, header_at):
        updated = _dmy(record.get("Last Updated"))
        if updated and (latest is None or updated > latest):
            latest = updated
        _apply_row(record, type_column, line_no, drafts, rejected, collected.warnings)
    list_version = version or stamp or latest
    if not list_version:
        raise ListFormatError("UK Sanctions List CSV: no Report Date and no version given")
    finish_all(drafts, code, "Unique ID", collected)
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _report_date(row: list[str]) -> str | None:
    match = _REPORT_DATE.match(",".join(row).strip(", "))
    if match is None:
        return None
    text = match.group(1)
    try:
        return datetime.strptime(text, "%d-%b-%Y").date().isoformat()
    except ValueError:
        return _dmy(text)


def _dmy(text: str | None) -> str | None:
    """dd/mm/yyyy with ``dd``/``mm`` placeholders for unknown parts."""
    if not text:
        return None
    return parse_dmy_date(text.lower().replace("dd", "00").replace("mm", "00"))


def _apply_row(
    record: dict[str, str],
    type_column: str,
    line_no: int,
    drafts: dict[str, Draft],
    rejected: set[str],
    warnings: list[str],
) -> None:
    def get(name: str) -> str | None:
        return clean(record.get(name), empty="")

    unique_id = get("Unique ID")
    designation = (get(type_column) or "").lower()
    schema = SCHEMAS.get(designation)
    if unique_id is None or schema is None:
        if unique_id not in rejected:
            warnings.append(
                f"line {line_no}: no Unique ID or unknown {type_column} {designation!r}"
            )
        if unique_id is not None:
            rejected.add(unique_id)
        return
    draft = drafts.get(unique_id)
    if draft is None:
        draft = drafts[unique_id] = Draft(unique_id, schema)
    elif draft.schema != schema:
        warnings.append(f"line {line_no}: Unique ID {unique_id} changes {type_column}; skipped")
        return
    entry = _name(get, schema)
    if entry is None:
        warnings.append(f"line {line_no}: no name; row kept for its other details")
    else:
        draft.names.append(entry)
    non_latin = get("Name non-latin script")
    if non_latin:
        draft.names.append(NameEntry(non_latin, "alias"))
    regime = get("Regime Name")
    if regime:
        draft.programs.append(regime)
    for dob in split_list(get("D.O.B")):
        parsed = _dmy(dob)
        if parsed:
            draft.birth_dates.append(parsed)
        else:
            warnings.append(f"line {line_no}: unreadable D.O.B {dob!r} ignored")
    for column in ("Nationality(/ies)", "Country of birth", "Address Country"):
        draft.countries.extend(countries(get(column)))
    for column, id_type in _DOCUMENTS:
        draft.identifiers.extend((id_type, number) for number in split_list(get(column)))
    draft.identifiers.extend(("imo", m) for m in _SEVEN_DIGITS.findall(get("IMO number") or ""))
    gender = (get("Gender") or "").lower()
    if gender in ("male", "female"):
        draft.gender = draft.gender or gender
    draft.remarks = draft.remarks or get("Other Information")


def _name(get: Callable[[str], str | None], schema: Schema) -> NameEntry | None:
    name_type = (get("Name type") or "").lower()
    strength = (get("Alias strength") or "").lower()
    kind: NameKind = "alias"
    if name_type == "primary name":
        kind = "primary"
    elif strength.startswith(("low", "weak")):
        kind = "weak_alias"
    given = " ".join(p for p in (get(c) for c in _GIVEN) if p) or None
    return uk_name(given, get("Name 6"), kind, schema)

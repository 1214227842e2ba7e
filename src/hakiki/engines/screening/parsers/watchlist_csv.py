"""An organisation's own watchlist, uploaded as CSV, to a ListSnapshot.

Header row required; column names are case-insensitive:

* ``name`` (required): the primary name, in reading order.
* ``schema``: ``person`` (default), ``organization``/``organisation``/``company``/``entity``,
  ``vessel``, ``aircraft``.
* ``aliases``: semicolon-separated other names.
* ``birth_date``: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (several separated by semicolons).
* ``countries``: semicolon-separated ISO 3166-1 alpha-2/alpha-3 codes or country names.
* ``identifiers``: semicolon-separated ``type:value`` pairs (``passport:A1234567``).
* ``program``: a free-text programme or reason.
* ``id``: the organisation's own reference (default ``row-<line number>``).

The delimiter may be ``,``, ``;`` or a tab (taken from the header line). UTF-8 (with or without
BOM) and cp1252 are read. A missing ``name`` column raises ListFormatError; a row without a
name, an unknown schema or a duplicate id is skipped with a warning giving its line number;
an unreadable date, country or identifier is dropped with a warning. More than ``max_rows``
data rows raise ListFormatError.
"""

from __future__ import annotations

import csv
import io
import re

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity, parse_each
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

MAX_ROWS = 100_000
KNOWN_COLUMNS = frozenset(
    {"id", "name", "schema", "aliases", "birth_date", "countries", "identifiers", "program"}
)
_SCHEMAS: dict[str, Schema] = {
    "person": "Person",
    "individual": "Person",
    "organization": "Organization",
    "organisation": "Organization",
    "company": "Organization",
    "entity": "Organization",
    "legalentity": "Organization",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
    "airplane": "Aircraft",
}
_ID_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def parse_watchlist_csv(
    data: bytes,
    *,
    version: str,
    code: str = "custom_watchlist",
    title: str = "Custom watchlist",
    source_url: str = "",
    checks: frozenset[str] = frozenset({"sanction"}),
    max_rows: int = MAX_ROWS,
) -> ListSnapshot:
    """Parse an uploaded watchlist CSV. Raises ListFormatError on a missing ``name`` column."""
    text = decode_legacy(data)
    first_line = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    try:
        header = next(reader)
    except StopIteration:
        raise ListFormatError("watchlist CSV: the file is empty (a header row is needed)") from None
    columns = [c.strip().lstrip("\ufeff").lower().replace(" ", "_") for c in header]
    if "name" not in columns:
        raise ListFormatError(
            f"watchlist CSV: required column 'name' is missing (found: {', '.join(columns)})"
        )
    collected = Collected()
    warnings = collected.warnings
    unknown = [c for c in columns if c and c not in KNOWN_COLUMNS]
    if unknown:
        warnings.append(f"unknown columns ignored: {', '.join(unknown)}")
    rows = 0
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        rows += 1
        if rows > max_rows:
            raise ListFormatError(f"watchlist CSV: more than {max_rows} rows")
        line_no = reader.line_num
        record = {col: row[i] for i, col in enumerate(columns) if i < len(row)}
        entity = _parse_row(record, line_no, code, warnings)
        if entity is not None and not collected.add(entity):
            warnings.append(f"line {line_no}: duplicate id {entity.entity_id!r}; row skipped")
    return collected.snapshot(
        code=code, title=title, version=version, source_url=source_url, checks=checks
    )


def _split(value: str | None) -> list[str]:
    if not value:
        return []
    return [part for part in (clean(p, empty="") for p in value.split(";")) if part]


def _parse_row(
    record: dict[str, str], line_no: int, code: str, warnings: list[str]
) -> ListEntity | None:
    name = clean(record.get("name"), empty="")
    if name is None:
        warnings.append(f"line {line_no}: empty name; row skipped")
        return None
    schema_text = (clean(record.get("schema"), empty="") or "person").lower().replace(" ", "")
    schema = _SCHEMAS.get(schema_text)
    if schema is None:
        warnings.append(f"line {line_no}: unknown schema {schema_text!r}; row skipped")
        return None
    names = [NameEntry(name, "primary")]
    names.extend(NameEntry(alias, "alias") for alias in _split(record.get("aliases")))
    birth_dates, bad_dates = parse_each(_split(record.get("birth_date")), parse_iso_date)
    for value in bad_dates:
        warnings.append(f"line {line_no}: birth_date {value!r} is not YYYY[-MM[-DD]]; dropped")
    countries, bad_countries = parse_each(_split(record.get("countries")), to_country_code)
    for value in bad_countries:
        warnings.append(f"line {line_no}: unknown country {value!r}; dropped")
    identifiers, bad_ids = parse_each(_split(record.get("identifiers")), _identifier)
    for value in bad_ids:
        warnings.append(f"line {line_no}: identifier {value!r} is not type:value; dropped")
    program = clean(record.get("program"), empty="")
    return build_entity(
        clean(record.get("id"), empty="") or f"row-{line_no}",
        code,
        schema,
        names,
        programs=[program] if program else [],
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
    )


def _identifier(value: str) -> tuple[str, str] | None:
    """``type:value`` to a pair, the type normalised to a short lowercase key; None if invalid."""
    id_type, sep, id_value = value.partition(":")
    id_type = id_type.strip().lower().replace(" ", "_")
    id_value = id_value.strip()
    if not sep or not id_value or not _ID_TYPE.match(id_type):
        return None
    return id_type, id_value

"""OpenSanctions ``targets.simple.csv`` to a ListSnapshot.

Format (https://www.opensanctions.org/docs/bulk/csv/): one row per target with ``id``,
``schema``, ``name``, ``aliases``, ``birth_date``, ``countries``, ``identifiers``,
``sanctions``, ``dataset`` and more; several values in one cell are separated by ``;``.
Countries are ISO codes, dates ISO prefixes, identifiers bare values (no type: kept as type
``identifier``). Schemas as in FollowTheMoney (Person, Organization, Company, LegalEntity,
Vessel, Airplane); other rows are skipped and counted in one warning. The list's date
(``published``) is the newest ``last_change`` of its rows (the export carries no positions: a
PEP hit on it names no position).

The file is read row by row from the bytes without decoding it whole (UTF-8, as the
publisher writes it), so a file of a few gigabytes costs its own size, not three times it.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import BinaryIO

from hakiki.engines.screening.model import ListSnapshot, NameEntry, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity, parse_each
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean

_SCHEMAS: dict[str, Schema] = {
    "Person": "Person",
    "Organization": "Organization",
    "Company": "Organization",
    "LegalEntity": "Organization",
    "PublicBody": "Organization",
    "Vessel": "Vessel",
    "Airplane": "Aircraft",
}
REQUIRED = ("id", "schema", "name")


def _split(value: str | None) -> list[str]:
    if not value:
        return []
    return [part for part in (clean(p, empty="") for p in value.split(";")) if part]


def _country(value: str) -> str | None:
    code = value.strip().lower()
    return code if len(code) == 2 and code.isalpha() else None


def parse_targets_simple_csv(
    data: bytes | BinaryIO,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "https://www.opensanctions.org/datasets/",
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse a ``targets.simple.csv`` export (bytes, or a binary file read a row at a time).
    Raises ListFormatError without its columns."""
    stream = io.BytesIO(data) if isinstance(data, bytes) else data  # a file: a row at a time
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="replace", newline="")
    reader = csv.DictReader(text)
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or ())]
    if missing:
        raise ListFormatError(f"targets.simple.csv: columns missing: {', '.join(missing)}")
    collected = Collected()
    warnings = collected.warnings
    skipped: Counter[str] = Counter()
    latest_change = ""
    for row in reader:
        line_no = reader.line_num
        latest_change = max(latest_change, row.get("last_change") or "")
        schema = _SCHEMAS.get(row.get("schema") or "")
        if schema is None:
            skipped[row.get("schema") or "(none)"] += 1
            continue
        name = clean(row.get("name"), empty="")
        if name is None:
            warnings.append(f"line {line_no}: empty name; row skipped")
            continue
        names = [NameEntry(name, "primary")]
        names.extend(NameEntry(alias, "alias") for alias in _split(row.get("aliases")))
        birth_dates, bad_dates = parse_each(_split(row.get("birth_date")), parse_iso_date)
        for value in bad_dates:
            warnings.append(f"line {line_no}: birth_date {value!r} not understood; dropped")
        countries, _ = parse_each(_split(row.get("countries")), _country)
        entity = build_entity(
            clean(row.get("id"), empty="") or f"row-{line_no}",
            code,
            schema,
            names,
            programs=_split(row.get("sanctions")) or _split(row.get("dataset")),
            birth_dates=birth_dates,
            countries=countries,
            identifiers=[("identifier", v) for v in _split(row.get("identifiers"))],
        )
        if not collected.add(entity):
            warnings.append(f"line {line_no}: duplicate id {entity.entity_id!r}; row skipped")
    if skipped:
        detail = ", ".join(f"{n} {s}" for s, n in sorted(skipped.items()))
        warnings.append(f"{sum(skipped.values())} non-screenable rows skipped ({detail})")
    return collected.snapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks,
        published=parse_iso_date(latest_change),
    )

"""A simple PEP list as CSV (an organisation's or a vendor's own) to a PEP ListSnapshot.

Header row required; column names are case-insensitive:

* ``name`` (required): the person's name, in reading order.
* ``id``: the list's own reference. Rows sharing an id are one person holding several
  positions (names, aliases and countries are merged); without an id each row is a person
  (``row-<line number>``).
* ``aliases``: semicolon-separated other names.
* ``birth_date``: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``.
* ``gender``: ``male``/``female`` (``m``/``f``).
* ``countries``: the person's countries, semicolon-separated ISO codes or names.
* ``position``: the public position (``Member of Parliament, Kisumu Central``).
* ``position_country``: the position's country (default: the first of ``countries``).
* ``start_date``, ``end_date``: the tenure, ISO prefixes; an ``end_date`` in the past means
  the tenure has ended.
* ``status``: ``current`` or ``ended`` when the list knows it without dates.
* ``last_change``: when the row last changed; the newest is the list's date unless the
  operator states one.

The delimiter may be ``,``, ``;`` or a tab (taken from the header line). UTF-8 (with or without
BOM) and cp1252 are read. A missing ``name`` column raises ListFormatError; a row without a
name is skipped with a warning giving its line number; an unreadable date or country is
dropped with a warning.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListSnapshot, NameEntry, PepPosition
from hakiki.engines.screening.parsers.builder import Collected, build_entity
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

COLUMNS = (
    "id",
    "name",
    "aliases",
    "birth_date",
    "gender",
    "countries",
    "position",
    "position_country",
    "start_date",
    "end_date",
    "status",
    "last_change",
)
_GENDERS = {"male": "male", "m": "male", "female": "female", "f": "female"}
_STATUS = {"current": "current", "ended": "ended", "former": "ended"}


@dataclass
class _Person:
    names: list[NameEntry] = field(default_factory=list)
    birth_dates: list[str] = field(default_factory=list)
    gender: str | None = None
    countries: list[str] = field(default_factory=list)
    positions: list[PepPosition] = field(default_factory=list)


def _split(value: str | None) -> list[str]:
    return [p for p in (clean(v, empty="") for v in (value or "").split(";")) if p]


def _date(value: str | None, column: str, line: int, warnings: list[str]) -> str | None:
    text = clean(value, empty="")
    if not text:
        return None
    parsed = parse_iso_date(text)
    if parsed is None:
        warnings.append(f"line {line}: {column} {text!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
    return parsed


def parse_pep_csv(
    data: bytes,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "",
    checks: frozenset[str] = frozenset({"pep"}),
    country: str | None = None,
) -> ListSnapshot:
    """Parse a PEP CSV; ``country`` is the default for rows that name none."""
    text = decode_legacy(data)
    header = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=header.count)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    columns = {(c or "").strip().lower(): c for c in reader.fieldnames or ()}
    if "name" not in columns:
        raise ListFormatError(f"PEP CSV: no 'name' column (columns: {', '.join(COLUMNS)})")
    collected = Collected()
    warnings = collected.warnings
    people: dict[str, _Person] = {}
    latest_change = ""
    for raw in reader:
        line = reader.line_num
        row = {key: raw.get(original) for key, original in columns.items()}
        name = clean(row.get("name"), empty="")
        if not name:
            warnings.append(f"line {line}: no name; row skipped")
            continue
        person = people.setdefault(clean(row.get("id"), empty="") or f"row-{line}", _Person())
        person.names.append(NameEntry(name, "primary" if not person.names else "alias"))
        person.names.extend(NameEntry(alias, "alias") for alias in _split(row.get("aliases")))
        birth = _date(row.get("birth_date"), "birth_date", line, warnings)
        person.birth_dates.extend([birth] if birth else [])
        person.gender = person.gender or _GENDERS.get((row.get("gender") or "").strip().lower())
        for value in _split(row.get("countries")):
            found = to_country_code(value)
            if found is None:
                warnings.append(f"line {line}: country {value!r} not recognised; dropped")
            else:
                person.countries.append(found)
        latest_change = max(latest_change, parse_iso_date(row.get("last_change")) or "")
        posted = clean(row.get("position"), empty="")
        start = _date(row.get("start_date"), "start_date", line, warnings)
        end = _date(row.get("end_date"), "end_date", line, warnings)
        status = _STATUS.get((row.get("status") or "").strip().lower())
        if posted or start or end or status:
            where = to_country_code(clean(row.get("position_country"), empty="") or "")
            person.positions.append(
                PepPosition(
                    title=posted,
                    country=where or next(iter(person.countries), None) or country,
                    start_date=start,
                    end_date=end,
                    status=status,
                )
            )
    for entity_id, person in people.items():
        collected.add(
            build_entity(
                entity_id,
                code,
                "Person",
                person.names,
                birth_dates=person.birth_dates,
                countries=person.countries or ([country] if country else []),
                gender=person.gender,
                positions=person.positions,
            )
        )
    return collected.snapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks,
        published=latest_change or None,
    )

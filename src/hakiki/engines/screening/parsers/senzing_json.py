"""Senzing entity-specification JSON (e.g. OpenSanctions ``senzing.json``) to a ListSnapshot.

Format (https://senzing.com/docs/entity_specification/): JSON lines (a JSON array is also
read), one record per line with ``RECORD_ID``, ``RECORD_TYPE`` (PERSON, ORGANIZATION, VESSEL,
AIRCRAFT), ``NAMES`` [{``NAME_TYPE`` PRIMARY/ALIAS, ``NAME_FULL`` or ``NAME_FIRST``/
``NAME_MIDDLE``/``NAME_LAST`` or ``NAME_ORG``}], ``DATES`` [{``DATE_OF_BIRTH``}],
``COUNTRIES`` [{``NATIONALITY``/``CITIZENSHIP``/``REGISTRATION_COUNTRY``}], ``IDENTIFIERS``
(``PASSPORT_NUMBER``, ``NATIONAL_ID_NUMBER``, ``TAX_ID_NUMBER``, ``LEI_NUMBER``,
``TRUSTED_ID_TYPE``/``NUMBER``...), ``GENDER`` and ``RISKS`` [{``TOPIC``}].

Records without a RECORD_TYPE are not screened (OpenSanctions exports public positions this
way: ``NAMES`` the position's title, ``COUNTRIES`` its country); a person's ``RELATIONSHIPS``
item with ``REL_POINTER_ROLE`` ``Occupancy`` points at one by ``REL_POINTER_KEY`` and becomes
one of the person's positions (Senzing carries no tenure dates). Topics give the list's
checks: ``role.pep`` -> ``pep``, ``sanction`` -> ``sanction`` (unless ``checks`` is given).
The list's date (``published``) is the newest ``LAST_CHANGE`` of its records.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, BinaryIO

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import (
    ListEntity,
    ListSnapshot,
    NameEntry,
    NameKind,
    PepPosition,
    Schema,
)
from hakiki.engines.screening.parsers.builder import Collected, build_entity, parse_each
from hakiki.engines.screening.parsers.common import (
    add_topic_checks,
    json_records,
    parse_iso_date,
    person_name,
)
from hakiki.engines.screening.parsers.text import ListFormatError, clean

_SCHEMAS: dict[str, Schema] = {
    "PERSON": "Person",
    "ORGANIZATION": "Organization",
    "VESSEL": "Vessel",
    "AIRCRAFT": "Aircraft",
}
_COUNTRY_KEYS = ("NATIONALITY", "CITIZENSHIP", "REGISTRATION_COUNTRY", "COUNTRY_OF_ASSOCIATION")
_ID_KEYS = {
    "PASSPORT_NUMBER": "passport",
    "NATIONAL_ID_NUMBER": "national_id",
    "SSN_NUMBER": "national_id",
    "TAX_ID_NUMBER": "tax_id",
    "LEI_NUMBER": "lei",
    "DUNS_NUMBER": "duns",
}


def parse_senzing_json(
    data: bytes | BinaryIO,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "https://www.opensanctions.org/datasets/",
    checks: frozenset[str] | None = None,
) -> ListSnapshot:
    """Parse Senzing JSON lines or a JSON array of records."""
    collected = Collected()
    warnings = collected.warnings
    untyped = 0
    topic_checks: set[str] = set()
    posts: dict[str, PepPosition] = {}  # untyped records: positions, by RECORD_ID
    occupied: dict[str, list[str]] = {}  # person RECORD_ID -> the position ids it points at
    latest_change = ""
    for position, record, error in json_records(data, "Senzing JSON"):
        if error is not None:
            warnings.append(error)
            continue
        if not isinstance(record, dict) or "RECORD_ID" not in record:
            if not collected.entities and not untyped:
                raise ListFormatError(f"Senzing JSON: record {position} has no RECORD_ID")
            warnings.append(f"record {position}: not a Senzing record; skipped")
            continue
        latest_change = max(latest_change, str(record.get("LAST_CHANGE") or ""))
        record_type = record.get("RECORD_TYPE")
        if record_type is None:
            untyped += 1
            post = _position(record)
            if post is not None:
                posts[str(record["RECORD_ID"])] = post
            continue
        schema = _SCHEMAS.get(str(record_type).upper())
        if schema is None:
            warnings.append(f"record {position}: unknown RECORD_TYPE {record_type!r}; skipped")
            continue
        entity = _parse_record(record, schema, code, position, warnings, topic_checks)
        if entity is not None and not collected.add(entity):
            warnings.append(f"record {position}: duplicate RECORD_ID {entity.entity_id} skipped")
        elif entity is not None:
            keys = [
                key
                for item in _items(record, "RELATIONSHIPS")
                if (_str(item, "REL_POINTER_ROLE") or "").lower() == "occupancy"
                and (key := _str(item, "REL_POINTER_KEY"))
            ]
            if keys:
                occupied[entity.entity_id] = keys
    if untyped:
        warnings.append(f"{untyped} records without RECORD_TYPE skipped")
    if checks is None:
        checks = frozenset(topic_checks)
    if occupied:
        collected.entities = [
            replace(e, positions=held) if (held := _held(occupied.get(e.entity_id), posts)) else e
            for e in collected.entities
        ]
    return collected.snapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks,
        published=parse_iso_date(latest_change),
    )


def _position(record: dict[str, Any]) -> PepPosition | None:
    names = [n for item in _items(record, "NAMES") if (n := _str(item, "NAME_FULL"))]
    if not names:
        return None
    country = next(
        (
            code
            for item in _items(record, "COUNTRIES")
            for key in _COUNTRY_KEYS
            if (code := to_country_code(_str(item, key)))
        ),
        None,
    )
    return PepPosition(title=names[0], country=country)


def _held(keys: list[str] | None, posts: dict[str, PepPosition]) -> tuple[PepPosition, ...]:
    return tuple(dict.fromkeys(posts[k] for k in keys or () if k in posts))


def _items(record: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = record.get(key)
    return [i for i in value if isinstance(i, dict)] if isinstance(value, list) else []


def _str(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    return clean(str(value), empty="") if value is not None else None


def _name(item: dict[str, Any], schema: Schema) -> NameEntry | None:
    kind: NameKind = "primary" if (_str(item, "NAME_TYPE") or "").upper() == "PRIMARY" else "alias"
    full = _str(item, "NAME_FULL") or _str(item, "NAME_ORG")
    if full:
        return NameEntry(full, kind)
    given = " ".join(p for p in (_str(item, "NAME_FIRST"), _str(item, "NAME_MIDDLE")) if p)
    return person_name(given or None, _str(item, "NAME_LAST"), kind)


def _parse_record(
    record: dict[str, Any],
    schema: Schema,
    code: str,
    position: int,
    warnings: list[str],
    topic_checks: set[str],
) -> ListEntity | None:
    record_id = _str(record, "RECORD_ID")
    names = [n for n in (_name(i, schema) for i in _items(record, "NAMES")) if n is not None]
    if record_id is None or not names:
        warnings.append(f"record {position}: no RECORD_ID or name; skipped")
        return None
    if not any(n.kind == "primary" for n in names):
        names[0] = NameEntry(names[0].name, "primary", given=names[0].given, family=names[0].family)
    raw_dates = [raw for item in _items(record, "DATES") if (raw := _str(item, "DATE_OF_BIRTH"))]
    birth_dates, unreadable = parse_each(raw_dates, parse_iso_date)
    warnings.extend(f"{record_id}: unreadable DATE_OF_BIRTH {raw!r} ignored" for raw in unreadable)
    countries = [
        to_country_code(_str(item, key))
        for item in _items(record, "COUNTRIES")
        for key in _COUNTRY_KEYS
    ]
    identifiers: list[tuple[str, str]] = []
    for item in _items(record, "IDENTIFIERS"):
        for key, id_type in _ID_KEYS.items():
            value = _str(item, key)
            if value:
                identifiers.append((id_type, value))
        trusted_type, trusted = _str(item, "TRUSTED_ID_TYPE"), _str(item, "TRUSTED_ID_NUMBER")
        if trusted_type and trusted:
            identifiers.append((trusted_type.lower(), trusted))
    add_topic_checks((_str(item, "TOPIC") for item in _items(record, "RISKS")), topic_checks)
    gender = {"M": "male", "F": "female", "MALE": "male", "FEMALE": "female"}.get(
        (_str(record, "GENDER") or "").upper()
    )
    return build_entity(
        record_id,
        code,
        schema,
        names,
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
        gender=gender,
    )

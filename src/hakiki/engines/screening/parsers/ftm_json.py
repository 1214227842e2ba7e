"""OpenSanctions / FollowTheMoney entities (``entities.ftm.json``) to a ListSnapshot.

Format (https://www.opensanctions.org/docs/bulk/json/): JSON lines (a JSON array is also
read), one entity per line with ``id``, ``schema``, ``caption``, ``properties`` (every value
a list of strings) and ``datasets``. Only screenable schemata are kept: Person, Organization,
Company, LegalEntity (-> Organization), Vessel and Airplane (-> Aircraft); the rest (Sanction,
Address, Occupancy, Family...) is skipped and counted in one warning.

Names: the ``caption`` (or first ``name``) is primary, other ``name``/``alias``/
``previousName`` values aliases, ``weakAlias`` weak aliases. Topics give the list's checks:
``role.pep`` -> ``pep``, ``sanction`` -> ``sanction`` (unless ``checks`` is given).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.common import json_records, parse_iso_date, unique_names
from hakiki.engines.screening.parsers.text import ListFormatError, clean, unique

_SCHEMAS: dict[str, Schema] = {
    "Person": "Person",
    "Organization": "Organization",
    "Company": "Organization",
    "LegalEntity": "Organization",
    "PublicBody": "Organization",
    "Vessel": "Vessel",
    "Airplane": "Aircraft",
}
_TOPIC_CHECKS = {"role.pep": "pep", "sanction": "sanction"}
_NAME_PROPS: tuple[tuple[str, NameKind], ...] = (
    ("name", "alias"),
    ("alias", "alias"),
    ("previousName", "alias"),
    ("weakAlias", "weak_alias"),
)
_COUNTRY_PROPS = ("nationality", "citizenship", "country", "birthCountry", "jurisdiction", "flag")
_ID_PROPS = {
    "passportNumber": "passport",
    "idNumber": "national_id",
    "taxNumber": "tax_id",
    "innCode": "tax_id",
    "vatCode": "tax_id",
    "registrationNumber": "registration",
    "ogrnCode": "registration",
    "leiCode": "lei",
    "swiftBic": "swift_bic",
    "imoNumber": "imo",
    "mmsi": "mmsi",
    "callSign": "call_sign",
    "serialNumber": "msn",
}


def parse_ftm_json(
    data: bytes,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "https://www.opensanctions.org/datasets/",
    checks: frozenset[str] | None = None,
) -> ListSnapshot:
    """Parse FtM entity JSON lines. ``checks`` defaults to those derived from the topics."""
    warnings: list[str] = []
    entities: list[ListEntity] = []
    seen: set[str] = set()
    skipped: Counter[str] = Counter()
    topic_checks: set[str] = set()
    for position, record, error in json_records(data, "FtM JSON"):
        if error is not None:
            warnings.append(error)
            continue
        if not isinstance(record, dict) or "schema" not in record:
            if not entities and not skipped:
                raise ListFormatError(f"FtM JSON: record {position} has no schema")
            warnings.append(f"record {position}: not an FtM entity; skipped")
            continue
        schema = _SCHEMAS.get(str(record["schema"]))
        if schema is None:
            skipped[str(record["schema"])] += 1
            continue
        entity = _parse_entity(record, schema, code, position, warnings, topic_checks)
        if entity is None:
            continue
        if entity.entity_id in seen:
            warnings.append(f"record {position}: duplicate id {entity.entity_id} skipped")
            continue
        seen.add(entity.entity_id)
        entities.append(entity)
    if skipped:
        detail = ", ".join(f"{n} {s}" for s, n in sorted(skipped.items()))
        warnings.append(f"{sum(skipped.values())} non-screenable entities skipped ({detail})")
    return ListSnapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks if checks is not None else frozenset(topic_checks),
        entities=tuple(entities),
        warnings=tuple(warnings),
    )


def _values(properties: dict[str, Any], prop: str) -> list[str]:
    raw = properties.get(prop)
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    return [text for text in (clean(str(v), empty="") for v in items) if text]


def _parse_entity(
    record: dict[str, Any],
    schema: Schema,
    code: str,
    position: int,
    warnings: list[str],
    topic_checks: set[str],
) -> ListEntity | None:
    entity_id = clean(str(record.get("id") or ""), empty="")
    properties = record.get("properties")
    if not isinstance(properties, dict):
        properties = {}
    names: list[NameEntry] = []
    caption = clean(str(record.get("caption") or ""), empty="")
    all_names = _values(properties, "name")
    primary = caption if caption and caption in all_names else next(iter(all_names), None)
    if primary:
        names.append(NameEntry(primary, "primary"))
    for prop, kind in _NAME_PROPS:
        names.extend(NameEntry(v, kind) for v in _values(properties, prop))
    if entity_id is None or not names:
        warnings.append(f"record {position}: no id or name; skipped")
        return None
    birth_dates: list[str] = []
    for value in _values(properties, "birthDate"):
        parsed = parse_iso_date(value)
        if parsed:
            birth_dates.append(parsed)
        else:
            warnings.append(f"{entity_id}: unreadable birthDate {value!r} ignored")
    countries = [to_country_code(v) for p in _COUNTRY_PROPS for v in _values(properties, p)]
    identifiers = [(t, v) for p, t in _ID_PROPS.items() for v in _values(properties, p)]
    for topic in _values(properties, "topics"):
        if topic in _TOPIC_CHECKS:
            topic_checks.add(_TOPIC_CHECKS[topic])
    gender = next(iter(_values(properties, "gender")), None)
    programs = _values(properties, "program") + _values(properties, "programId")
    notes = _values(properties, "notes")
    return ListEntity(
        entity_id=entity_id,
        list_code=code,
        schema=schema,
        names=unique_names(names),
        programs=unique(programs),
        birth_dates=unique(birth_dates),
        countries=unique(c for c in countries if c),
        identifiers=tuple(dict.fromkeys(identifiers)),
        gender=gender if gender in ("male", "female") else None,
        remarks=notes[0] if notes else None,
    )

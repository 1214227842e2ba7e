"""OpenSanctions / FollowTheMoney entities (``entities.ftm.json``) to a ListSnapshot.

Format (https://www.opensanctions.org/docs/bulk/json/): JSON lines (a JSON array is also
read), one entity per line with ``id``, ``schema``, ``caption``, ``properties`` (every value
a list of strings) and ``datasets``. Only screenable schemata are kept: Person, Organization,
Company, LegalEntity (-> Organization), Vessel and Airplane (-> Aircraft); the rest (Sanction,
Address, Occupancy, Family...) is skipped and counted in one warning.

Names: the ``caption`` (or first ``name``) is primary, other ``name``/``alias``/
``previousName`` values aliases, ``weakAlias`` weak aliases. Topics give the list's checks:
``role.pep`` -> ``pep``, ``sanction`` -> ``sanction`` (unless ``checks`` is given).

PEP exports model a public position as a graph: ``Position`` (``name``, ``country``) and
``Occupancy`` (``holder`` -> the person, ``post`` -> the Position, ``startDate``,
``endDate``, ``status`` current/ended). Each occupancy becomes one of its holder's
:class:`PepPosition` (an occupancy without a ``post`` keeps its dates, title unknown); a
person's own ``position`` texts not already named so are added without dates. The list's
date (``published``) is the newest ``last_change`` of its records.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
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
from hakiki.engines.screening.parsers.common import add_topic_checks, json_records, parse_iso_date
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
_OCCUPANCY_STATUS = {"current": "current", "ended": "ended"}


@dataclass
class _Graph:
    """Positions and occupancies seen while reading, resolved into persons at the end."""

    posts: dict[str, tuple[str | None, str | None]]  # Position id -> (name, country)
    held: defaultdict[str, list[tuple[str | None, dict[str, Any]]]]  # holder -> (post, props)
    latest_change: str = ""

    def add_position(self, record: dict[str, Any], properties: dict[str, Any]) -> None:
        name = next(iter(_values(properties, "name")), None) or clean(
            str(record.get("caption") or ""), empty=""
        )
        country = next(
            (c for c in (to_country_code(v) for v in _values(properties, "country")) if c), None
        )
        self.posts[str(record.get("id"))] = (name, country)

    def add_occupancy(self, properties: dict[str, Any]) -> None:
        post = next(iter(_values(properties, "post")), None)
        for holder in _values(properties, "holder"):
            self.held[holder].append((post, properties))

    def positions(self, entity: ListEntity, texts: list[str]) -> tuple[PepPosition, ...]:
        found: list[PepPosition] = []
        for post, properties in self.held.get(entity.entity_id, ()):
            title, country = self.posts.get(post, (None, None)) if post else (None, None)
            status = next(iter(_values(properties, "status")), None)
            found.append(
                PepPosition(
                    title=title,
                    country=country,
                    start_date=_first_date(properties, "startDate"),
                    end_date=_first_date(properties, "endDate"),
                    status=_OCCUPANCY_STATUS.get((status or "").lower()),
                )
            )
        named = {p.title.casefold() for p in found if p.title}
        found.extend(PepPosition(title=t) for t in texts if t.casefold() not in named)
        return tuple(dict.fromkeys(found))


def _first_date(properties: dict[str, Any], prop: str) -> str | None:
    return next((d for d in map(parse_iso_date, _values(properties, prop)) if d), None)


def parse_ftm_json(
    data: bytes | BinaryIO,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "https://www.opensanctions.org/datasets/",
    checks: frozenset[str] | None = None,
) -> ListSnapshot:
    """Parse FtM entity JSON lines. ``checks`` defaults to those derived from the topics."""
    collected = Collected()
    warnings = collected.warnings
    skipped: Counter[str] = Counter()
    topic_checks: set[str] = set()
    graph = _Graph(posts={}, held=defaultdict(list))
    position_texts: dict[str, list[str]] = {}
    for position, record, error in json_records(data, "FtM JSON"):
        if error is not None:
            warnings.append(error)
            continue
        if not isinstance(record, dict) or "schema" not in record:
            if not collected.entities and not skipped:
                raise ListFormatError(f"FtM JSON: record {position} has no schema")
            warnings.append(f"record {position}: not an FtM entity; skipped")
            continue
        graph.latest_change = max(graph.latest_change, str(record.get("last_change") or ""))
        properties = record.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        if record["schema"] == "Position":
            graph.add_position(record, properties)
            continue
        if record["schema"] == "Occupancy":
            graph.add_occupancy(properties)
            continue
        schema = _SCHEMAS.get(str(record["schema"]))
        if schema is None:
            skipped[str(record["schema"])] += 1
            continue
        entity = _parse_entity(record, schema, code, position, warnings, topic_checks)
        if entity is not None and not collected.add(entity):
            warnings.append(f"record {position}: duplicate id {entity.entity_id} skipped")
        elif entity is not None and schema == "Person":
            texts = _values(properties, "position")
            if texts:
                position_texts[entity.entity_id] = texts
    if skipped:
        detail = ", ".join(f"{n} {s}" for s, n in sorted(skipped.items()))
        warnings.append(f"{sum(skipped.values())} non-screenable entities skipped ({detail})")
    if checks is None:
        checks = frozenset(topic_checks)
    if graph.held or position_texts:
        collected.entities = [
            replace(e, positions=graph.positions(e, position_texts.get(e.entity_id, [])))
            if e.entity_id in graph.held or e.entity_id in position_texts
            else e
            for e in collected.entities
        ]
    return collected.snapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks,
        published=parse_iso_date(graph.latest_change),
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
    birth_dates, unreadable = parse_each(_values(properties, "birthDate"), parse_iso_date)
    warnings.extend(f"{entity_id}: unreadable birthDate {value!r} ignored" for value in unreadable)
    countries = [to_country_code(v) for p in _COUNTRY_PROPS for v in _values(properties, p)]
    identifiers = [(t, v) for p, t in _ID_PROPS.items() for v in _values(properties, p)]
    add_topic_checks(_values(properties, "topics"), topic_checks)
    gender = next(iter(_values(properties, "gender")), None)
    programs = _values(properties, "program") + _values(properties, "programId")
    notes = _values(properties, "notes")
    return build_entity(
        entity_id,
        code,
        schema,
        names,
        programs=programs,
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
        gender=gender if gender in ("male", "female") else None,
        remarks=notes[0] if notes else None,
    )

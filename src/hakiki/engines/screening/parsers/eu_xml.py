"""EU financial sanctions consolidated list (FSF XML export) to a ListSnapshot.

Source: https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content
(namespace ``http://eu.europa.ec/fpi/fsd/export``). Root ``export`` with ``generationDate``;
one ``sanctionEntity`` per listed subject (``@logicalId``, ``@euReferenceNumber``) with
``subjectType/@code`` (``person`` or ``enterprise``), ``nameAlias`` (``@wholeName``,
``@firstName``, ``@middleName``, ``@lastName``, ``@strong``, ``@gender``), ``regulation``
(``@programme``), ``citizenship`` (``@countryIso2Code``), ``birthdate`` (``@birthdate``,
``@year``, ``@monthOfYear``, ``@dayOfMonth``, ``@yearRangeFrom``/``@yearRangeTo``,
``@countryIso2Code``), ``identification`` (``@identificationTypeCode``, ``@number``,
``@latinNumber``, ``@countryIso2Code``) and ``address`` (``@countryIso2Code``).

The first strong ``nameAlias`` is the primary name, other strong ones aliases,
``strong="false"`` ones weak aliases. Country code ``00`` (unknown) is dropped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity
from hakiki.engines.screening.parsers.common import (
    iso_date,
    parse_iso_date,
    parse_xml,
    person_name,
)
from hakiki.engines.screening.parsers.text import ListFormatError, clean, year_range

EU_FSF_XML_URL = (
    "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content"
)

_SCHEMAS: dict[str, Schema] = {
    "person": "Person",
    "enterprise": "Organization",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
}
_ID_TYPES = {
    "passport": "passport",
    "id": "national_id",
    "ssn": "national_id",
    "fiscalcode": "tax_id",
    "tin": "tax_id",
    "regnumber": "registration",
    "imo": "imo",
    "swiftbic": "swift_bic",
}


def parse_eu_xml(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "eu_fsf",
    title: str = "EU Financial Sanctions Files (FSF) Consolidated List",
    source_url: str = EU_FSF_XML_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse the EU FSF XML export. Raises ListFormatError if the file is not that XML."""
    root = parse_xml(data, "EU XML")
    if root.tag != "export":
        raise ListFormatError(f"EU XML: unexpected root element {root.tag!r}")
    list_version = version or parse_iso_date(root.get("generationDate"))
    if not list_version:
        raise ListFormatError("EU XML: no generationDate attribute and no version given")
    collected = Collected()
    for position, element in enumerate(root.iterfind("sanctionEntity"), 1):
        entity = _parse_entity(element, code, position, collected.warnings)
        if entity is not None and not collected.add(entity):
            collected.warnings.append(
                f"sanctionEntity #{position}: duplicate {entity.entity_id} skipped"
            )
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _attr(element: ET.Element, name: str) -> str | None:
    return clean(element.get(name), empty="")


def _country(element: ET.Element) -> str | None:
    code = (_attr(element, "countryIso2Code") or "").lower()
    if code and code != "00":
        return to_country_code(code)
    return to_country_code(_attr(element, "countryDescription"))


def _parse_entity(
    element: ET.Element, code: str, position: int, warnings: list[str]
) -> ListEntity | None:
    logical_id = _attr(element, "logicalId")
    subject = element.find("subjectType")
    subject_code = (_attr(subject, "code") or "").lower() if subject is not None else ""
    schema = _SCHEMAS.get(subject_code)
    if logical_id is None or schema is None:
        warnings.append(
            f"sanctionEntity #{position}: no logicalId or unknown subjectType "
            f"{subject_code!r}; skipped"
        )
        return None
    names: list[NameEntry] = []
    gender: str | None = None
    for alias in element.iterfind("nameAlias"):
        strong = (_attr(alias, "strong") or "true").lower() != "false"
        kind: NameKind = "alias" if strong else "weak_alias"
        if strong and not any(n.kind == "primary" for n in names):
            kind = "primary"
        entry = _alias_name(alias, kind, schema)
        if entry is not None:
            names.append(entry)
        sex = (_attr(alias, "gender") or "").upper()
        gender = gender or {"M": "male", "F": "female"}.get(sex)
    if not names:
        warnings.append(f"sanctionEntity {logical_id}: no name; skipped")
        return None
    if not any(n.kind == "primary" for n in names):
        first = names[0]
        names[0] = NameEntry(first.name, "primary", first.original, first.given, first.family)
    countries: list[str] = []
    for path in ("citizenship", "birthdate", "address"):
        for node in element.iterfind(path):
            country = _country(node)
            if country:
                countries.append(country)
    identifiers: list[tuple[str, str]] = []
    for node in element.iterfind("identification"):
        number = _attr(node, "number") or _attr(node, "latinNumber")
        if not number:
            continue
        id_code = (_attr(node, "identificationTypeCode") or "").lower()
        identifiers.append((_ID_TYPES.get(id_code, "other"), number))
    programs = [_attr(r, "programme") or "" for r in element.iterfind("regulation")]
    return build_entity(
        logical_id,
        code,
        schema,
        names,
        programs=programs,
        birth_dates=_birth_dates(element, logical_id, warnings),
        countries=countries,
        identifiers=identifiers,
        gender=gender if schema == "Person" else None,
        remarks=clean(element.findtext("remark"), empty=""),
    )


def _alias_name(alias: ET.Element, kind: NameKind, schema: Schema) -> NameEntry | None:
    whole = _attr(alias, "wholeName")
    first = " ".join(p for p in (_attr(alias, "firstName"), _attr(alias, "middleName")) if p)
    last = _attr(alias, "lastName")
    if schema == "Person" and first and last:
        entry = person_name(first, last, kind)
        if entry is not None and (whole is None or whole.casefold() == entry.name.casefold()):
            return entry
    if whole:
        return NameEntry(whole, kind)
    return person_name(first or None, last, kind)


def _birth_dates(element: ET.Element, logical_id: str, warnings: list[str]) -> list[str]:
    dates: list[str] = []
    for node in element.iterfind("birthdate"):
        full = _attr(node, "birthdate")
        year, month, day = (_attr(node, a) for a in ("year", "monthOfYear", "dayOfMonth"))
        start, end = _attr(node, "yearRangeFrom"), _attr(node, "yearRangeTo")
        parsed: str | None = None
        if full:
            parsed = parse_iso_date(full)
        elif year and year.isdigit():
            parsed = iso_date(
                int(year),
                int(month) if month and month.isdigit() else None,
                int(day) if day and day.isdigit() else None,
            )
        elif start and end and start.isdigit() and end.isdigit():
            dates.extend(year_range(int(start), int(end)))
            continue
        else:
            continue
        if parsed:
            dates.append(parsed)
        else:
            warnings.append(f"sanctionEntity {logical_id}: unreadable birthdate ignored")
    return dates

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

The entity is assembled by :mod:`.eu_common`, shared with the EU CSV parser.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.common import parse_iso_date, parse_xml
from hakiki.engines.screening.parsers.eu_common import (
    EU_FSF_TITLE,
    EU_FSF_XML_URL,
    EuAlias,
    EuBirthDate,
    EuIdentification,
    EuSubject,
    eu_entity,
    eu_schema,
)
from hakiki.engines.screening.parsers.text import ListFormatError, clean


def parse_eu_xml(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "eu_fsf",
    title: str = EU_FSF_TITLE,
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
        subject = _subject(element, position, collected.warnings)
        if subject is None:
            continue
        label = f"sanctionEntity {subject.logical_id}"
        entity = eu_entity(subject, code, label, collected.warnings)
        if entity is not None and not collected.add(entity):
            collected.warnings.append(
                f"sanctionEntity #{position}: duplicate {entity.entity_id} skipped"
            )
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _attr(element: ET.Element, name: str) -> str | None:
    return clean(element.get(name), empty="")


def _country(element: ET.Element) -> tuple[str | None, str | None]:
    return _attr(element, "countryIso2Code"), _attr(element, "countryDescription")


def _subject(element: ET.Element, position: int, warnings: list[str]) -> EuSubject | None:
    logical_id = _attr(element, "logicalId")
    subject_type = element.find("subjectType")
    type_code = _attr(subject_type, "code") if subject_type is not None else None
    schema = eu_schema(type_code)
    if logical_id is None or schema is None:
        warnings.append(
            f"sanctionEntity #{position}: no logicalId or unknown subjectType "
            f"{(type_code or '').lower()!r}; skipped"
        )
        return None
    return EuSubject(
        logical_id=logical_id,
        schema=schema,
        aliases=[
            EuAlias(
                whole=_attr(a, "wholeName"),
                first=_attr(a, "firstName"),
                middle=_attr(a, "middleName"),
                last=_attr(a, "lastName"),
                strong=(_attr(a, "strong") or "true").lower() != "false",
                gender=_attr(a, "gender"),
            )
            for a in element.iterfind("nameAlias")
        ],
        programmes=[_attr(r, "programme") or "" for r in element.iterfind("regulation")],
        citizenships=[_country(c) for c in element.iterfind("citizenship")],
        birth_dates=[
            EuBirthDate(
                full=_attr(b, "birthdate"),
                year=_attr(b, "year"),
                month=_attr(b, "monthOfYear"),
                day=_attr(b, "dayOfMonth"),
                range_from=_attr(b, "yearRangeFrom"),
                range_to=_attr(b, "yearRangeTo"),
                country=_attr(b, "countryIso2Code"),
                country_description=_attr(b, "countryDescription"),
            )
            for b in element.iterfind("birthdate")
        ],
        identifications=[
            EuIdentification(
                type_code=_attr(i, "identificationTypeCode"),
                number=_attr(i, "number"),
                latin_number=_attr(i, "latinNumber"),
            )
            for i in element.iterfind("identification")
        ],
        addresses=[_country(a) for a in element.iterfind("address")],
        remark=clean(element.findtext("remark"), empty=""),
    )

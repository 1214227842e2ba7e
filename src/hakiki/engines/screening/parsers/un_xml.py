"""UN Security Council consolidated list (XML) to a ListSnapshot.

Source: https://scsanctions.un.org/resources/xml/en/consolidated.xml (schema
https://www.un.org/sc/resources/sc-sanctions.xsd): CONSOLIDATED_LIST/INDIVIDUALS/INDIVIDUAL and
CONSOLIDATED_LIST/ENTITIES/ENTITY. The list version is the date of ``dateGenerated``.

Alias quality ``Good`` and ``a.k.a.``/``f.k.a.`` give ``alias`` names, ``Low`` gives
``weak_alias``. The name in original script, when given, is kept as an alias. Documents of
type passport or national identification number become identifiers.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity
from hakiki.engines.screening.parsers.text import ListFormatError, clean, year_range

UN_CONSOLIDATED_URL = "https://scsanctions.un.org/resources/xml/en/consolidated.xml"

_NAME_PARTS = ("FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME")
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_WEAK_QUALITIES = frozenset({"low"})


def parse_un_xml(
    data: bytes,
    *,
    code: str = "un_sc_consolidated",
    title: str = "UN Security Council Consolidated List",
    source_url: str = UN_CONSOLIDATED_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
    version: str | None = None,
) -> ListSnapshot:
    """Parse the UN consolidated XML. Raises ListFormatError if the file is not that XML."""
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in head:
        raise ListFormatError("UN XML: document type declarations are not accepted")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ListFormatError(f"UN XML: not well-formed: {exc}") from exc
    if root.tag != "CONSOLIDATED_LIST":
        raise ListFormatError(f"UN XML: unexpected root element {root.tag!r}")
    generated = root.get("dateGenerated") or ""
    list_version = version or generated[:10]
    if not list_version:
        raise ListFormatError("UN XML: no dateGenerated attribute and no version given")
    collected = Collected()
    for kind, path in (("Person", "INDIVIDUALS/INDIVIDUAL"), ("Organization", "ENTITIES/ENTITY")):
        schema: Schema = "Person" if kind == "Person" else "Organization"
        for position, element in enumerate(root.iterfind(path), 1):
            entity = _parse_record(element, schema, code, position, collected.warnings)
            if entity is not None and not collected.add(entity):
                collected.warnings.append(
                    f"{path} #{position}: duplicate {entity.entity_id} skipped"
                )
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _text(element: ET.Element, path: str) -> str | None:
    return clean(element.findtext(path), empty="")


def _parse_record(
    element: ET.Element, schema: Schema, code: str, position: int, warnings: list[str]
) -> ListEntity | None:
    prefix = "INDIVIDUAL" if schema == "Person" else "ENTITY"
    reference = _text(element, "REFERENCE_NUMBER") or _text(element, "DATAID")
    parts = [p for p in (_text(element, tag) for tag in _NAME_PARTS) if p]
    if reference is None or not parts:
        warnings.append(f"{prefix} #{position}: no reference number or name; skipped")
        return None
    names = [NameEntry(" ".join(parts), "primary")]
    original = _text(element, "NAME_ORIGINAL_SCRIPT")
    if original:
        names.append(NameEntry(original, "alias"))
    for alias in element.iterfind(f"{prefix}_ALIAS"):
        alias_name = _text(alias, "ALIAS_NAME")
        if not alias_name:
            continue
        quality = (_text(alias, "QUALITY") or "").lower()
        kind: NameKind = "weak_alias" if quality in _WEAK_QUALITIES else "alias"
        names.append(NameEntry(alias_name, kind))
    countries: list[str] = []
    for path in (
        "NATIONALITY/VALUE",
        f"{prefix}_ADDRESS/COUNTRY",
        f"{prefix}_PLACE_OF_BIRTH/COUNTRY",
    ):
        for node in element.iterfind(path):
            country = to_country_code(node.text)
            if country:
                countries.append(country)
    programs = [p for p in (_text(element, "UN_LIST_TYPE"),) if p]
    gender = (_text(element, "GENDER") or "").lower() or None
    return build_entity(
        reference,
        code,
        schema,
        names,
        programs=programs,
        birth_dates=_birth_dates(element),
        countries=countries,
        identifiers=_documents(element),
        gender=gender if gender in ("male", "female") else None,
        remarks=_text(element, "COMMENTS1"),
    )


def _birth_dates(element: ET.Element) -> list[str]:
    dates: list[str] = []
    for node in element.iterfind("INDIVIDUAL_DATE_OF_BIRTH"):
        date = _text(node, "DATE")
        year = _text(node, "YEAR")
        start, end = _text(node, "FROM_YEAR"), _text(node, "TO_YEAR")
        if date:
            match = _DATE.match(date)
            if match:
                dates.append("-".join(g for g in match.groups() if g))
        elif year and year.isdigit():
            dates.append(year)
        elif start and end and start.isdigit() and end.isdigit():
            dates.extend(year_range(int(start), int(end)))
    return dates


def _documents(element: ET.Element) -> list[tuple[str, str]]:
    documents: list[tuple[str, str]] = []
    for node in element.iterfind("INDIVIDUAL_DOCUMENT"):
        number = _text(node, "NUMBER")
        if not number:
            continue
        doc_type = " ".join((_text(node, "TYPE_OF_DOCUMENT") or "").lower().split())
        if "passport" in doc_type or "pasaporte" in doc_type or "passeport" in doc_type:
            documents.append(("passport", number))
        elif "identification" in doc_type or "identity" in doc_type:
            documents.append(("national_id", number))
        else:
            documents.append(("other", number))
    return documents

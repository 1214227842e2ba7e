"""OFAC SDN / Consolidated list XML (``sdn.xml``, ``consolidated.xml``) to a ListSnapshot.

Schema: https://ofac.treasury.gov/sdn-list-data-formats-data-schemas (``sdn.xsd``). Root
``sdnList`` in the namespace ``http://tempuri.org/sdnList.xsd`` (legacy) or
``https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML`` (Sanctions
List Service); both, or none, are accepted. ``publshInformation/Publish_Date`` (MM/DD/YYYY)
gives the version. Each ``sdnEntry`` has ``uid``, ``lastName``, ``firstName``, ``sdnType``
(Individual, Entity, Vessel, Aircraft), ``programList/program``, ``akaList/aka``
(``category`` strong/weak), ``idList/id`` (``idType``, ``idNumber``, ``idCountry``),
``dateOfBirthList/dateOfBirthItem/dateOfBirth``, ``nationalityList``, ``citizenshipList``,
``placeOfBirthList``, ``addressList/address/country`` and ``vesselInfo``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity
from hakiki.engines.screening.parsers.common import parse_mdy_date, parse_xml
from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean

OFAC_SDN_XML_URL = (
    "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML"
)

_SCHEMAS: dict[str, Schema] = {
    "individual": "Person",
    "entity": "Organization",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
}
# idType (lowercase, prefix) to identifier type. Other idTypes (websites, e-mails, sanctions
# information, dates) are not identifiers and are dropped.
_ID_TYPES: tuple[tuple[str, str], ...] = (
    ("diplomatic passport", "passport"),
    ("passport", "passport"),
    ("national id", "national_id"),
    ("cedula", "national_id"),
    ("c.u.r.p.", "national_id"),
    ("d.n.i.", "national_id"),
    ("identification number", "national_id"),
    ("ssn", "national_id"),
    ("tax id", "tax_id"),
    ("r.f.c.", "tax_id"),
    ("registration number", "registration"),
    ("business registration", "registration"),
    ("company number", "registration"),
    ("unified social credit code", "registration"),
    ("vessel registration identification", "imo"),
    ("mmsi", "mmsi"),
    ("aircraft manufacturer's serial number", "msn"),
    ("swift/bic", "swift_bic"),
    ("legal entity number", "lei"),
)


def parse_ofac_xml(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "us_ofac_sdn",
    title: str = "OFAC Specially Designated Nationals (SDN) List",
    source_url: str = OFAC_SDN_XML_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse OFAC sdn.xml bytes. Raises ListFormatError if the file is not that XML."""
    root = parse_xml(data, "OFAC XML")
    if root.tag != "sdnList":
        raise ListFormatError(f"OFAC XML: unexpected root element {root.tag!r}")
    published = parse_mdy_date(root.findtext("publshInformation/Publish_Date"))
    list_version = version or published
    if not list_version:
        raise ListFormatError("OFAC XML: no Publish_Date and no version given")
    collected = Collected()
    for position, element in enumerate(root.iterfind("sdnEntry"), 1):
        entity = _parse_entry(element, code, position, collected.warnings)
        if entity is not None and not collected.add(entity):
            collected.warnings.append(
                f"sdnEntry #{position}: duplicate uid {entity.entity_id} skipped"
            )
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def _text(element: ET.Element, path: str) -> str | None:
    return clean(element.findtext(path), empty="")


def _name(element: ET.Element, kind: NameKind, schema: Schema) -> NameEntry | None:
    last, first = _text(element, "lastName"), _text(element, "firstName")
    if last is None and first is None:
        return None
    if schema == "Person" and last and first:
        return NameEntry(
            f"{first} {last}", kind, original=f"{last}, {first}", given=first, family=last
        )
    return NameEntry(" ".join(p for p in (first, last) if p), kind)


def _parse_entry(
    element: ET.Element, code: str, position: int, warnings: list[str]
) -> ListEntity | None:
    uid = _text(element, "uid")
    sdn_type = (_text(element, "sdnType") or "").lower()
    schema = _SCHEMAS.get(sdn_type)
    if schema is None:
        warnings.append(f"sdnEntry #{position}: unknown sdnType {sdn_type!r}; skipped")
        return None
    primary = _name(element, "primary", schema)
    if uid is None or primary is None:
        warnings.append(f"sdnEntry #{position}: no uid or name; skipped")
        return None
    names = [primary]
    for aka in element.iterfind("akaList/aka"):
        weak = (_text(aka, "category") or "").lower() == "weak"
        entry = _name(aka, "weak_alias" if weak else "alias", schema)
        if entry is not None:
            names.append(entry)
    birth_dates: list[str] = []
    for node in element.iterfind("dateOfBirthList/dateOfBirthItem"):
        raw = _text(node, "dateOfBirth")
        if raw:
            parsed = parse_ofac_date(raw)
            if not parsed:
                warnings.append(f"sdnEntry {uid}: unreadable dateOfBirth {raw!r} ignored")
            birth_dates.extend(parsed)
    countries: list[str] = []
    for path in (
        "nationalityList/nationality/country",
        "citizenshipList/citizenship/country",
        "placeOfBirthList/placeOfBirthItem/placeOfBirth",
        "addressList/address/country",
        "vesselInfo/vesselFlag",
    ):
        for node in element.iterfind(path):
            text = node.text or ""
            country = to_country_code(text.rsplit(",", 1)[-1]) if "placeOfBirth" in path else None
            country = country or to_country_code(text)
            if country:
                countries.append(country)
    identifiers, gender = _identifiers(element, countries)
    call_sign = _text(element, "vesselInfo/callSign")
    if call_sign:
        identifiers.append(("call_sign", call_sign))
    return build_entity(
        uid,
        code,
        schema,
        names,
        programs=(_text(p, ".") or "" for p in element.iterfind("programList/program")),
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
        gender=gender,
        remarks=_text(element, "remarks"),
    )


def _identifiers(
    element: ET.Element, countries: list[str]
) -> tuple[list[tuple[str, str]], str | None]:
    identifiers: list[tuple[str, str]] = []
    gender: str | None = None
    for node in element.iterfind("idList/id"):
        id_type = (_text(node, "idType") or "").lower()
        number = _text(node, "idNumber")
        if not number:
            continue
        if id_type == "gender":
            lowered = number.lower()
            gender = lowered if lowered in ("male", "female") else gender
            continue
        kind = next((k for prefix, k in _ID_TYPES if id_type.startswith(prefix)), None)
        if kind is None:
            continue
        if kind == "imo":
            number = number.removeprefix("IMO").strip()
        identifiers.append((kind, number))
        country = to_country_code(_text(node, "idCountry"))
        if country and kind in ("passport", "national_id"):
            countries.append(country)
    return identifiers, gender

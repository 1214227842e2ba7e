"""EU Financial Sanctions Files (FSF): the entity assembly both EU formats (XML, CSV) share.

Each parser reads its file into :class:`EuSubject` records (the raw values of one
``sanctionEntity`` / one ``Entity_LogicalId``); :func:`eu_entity` turns a record into a
ListEntity the same way for both, so the two formats give the same entities for the same list.

Rules: the first strong name alias is the primary name, other strong ones aliases,
``strong="false"`` ones weak aliases; country code ``00`` (unknown) is dropped; countries come
from citizenships, then birth places, then addresses; a birth date is a full date, else
year/month/day, else a range of years.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import build_entity
from hakiki.engines.screening.parsers.common import iso_date, parse_iso_date, person_name
from hakiki.engines.screening.parsers.text import year_range

EU_FSF_TITLE = "EU Financial Sanctions Files (FSF) Consolidated List"
_FSF = "https://webgate.ec.europa.eu/fsd/fsf/public/files"
EU_FSF_XML_URL = f"{_FSF}/xmlFullSanctionsList_1_1/content"
EU_FSF_CSV_URL = f"{_FSF}/csvFullSanctionsList_1_1/content"

# Subject type codes: the XML's subjectType/@code, the CSV's Entity_SubjectType ("P", "E")
# or Entity_SubjectType_ClassificationCode ("person", "enterprise").
SCHEMAS: dict[str, Schema] = {
    "person": "Person",
    "p": "Person",
    "enterprise": "Organization",
    "e": "Organization",
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
_GENDERS = {"M": "male", "F": "female"}


@dataclass(frozen=True, slots=True)
class EuAlias:
    whole: str | None
    first: str | None = None
    middle: str | None = None
    last: str | None = None
    strong: bool = True
    gender: str | None = None


@dataclass(frozen=True, slots=True)
class EuBirthDate:
    full: str | None = None
    year: str | None = None
    month: str | None = None
    day: str | None = None
    range_from: str | None = None
    range_to: str | None = None
    country: str | None = None  # ISO 3166 alpha-2 as printed ("IQ", "00")
    country_description: str | None = None


@dataclass(frozen=True, slots=True)
class EuIdentification:
    type_code: str | None
    number: str | None
    latin_number: str | None = None


@dataclass
class EuSubject:
    """What one EU entry says, before normalisation. Countries are (iso2, description)."""

    logical_id: str
    schema: Schema
    aliases: list[EuAlias] = field(default_factory=list)
    programmes: list[str] = field(default_factory=list)
    citizenships: list[tuple[str | None, str | None]] = field(default_factory=list)
    birth_dates: list[EuBirthDate] = field(default_factory=list)
    identifications: list[EuIdentification] = field(default_factory=list)
    addresses: list[tuple[str | None, str | None]] = field(default_factory=list)
    remark: str | None = None


def eu_schema(*codes: str | None) -> Schema | None:
    """The schema of the first subject type code that is known."""
    for code in codes:
        schema = SCHEMAS.get((code or "").strip().lower())
        if schema is not None:
            return schema
    return None


def eu_country(iso2: str | None, description: str | None) -> str | None:
    code = (iso2 or "").strip().lower()
    if code and code != "00":
        return to_country_code(code)
    return to_country_code(description)


def eu_entity(subject: EuSubject, code: str, label: str, warnings: list[str]) -> ListEntity | None:
    """The ListEntity for one EU entry; None (with a warning) when it has no usable name.

    ``label`` names the entry in warnings ("sanctionEntity 13", "Entity_LogicalId 13").
    """
    names = _names(subject)
    if not names:
        warnings.append(f"{label}: no name; skipped")
        return None
    countries = [eu_country(*pair) for pair in subject.citizenships]
    countries += [eu_country(b.country, b.country_description) for b in subject.birth_dates]
    countries += [eu_country(*pair) for pair in subject.addresses]
    identifiers: list[tuple[str, str]] = []
    for ident in subject.identifications:
        number = ident.number or ident.latin_number
        if number:
            id_code = (ident.type_code or "").lower()
            identifiers.append((_ID_TYPES.get(id_code, "other"), number))
    sexes = ((a.gender or "").upper() for a in subject.aliases)
    gender = next((_GENDERS[sex] for sex in sexes if sex in _GENDERS), None)
    birth_dates: list[str] = []
    for birth in subject.birth_dates:
        dates = eu_birth_dates(birth)
        if dates is None:
            warnings.append(f"{label}: unreadable birthdate ignored")
        else:
            birth_dates.extend(dates)
    return build_entity(
        subject.logical_id,
        code,
        subject.schema,
        names,
        programs=subject.programmes,
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
        gender=gender if subject.schema == "Person" else None,
        remarks=subject.remark,
    )


def _names(subject: EuSubject) -> list[NameEntry]:
    names: list[NameEntry] = []
    for alias in subject.aliases:
        kind: NameKind = "alias" if alias.strong else "weak_alias"
        if alias.strong and not any(n.kind == "primary" for n in names):
            kind = "primary"
        entry = eu_alias_name(alias, kind, subject.schema)
        if entry is not None:
            names.append(entry)
    if names and not any(n.kind == "primary" for n in names):
        first = names[0]
        names[0] = NameEntry(first.name, "primary", first.original, first.given, first.family)
    return names


def eu_alias_name(alias: EuAlias, kind: NameKind, schema: Schema) -> NameEntry | None:
    first = " ".join(p for p in (alias.first, alias.middle) if p)
    if schema == "Person" and first and alias.last:
        entry = person_name(first, alias.last, kind)
        whole = alias.whole
        if entry is not None and (whole is None or whole.casefold() == entry.name.casefold()):
            return entry
    if alias.whole:
        return NameEntry(alias.whole, kind)
    return person_name(first or None, alias.last, kind)


def eu_birth_dates(birth: EuBirthDate) -> list[str] | None:
    """ISO dates for one birth date record: [] when it holds none, None when unreadable."""
    year, month, day = birth.year, birth.month, birth.day
    start, end = birth.range_from, birth.range_to
    parsed: str | None
    if birth.full:
        parsed = parse_iso_date(birth.full)
    elif year and year.isdigit():
        parsed = iso_date(
            int(year),
            int(month) if month and month.isdigit() else None,
            int(day) if day and day.isdigit() else None,
        )
    elif start and end and start.isdigit() and end.isdigit():
        return year_range(int(start), int(end))
    else:
        return []
    return [parsed] if parsed else None

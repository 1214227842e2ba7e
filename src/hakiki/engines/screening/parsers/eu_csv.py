"""EU financial sanctions consolidated list, CSV ("CSV v1.1") to a ListSnapshot.

Source: https://webgate.ec.europa.eu/fsd/fsf/public/files/csvFullSanctionsList_1_1/content
(published beside the XML, same token). Semicolon-separated, UTF-8 with a byte-order mark; the
flattened XML export: one row per name alias, address, birth date, identification or
citizenship of an entry, every row repeating the entry's ``Entity_*`` columns. Columns used
(found by name): ``fileGenerationDate`` (dd/mm/yyyy, on every row), ``Entity_LogicalId``,
``Entity_Remark``, ``Entity_SubjectType`` (``P``/``E``),
``Entity_SubjectType_ClassificationCode`` (``person``/``enterprise``),
``Entity_Regulation_Programme``, ``NameAlias_{WholeName,FirstName,MiddleName,LastName,Gender,
LogicalId}``, ``Citizenship_{CountryIso2Code,CountryDescription,LogicalId}``,
``BirthDate_{BirthDate,Day,Month,Year,YearRangeFrom,YearRangeTo,CountryIso2Code,
CountryDescription,LogicalId}``, ``Identification_{Number,LatinNumber,TypeCode,LogicalId}`` and
``Address_{CountryIso2Code,CountryDescription,LogicalId}``. The published layout carries no
alias strength: every alias is strong unless a ``NameAlias_Strong`` column says ``false``.

Rows are grouped by ``Entity_LogicalId`` into the records :mod:`.eu_common` assembles, exactly
as for the XML export, so both formats give the same entities.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import TypeVar

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers.builder import Collected
from hakiki.engines.screening.parsers.common import parse_dmy_date, parse_iso_date
from hakiki.engines.screening.parsers.eu_common import (
    EU_FSF_CSV_URL,
    EU_FSF_TITLE,
    EuAlias,
    EuBirthDate,
    EuIdentification,
    EuSubject,
    eu_entity,
    eu_schema,
)
from hakiki.engines.screening.parsers.eu_xml import parse_eu_xml
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

_HEADER_SEARCH_LINES = 5
Field = Callable[[str], str | None]
T = TypeVar("T")


def parse_eu_csv(
    data: bytes,
    *,
    version: str | None = None,
    code: str = "eu_fsf",
    title: str = EU_FSF_TITLE,
    source_url: str = EU_FSF_CSV_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse the EU FSF CSV export. Raises ListFormatError if no EU CSV header is found."""
    lines = decode_legacy(data).splitlines(keepends=True)
    header_at = next(
        (i for i, line in enumerate(lines[:_HEADER_SEARCH_LINES]) if "Entity_LogicalId" in line),
        None,
    )
    if header_at is None or "NameAlias_WholeName" not in lines[header_at]:
        raise ListFormatError("EU CSV: no header row with Entity_LogicalId and NameAlias_WholeName")
    delimiter = ";" if ";" in lines[header_at] else ","
    reader = csv.reader(io.StringIO("".join(lines[header_at:])), delimiter=delimiter, strict=False)
    header = [cell.strip() for cell in next(reader)]
    collected = Collected()
    subjects: dict[str, EuSubject] = {}
    seen: set[tuple[object, ...]] = set()
    rejected: set[str] = set()
    generated: str | None = None
    for line_no, row in enumerate(reader, header_at + 2):
        if not any(cell.strip() for cell in row):
            continue
        record = dict(zip(header, row, strict=False))

        def get(name: str, record: dict[str, str] = record) -> str | None:
            return clean(record.get(name), empty="")

        generated = generated or _date(get("fileGenerationDate"))
        _apply_row(get, line_no, subjects, seen, rejected, collected.warnings)
    list_version = version or generated
    if not list_version:
        raise ListFormatError("EU CSV: no fileGenerationDate and no version given")
    for subject in subjects.values():
        label = f"Entity_LogicalId {subject.logical_id}"
        entity = eu_entity(subject, code, label, collected.warnings)
        if entity is not None:
            collected.add(entity)
    return collected.snapshot(
        code=code, title=title, version=list_version, source_url=source_url, checks=checks
    )


def parse_eu(
    data: bytes,
    *,
    code: str = "eu_fsf",
    title: str = EU_FSF_TITLE,
    source_url: str = EU_FSF_CSV_URL,
    checks: frozenset[str] = frozenset({"sanction"}),
) -> ListSnapshot:
    """Parse an EU FSF file in either format, told apart by its content (XML or CSV)."""
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    parser = parse_eu_xml if head.startswith(b"<") else parse_eu_csv
    return parser(data, code=code, title=title, source_url=source_url, checks=checks)


def _date(text: str | None) -> str | None:
    return parse_dmy_date(text) or parse_iso_date(text)


def _apply_row(
    get: Field,
    line_no: int,
    subjects: dict[str, EuSubject],
    seen: set[tuple[object, ...]],
    rejected: set[str],
    warnings: list[str],
) -> None:
    logical_id = get("Entity_LogicalId")
    types = (get("Entity_SubjectType_ClassificationCode"), get("Entity_SubjectType"))
    schema = eu_schema(*types)
    if logical_id is None or schema is None:
        if logical_id not in rejected:
            shown = "/".join(t for t in types if t).lower()
            warnings.append(
                f"line {line_no}: no Entity_LogicalId or unknown subject type {shown!r}; skipped"
            )
        if logical_id is not None:
            rejected.add(logical_id)
        return
    subject = subjects.get(logical_id)
    if subject is None:
        subject = subjects[logical_id] = EuSubject(logical_id, schema)
    elif subject.schema != schema:
        warnings.append(f"line {line_no}: Entity_LogicalId {logical_id} changes type; skipped")
        return
    subject.remark = subject.remark or get("Entity_Remark")
    programme = get("Entity_Regulation_Programme")
    if programme:
        _add(subject.programmes, seen, (logical_id, "programme", None), programme)
    alias = EuAlias(
        whole=get("NameAlias_WholeName"),
        first=get("NameAlias_FirstName"),
        middle=get("NameAlias_MiddleName"),
        last=get("NameAlias_LastName"),
        strong=(get("NameAlias_Strong") or "true").lower() != "false",
        gender=get("NameAlias_Gender"),
    )
    if alias.whole or alias.first or alias.last:
        _add(subject.aliases, seen, _key(get, logical_id, "NameAlias"), alias)
    citizenship = (get("Citizenship_CountryIso2Code"), get("Citizenship_CountryDescription"))
    if any(citizenship):
        _add(subject.citizenships, seen, _key(get, logical_id, "Citizenship"), citizenship)
    address = (get("Address_CountryIso2Code"), get("Address_CountryDescription"))
    if any(address):
        _add(subject.addresses, seen, _key(get, logical_id, "Address"), address)
    birth = _birth_date(get)
    if birth != EuBirthDate():
        _add(subject.birth_dates, seen, _key(get, logical_id, "BirthDate"), birth)
    ident = EuIdentification(
        type_code=get("Identification_TypeCode"),
        number=get("Identification_Number"),
        latin_number=get("Identification_LatinNumber"),
    )
    if ident.number or ident.latin_number:
        _add(subject.identifications, seen, _key(get, logical_id, "Identification"), ident)


def _birth_date(get: Field) -> EuBirthDate:
    full = get("BirthDate_BirthDate")
    if full and not parse_iso_date(full):
        full = parse_dmy_date(full) or full  # dd/mm/yyyy in some exports
    return EuBirthDate(
        full=full,
        year=get("BirthDate_Year"),
        month=get("BirthDate_Month"),
        day=get("BirthDate_Day"),
        range_from=get("BirthDate_YearRangeFrom"),
        range_to=get("BirthDate_YearRangeTo"),
        country=get("BirthDate_CountryIso2Code"),
        country_description=get("BirthDate_CountryDescription"),
    )


def _key(get: Field, logical_id: str, element: str) -> tuple[object, ...]:
    return (logical_id, element, get(f"{element}_LogicalId"))


def _add(target: list[T], seen: set[tuple[object, ...]], key: tuple[object, ...], value: T) -> None:
    """Append ``value`` once per entry and element: the CSV repeats an element on several rows.

    ``key`` is (entry id, element kind, element LogicalId); the value completes it.
    """
    if (*key, value) not in seen:
        seen.add((*key, value))
        target.append(value)

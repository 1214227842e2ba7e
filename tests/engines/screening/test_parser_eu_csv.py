"""EU FSF CSV ("CSV v1.1") parser: the hand-made fixture mirrors eu_fsf_sample.xml."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot
from hakiki.engines.screening.parsers import ListFormatError, parse_eu, parse_eu_csv, parse_eu_xml

DATA = Path(__file__).parent / "data"
CSV = (DATA / "eu_fsf_sample.csv").read_bytes()
XML = (DATA / "eu_fsf_sample.xml").read_bytes()


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


def without_strength(entity: ListEntity) -> ListEntity:
    """The entity with weak aliases counted as aliases (the published CSV has no strength)."""
    names = tuple(
        dataclasses.replace(n, kind="alias") if n.kind == "weak_alias" else n for n in entity.names
    )
    return dataclasses.replace(entity, names=names)


def test_eu_csv_sample() -> None:
    snapshot = parse_eu_csv(CSV)
    assert snapshot.version == "2024-05-03"  # fileGenerationDate 03/05/2024
    assert snapshot.source_url.endswith("/csvFullSanctionsList_1_1/content")
    assert [e.entity_id for e in snapshot.entities] == ["13", "2460", "7101"]
    assert snapshot.warnings == (
        "line 23: no Entity_LogicalId or unknown subject type 'spaceship/x'; skipped",
        "Entity_LogicalId 7101: unreadable birthdate ignored",
    )
    saddam = entity(snapshot, "13")
    assert [(n.name, n.kind) for n in saddam.names] == [
        ("Saddam Hussein Al-Tikriti", "primary"),
        ("Abu Ali", "alias"),
        ("صدام حسين عبد المجيد التكريتي", "alias"),
    ]
    assert (saddam.names[0].given, saddam.names[0].family) == ("Saddam", "Hussein Al-Tikriti")
    assert saddam.programs == ("IRQ",) and saddam.birth_dates == ("1937-04-28",)
    assert saddam.countries == ("iq",) and saddam.identifiers == (("passport", "A1234567"),)
    assert saddam.gender == "male" and saddam.remarks == "Former President of Iraq."
    trust = entity(snapshot, "2460")
    assert trust.schema == "Organization" and trust.countries == ("pk",)
    assert trust.identifiers == (("registration", "PK-0001-R"),)
    petrov = entity(snapshot, "7101")
    assert [n.name for n in petrov.names] == ["Alexander Ivanovich Petrov", "Aleksandr Petrov"]
    assert petrov.birth_dates == ("1965", "1966", "1967", "1968")
    assert petrov.countries == ("ru",)  # "00" (unknown) dropped


def test_eu_csv_and_xml_give_the_same_entities() -> None:
    from_csv, from_xml = parse_eu_csv(CSV), parse_eu_xml(XML)
    assert from_csv.version == from_xml.version
    assert len(from_csv.warnings) == len(from_xml.warnings)
    # The only difference: the XML's strong="false" alias is a weak alias there.
    assert from_csv.entities == tuple(without_strength(e) for e in from_xml.entities)
    assert from_csv.entities != from_xml.entities


def test_eu_csv_alias_strength_column_when_present() -> None:
    """With a NameAlias_Strong column (not in the published layout) the parsers agree fully."""
    lines = CSV.decode("utf-8-sig").split("\r\n")
    strength = {"18": "false"}  # NameAlias_LogicalId of "Abu Ali"
    header = lines[0].split(";")
    at = header.index("NameAlias_LogicalId")
    rows = [lines[0] + ";NameAlias_Strong"] + [
        f"{line};{strength.get(line.split(';')[at], '') if line.count(';') else ''}"
        for line in lines[1:]
        if line
    ]
    snapshot = parse_eu_csv("\r\n".join(rows).encode())
    assert snapshot.entities == parse_eu_xml(XML).entities


def test_eu_csv_dirty_bytes() -> None:
    """cp1252 bytes, no BOM, a trailing 0x1A, a quoted separator, bad and repeated rows."""
    text = (
        "fileGenerationDate;Entity_LogicalId;Entity_SubjectType;"
        "Entity_SubjectType_ClassificationCode;Entity_Remark;NameAlias_WholeName;"
        "NameAlias_Gender;BirthDate_BirthDate;Citizenship_CountryIso2Code;"
        "Identification_Number;Identification_TypeCode\r\n"
        '05/08/2026;501;P;person;"Listed; see annex";José Müller;F;12/03/1971;DE;;\r\n'
        "05/08/2026;501;P;person;;;;;;X-99;id\r\n"
        ";;;;;Orphan Name;;;;;\r\n"
        "05/08/2026;502;E;enterprise;;;;;;;\r\n"
        "05/08/2026;503;P;person;;Short Row\r\n"
        "05/08/2026;501;P;person;;;;31/02/1971;;;\r\n"
        "05/08/2026;501;P;person;;;;31/02/1971;;;\r\n"  # the same element repeated: once
    )
    snapshot = parse_eu_csv(text.encode("cp1252") + b"\x1a")
    assert snapshot.version == "2026-08-05"
    jose = entity(snapshot, "501")
    assert jose.primary_name == "José Müller" and jose.gender == "female"
    assert jose.birth_dates == ("1971-03-12",) and jose.countries == ("de",)
    assert jose.identifiers == (("national_id", "X-99"),)
    assert jose.remarks == "Listed; see annex"
    assert entity(snapshot, "503").primary_name == "Short Row"
    assert snapshot.warnings == (
        "line 4: no Entity_LogicalId or unknown subject type ''; skipped",
        "Entity_LogicalId 501: unreadable birthdate ignored",
        "Entity_LogicalId 502: no name; skipped",
    )


def test_eu_csv_refuses_other_files() -> None:
    with pytest.raises(ListFormatError, match="Entity_LogicalId"):
        parse_eu_csv(b"a;b;c\r\n1;2;3\r\n")
    with pytest.raises(ListFormatError, match="fileGenerationDate"):
        parse_eu_csv(b"Entity_LogicalId;NameAlias_WholeName\r\n1;X\r\n")


def test_parse_eu_tells_the_formats_apart() -> None:
    assert parse_eu(XML).entities == parse_eu_xml(XML).entities
    assert parse_eu(CSV).entities == parse_eu_csv(CSV).entities
    assert parse_eu(CSV, code="eu_x").entities[0].list_code == "eu_x"

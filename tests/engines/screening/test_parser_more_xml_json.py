"""XML and JSON list parsers: OFAC sdn.xml, EU FSF XML, FollowTheMoney, Senzing."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot
from hakiki.engines.screening.parsers import (
    ListFormatError,
    parse_eu_xml,
    parse_ftm_json,
    parse_ofac_xml,
    parse_senzing_json,
)

DATA = Path(__file__).parent / "data"


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


# -- OFAC sdn.xml (hand-made sample following sdn.xsd) ---------------------------------------


def test_ofac_xml_sample() -> None:
    snapshot = parse_ofac_xml((DATA / "ofac_sdn_sample.xml").read_bytes())
    assert snapshot.version == "2024-05-03"
    assert [e.entity_id for e in snapshot.entities] == ["306", "2676", "4238", "15431"]
    assert snapshot.warnings == (
        "sdnEntry 2676: unreadable dateOfBirth '19 Jnu 19x1' ignored",
        "sdnEntry #5: unknown sdnType 'spaceship'; skipped",
    )
    bank = entity(snapshot, "306")
    assert bank.schema == "Organization"
    assert [(n.name, n.kind) for n in bank.names] == [
        ("BANCO NACIONAL DE CUBA", "primary"),
        ("BNC", "weak_alias"),
        ("NATIONAL BANK OF CUBA", "alias"),
    ]
    assert bank.countries == ("ch", "es")
    person = entity(snapshot, "2676")
    assert person.names[0].name == "Ayman AL-ZAWAHIRI"
    assert person.names[0].original == "AL-ZAWAHIRI, Ayman"
    assert (person.names[0].given, person.names[0].family) == ("Ayman", "AL-ZAWAHIRI")
    assert [(n.name, n.kind) for n in person.names[1:]] == [
        ("Ayman Muhammad Rabi AL-ZAWAHIRI", "alias"),
        ("Abu Fatima", "weak_alias"),
    ]
    assert person.programs == ("SDGT",)
    assert person.birth_dates == ("1951-06-19", "1950")
    assert person.countries == ("eg",)
    assert person.identifiers == (("passport", "1084010"), ("passport", "19820215"))
    assert person.gender == "male"
    vessel = entity(snapshot, "4238")
    assert vessel.schema == "Vessel"
    assert vessel.identifiers == (("imo", "7383259"), ("call_sign", "CL2192"))
    assert vessel.countries == ("cu",)
    aircraft = entity(snapshot, "15431")
    assert aircraft.schema == "Aircraft"
    assert aircraft.programs == ("SDGT", "IRGC")
    assert aircraft.identifiers == (("msn", "1023409321"),)


def test_ofac_xml_legacy_namespace() -> None:
    data = (
        b'<?xml version="1.0" standalone="yes"?>'
        b'<sdnList xmlns="http://tempuri.org/sdnList.xsd"><publshInformation>'
        b"<Publish_Date>12/19/2025</Publish_Date></publshInformation>"
        b"<sdnEntry><uid>7</uid><firstName>Jos\xc3\xa9</firstName><lastName>NU\xc3\x91EZ</lastName>"
        b"<sdnType>Individual</sdnType><programList><program>SDNTK</program></programList>"
        b"<dateOfBirthList><dateOfBirthItem><dateOfBirth>Dec 1970</dateOfBirth>"
        b"</dateOfBirthItem></dateOfBirthList></sdnEntry><sdnEntry><uid>8</uid>"
        b"<sdnType>Entity</sdnType></sdnEntry></sdnList>"
    )
    snapshot = parse_ofac_xml(data)
    assert snapshot.version == "2025-12-19"
    (person,) = snapshot.entities
    assert person.primary_name == "José NUÑEZ"
    assert person.birth_dates == ("1970-12",)
    assert snapshot.warnings == ("sdnEntry #2: no uid or name; skipped",)


def test_ofac_xml_rejects_other_files() -> None:
    with pytest.raises(ListFormatError, match="root element"):
        parse_ofac_xml(b"<CONSOLIDATED_LIST/>")
    with pytest.raises(ListFormatError, match="not well-formed"):
        parse_ofac_xml(b"ent_num,name\r\n")
    with pytest.raises(ListFormatError, match="document type"):
        parse_ofac_xml(b'<!DOCTYPE x [<!ENTITY a "b">]><sdnList/>')
    with pytest.raises(ListFormatError, match="Publish_Date"):
        parse_ofac_xml(b"<sdnList/>")


# -- EU FSF XML (hand-made sample following the export schema) -------------------------------


def test_eu_xml_sample() -> None:
    snapshot = parse_eu_xml((DATA / "eu_fsf_sample.xml").read_bytes())
    assert snapshot.version == "2024-05-03"
    assert [e.entity_id for e in snapshot.entities] == ["13", "2460", "7101"]
    assert snapshot.warnings == (
        "sanctionEntity 7101: unreadable birthdate ignored",
        "sanctionEntity #4: no logicalId or unknown subjectType 'spaceship'; skipped",
    )
    saddam = entity(snapshot, "13")
    assert saddam.schema == "Person"
    assert [(n.name, n.kind) for n in saddam.names] == [
        ("Saddam Hussein Al-Tikriti", "primary"),
        ("Abu Ali", "weak_alias"),
        ("صدام حسين عبد المجيد التكريتي", "alias"),
    ]
    assert (saddam.names[0].given, saddam.names[0].family) == ("Saddam", "Hussein Al-Tikriti")
    assert saddam.programs == ("IRQ",)
    assert saddam.birth_dates == ("1937-04-28",)
    assert saddam.countries == ("iq",)
    assert saddam.identifiers == (("passport", "A1234567"),)
    assert saddam.gender == "male"
    assert saddam.remarks == "Former President of Iraq."
    trust = entity(snapshot, "2460")
    assert trust.schema == "Organization"
    assert trust.primary_name == "Rabita Trust"
    assert trust.countries == ("pk",)
    assert trust.identifiers == (("registration", "PK-0001-R"),)
    assert trust.gender is None
    petrov = entity(snapshot, "7101")
    assert petrov.birth_dates == ("1965", "1966", "1967", "1968")  # year, then a year range
    assert petrov.countries == ("ru",)  # "00" (unknown) dropped
    assert petrov.identifiers == (("tax_id", "771234567890"),)


def test_eu_xml_rejects_other_files() -> None:
    with pytest.raises(ListFormatError, match="root element"):
        parse_eu_xml((DATA / "ofac_sdn_sample.xml").read_bytes())
    with pytest.raises(ListFormatError, match="generationDate"):
        parse_eu_xml(b'<export xmlns="http://eu.europa.ec/fpi/fsd/export"/>')


# -- FollowTheMoney JSON lines (OpenSanctions, real) -----------------------------------------


def test_ftm_wikidata_peps_sample() -> None:
    snapshot = parse_ftm_json(
        (DATA / "ftm_wd_persons_sa_sample.ftm.json").read_bytes(),
        version="2024-03-14",
        code="sa_wiki_peps",
        title="Saudi Arabia PEPs (Wikidata)",
        checks=frozenset({"pep"}),
    )
    assert snapshot.checks == frozenset({"pep"})
    assert len(snapshot.entities) == 151
    assert snapshot.warnings == (
        "Q106829332: unreadable birthDate 'unknown' ignored",
        "Q16118239: unreadable birthDate 'unknown' ignored",
    )  # the 20 Position records are read as positions (tests/.../test_parser_pep.py)
    person = entity(snapshot, "Q100158628")
    assert person.schema == "Person"
    assert [(n.name, n.kind) for n in person.names] == [
        ("Mohammed bin Khalid Al Saud", "primary"),
        ("محمد بن خالد العبد الله الفيصل", "alias"),
        ("Mohammed bin Khalid Al Abdallah Al Faisal Al Saud", "alias"),
    ]
    assert person.birth_dates == ("1967-01-01",)
    assert person.countries == ("sa",)
    assert person.gender == "male"


def test_ftm_zala_sanctions_cluster() -> None:
    snapshot = parse_ftm_json(
        (DATA / "ftm_zala.ftm.json").read_bytes(), version="2024-06-13", code="zala", title="Zala"
    )
    assert snapshot.checks == frozenset({"sanction"})  # from the topics
    assert Counter(e.schema for e in snapshot.entities) == {"Organization": 11, "Person": 6}
    assert snapshot.warnings == (
        "74 non-screenable entities skipped (11 Address, 3 Directorship, 4 Family, "
        "14 Ownership, 1 Passport, 41 Sanction)",
    )
    person = entity(snapshot, "NK-2Tbri3s6GgNtAwsSXh4qpL")
    assert person.names[0] == person.names[0].__class__("Maria Aleksandrovna Osetrova")
    names = {n.name for n in person.names}
    assert {"Mariya ZAKHAROVA", "Мария Александровна Осетрова"} <= names
    assert person.birth_dates == ("1988-01-07",)
    assert person.countries == ("ru",)
    assert person.gender == "female"
    assert person.programs == ("UA-SA1644", "US-RUSHAR", "GB-RUS")
    assert ("tax_id", "183116181362") in person.identifiers
    company = entity(snapshot, "ru-inn-5920040846")
    assert company.schema == "Organization"
    assert company.countries == ("ru",)


def test_ftm_dirty_lines_and_wrong_format() -> None:
    data = (
        b'{"id": "p1", "schema": "Person", "properties": {"name": ["A B"], '
        b'"topics": ["role.pep"], "birthDate": ["1960-02-30"]}}\n'
        b"not json\n"
        b'{"id": "p2", "schema": "Person", "properties": {}}\n'
        b'{"id": "p1", "schema": "Person", "properties": {"name": ["A B"]}}\n'
    )
    snapshot = parse_ftm_json(data, version="v", code="c", title="t")
    assert [e.entity_id for e in snapshot.entities] == ["p1"]
    assert snapshot.checks == frozenset({"pep"})
    assert snapshot.warnings == (
        "p1: unreadable birthDate '1960-02-30' ignored",
        "FtM JSON line 2: not valid JSON; skipped",
        "record 3: no id or name; skipped",
        "record 4: duplicate id p1 skipped",
    )
    with pytest.raises(ListFormatError):
        parse_ftm_json(b"id,name\n1,x\n", version="v", code="c", title="t")
    with pytest.raises(ListFormatError):
        parse_ftm_json(b'{"RECORD_ID": "1"}\n', version="v", code="c", title="t")


# -- Senzing JSON (OpenSanctions us_congress, real) ------------------------------------------


def test_senzing_us_congress_sample() -> None:
    snapshot = parse_senzing_json(
        (DATA / "senzing_us_congress_sample.json").read_bytes(),
        version="2026-01-02",
        code="us_congress",
        title="US Congress",
    )
    assert snapshot.checks == frozenset({"pep"})
    assert len(snapshot.entities) == 199
    assert snapshot.warnings == ("2 records without RECORD_TYPE skipped",)
    first = entity(snapshot, "NK-AQ4HymsADSK2D63MkyTqfC")
    assert [(n.name, n.kind) for n in first.names] == [("Jennifer L. McClellan", "primary")]
    assert first.birth_dates == ("1972",)
    assert first.countries == ("us",)
    britt = entity(snapshot, "Q111285444")
    assert [(n.name, n.kind) for n in britt.names] == [
        ("Katie Boyd Britt", "primary"),
        ("Katie Britt", "alias"),
    ]
    assert britt.identifiers == (("wikidata", "Q111285444"),)


def test_senzing_array_parts_and_errors() -> None:
    data = (
        b'[{"RECORD_ID": "1", "RECORD_TYPE": "ORGANIZATION", "NAMES": [{"NAME_TYPE": "PRIMARY",'
        b' "NAME_ORG": "Acme Ltd"}], "COUNTRIES": [{"REGISTRATION_COUNTRY": "KE"}],'
        b' "RISKS": [{"TOPIC": "sanction"}]},'
        b' {"RECORD_ID": "2", "RECORD_TYPE": "PERSON", "GENDER": "F", "NAMES": [{"NAME_TYPE":'
        b' "ALIAS", "NAME_FIRST": "Amina", "NAME_LAST": "Otieno"}], "DATES": [{"DATE_OF_BIRTH":'
        b' "1980-13-01"}], "IDENTIFIERS": [{"PASSPORT_NUMBER": "A123"}]},'
        b' {"RECORD_ID": "3", "RECORD_TYPE": "ROBOT", "NAMES": []}]'
    )
    snapshot = parse_senzing_json(data, version="v", code="c", title="t")
    acme, amina = snapshot.entities
    assert acme.schema == "Organization"
    assert acme.countries == ("ke",)
    assert amina.names[0].name == "Amina Otieno"
    assert amina.names[0].kind == "primary"
    assert amina.names[0].family == "Otieno"
    assert amina.gender == "female"
    assert amina.identifiers == (("passport", "A123"),)
    assert snapshot.checks == frozenset({"sanction"})
    assert snapshot.warnings == (
        "2: unreadable DATE_OF_BIRTH '1980-13-01' ignored",
        "record 3: unknown RECORD_TYPE 'ROBOT'; skipped",
    )
    with pytest.raises(ListFormatError):
        parse_senzing_json(b"<xml/>", version="v", code="c", title="t")
    with pytest.raises(ListFormatError):
        parse_senzing_json(b"[1, 2", version="v", code="c", title="t")


# -- Full real files, when the project's shared data is mounted ------------------------------

# CI and developers have the project's shared data beside the checkout; users do not.
SHARED = Path(__file__).resolve().parents[3].parent / "shared/data/lists/opensanctions"


@pytest.mark.skipif(not SHARED.exists(), reason="shared list data not mounted")
def test_full_opensanctions_files() -> None:
    wd = parse_ftm_json(
        (SHARED / "wd_persons_sa_sample_2024-03/entities.ftm.json").read_bytes(),
        version="2024-03-14",
        code="sa_wiki_peps",
        title="t",
    )
    assert len(wd.entities) == 607
    congress = parse_senzing_json(
        (SHARED / "us_congress_senzing_2026-01.json").read_bytes(),
        version="2026-01-02",
        code="us_congress",
        title="t",
    )
    assert len(congress.entities) == 1317

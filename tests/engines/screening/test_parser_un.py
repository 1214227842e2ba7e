"""UN Security Council consolidated XML parser."""

from __future__ import annotations

from collections import Counter

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot, parse_un_xml
from hakiki.engines.screening.parsers.text import ListFormatError


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


def test_bundled_counts(snapshots: dict[str, ListSnapshot]) -> None:
    un = snapshots["un_sc_consolidated"]
    assert un.version == "2026-02-27"
    assert un.source_url == "https://scsanctions.un.org/resources/xml/en/consolidated.xml"
    assert Counter(e.schema for e in un.entities) == {"Person": 730, "Organization": 273}
    assert un.warnings == ()
    programs = Counter(p for e in un.entities if e.schema == "Person" for p in e.programs)
    assert programs["Al-Qaida"] > 100
    assert programs["DRC"] > 10


def test_al_qaida_individual(snapshots: dict[str, ListSnapshot]) -> None:
    person = entity(snapshots["un_sc_consolidated"], "QDi.001")
    assert person.schema == "Person"
    assert person.primary_name == "MOHAMMED SALAHALDIN ABD EL HALIM ZIDANE"
    names = {n.name: n.kind for n in person.names}
    assert names["Sayf-Al Adl"] == "alias"  # QUALITY Good
    assert names["Seif al Adel"] == "weak_alias"  # QUALITY Low
    assert names["محمد صلاح الدين عبدالحليم زيدان"] == "alias"  # original script
    assert person.birth_dates == ("1963-04-11", "1960-04-11")
    assert person.countries == ("eg",)
    assert person.programs == ("Al-Qaida",)


def test_documents_and_gender(snapshots: dict[str, ListSnapshot]) -> None:
    un = snapshots["un_sc_consolidated"]
    zawahiri = entity(un, "QDi.006")
    assert ("passport", "1084010") in zawahiri.identifiers
    assert zawahiri.birth_dates == ("1951-06-19",)
    badege = entity(un, "CDi.001")
    assert badege.primary_name == "ERIC BADEGE"
    assert badege.gender == "male"
    assert badege.birth_dates == ("1971",)
    assert set(badege.countries) == {"cd", "rw"}  # nationality and address


def test_entity_with_aliases(snapshots: dict[str, ListSnapshot]) -> None:
    adf = entity(snapshots["un_sc_consolidated"], "CDe.001")
    assert adf.schema == "Organization"
    assert [n.name for n in adf.names] == [
        "ADF",
        "Allied Democratic Forces",
        "Forces Démocratiques Alliées-Armée Nationale de Libération de l’Ouganda",
        "ADF/NALU",
        "NALU",
    ]
    assert adf.countries == ("cd",)


SMALL = b"""<?xml version="1.0" encoding="UTF-8"?>
<CONSOLIDATED_LIST dateGenerated="2026-01-02T00:00:00Z">
 <INDIVIDUALS>
  <INDIVIDUAL>
   <REFERENCE_NUMBER>XXi.001</REFERENCE_NUMBER>
   <FIRST_NAME>JOHN</FIRST_NAME><SECOND_NAME>DOE</SECOND_NAME>
   <UN_LIST_TYPE>Test</UN_LIST_TYPE><GENDER>Female</GENDER>
   <NATIONALITY><VALUE>Kenya</VALUE></NATIONALITY>
   <INDIVIDUAL_ALIAS><QUALITY/><ALIAS_NAME/></INDIVIDUAL_ALIAS>
   <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE>
    <FROM_YEAR>1970</FROM_YEAR><TO_YEAR>1972</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>
   <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>
    <YEAR>1969</YEAR></INDIVIDUAL_DATE_OF_BIRTH>
   <INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>National Identification Number</TYPE_OF_DOCUMENT>
    <NUMBER>12345678</NUMBER></INDIVIDUAL_DOCUMENT>
  </INDIVIDUAL>
  <INDIVIDUAL><REFERENCE_NUMBER>XXi.002</REFERENCE_NUMBER></INDIVIDUAL>
 </INDIVIDUALS>
 <ENTITIES/>
</CONSOLIDATED_LIST>
"""


def test_small_document_and_malformed_record() -> None:
    snapshot = parse_un_xml(SMALL)
    assert snapshot.version == "2026-01-02"
    (person,) = snapshot.entities
    assert person.names[0].name == "JOHN DOE"
    assert len(person.names) == 1  # the empty alias is ignored
    assert person.birth_dates == ("1970", "1971", "1972", "1969")
    assert person.identifiers == (("national_id", "12345678"),)
    assert person.gender == "female"
    assert person.countries == ("ke",)
    assert snapshot.warnings == ("INDIVIDUAL #2: no reference number or name; skipped",)


def test_rejects_doctype_and_broken_xml() -> None:
    evil = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><CONSOLIDATED_LIST/>'
    with pytest.raises(ListFormatError, match="document type"):
        parse_un_xml(evil)
    with pytest.raises(ListFormatError, match="not well-formed"):
        parse_un_xml(SMALL[:300])
    with pytest.raises(ListFormatError, match="unexpected root"):
        parse_un_xml(b"<OTHER/>")

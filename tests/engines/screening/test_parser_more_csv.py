"""CSV/TSV list parsers: OFAC consolidated, UK OFSI ConList, BIS DPL, custom watchlists."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot
from hakiki.engines.screening.parsers import (
    ListFormatError,
    parse_bis_dpl,
    parse_ofac_consolidated_csv,
    parse_uk_csv,
    parse_watchlist_csv,
)

DATA = Path(__file__).parent / "data"


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


# -- OFAC consolidated (non-SDN) -------------------------------------------------------------


@pytest.fixture(scope="module")
def ofac_cons() -> ListSnapshot:
    return parse_ofac_consolidated_csv(
        (DATA / "ofac_cons_prim.csv").read_bytes(),
        (DATA / "ofac_cons_alt.csv").read_bytes(),
        (DATA / "ofac_cons_add.csv").read_bytes(),
        version="2025-12-19",
    )


def test_ofac_consolidated_counts(ofac_cons: ListSnapshot) -> None:
    assert ofac_cons.code == "us_ofac_consolidated"
    assert ofac_cons.warnings == ()
    assert len(ofac_cons.entities) == 442
    assert Counter(e.schema for e in ofac_cons.entities) == {"Organization": 363, "Person": 79}
    programs = Counter(p for e in ofac_cons.entities for p in e.programs)
    assert programs["UKRAINE-EO13662"] == 286
    assert programs["NS-PLC"] == 78
    assert {e.list_code for e in ofac_cons.entities} == {"us_ofac_consolidated"}


def test_ofac_consolidated_entities(ofac_cons: ListSnapshot) -> None:
    haniya = entity(ofac_cons, "9639")
    assert haniya.schema == "Person"
    assert [(n.name, n.kind) for n in haniya.names] == [
        ("Ismail Abdul Salah HANIYA", "primary"),
        ("Ismail HANIYA", "alias"),
        ("Ismaeel HANIYYA", "alias"),
    ]
    assert haniya.names[0].family == "HANIYA"
    assert haniya.programs == ("NS-PLC",)
    assert haniya.birth_dates == ("1962",)
    martelly = entity(ofac_cons, "50476")
    assert martelly.primary_name == "Michel Joseph MARTELLY"
    assert ("Sweet Micky", "weak_alias") in [(n.name, n.kind) for n in martelly.names]
    assert martelly.birth_dates == ("1961-02-12",)
    assert martelly.gender == "male"
    assert martelly.countries == ("ht", "us", "do")
    assert ("national_id", "0032768386") in martelly.identifiers
    moge = entity(ofac_cons, "46072")
    assert moge.schema == "Organization"
    assert moge.programs == ("BURMA-EO14014",)
    assert moge.countries == ("mm",)


# -- UK OFSI ConList -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uk() -> ListSnapshot:
    return parse_uk_csv((DATA / "uk_conlist_sample.csv").read_bytes())


def test_uk_counts(uk: ListSnapshot) -> None:
    # 77 rows (one per name x date of birth x address) of 41 Group IDs; cp1252 text.
    assert uk.version == "2020-02-20"  # latest Last Updated: the sample has no stamp row
    assert uk.warnings == ()
    assert len(uk.entities) == 41
    assert Counter(e.schema for e in uk.entities) == {"Person": 32, "Organization": 9}
    assert all(sum(n.kind == "primary" for n in e.names) == 1 for e in uk.entities)


def test_uk_person_fully_parsed(uk: ListSnapshot) -> None:
    person = entity(uk, "12999")
    assert person.schema == "Person"
    assert person.names[0].name == "Mohamed Adam Brema ABDALLAH"
    assert person.names[0].original == "ABDALLAH, Mohamed Adam Brema"
    assert person.names[0].family == "ABDALLAH"
    assert person.programs == ("Central African Republic",)
    # 00/00/1970 -> 1970; 01/01/1970 -> 1970-01-01
    assert person.birth_dates == ("1970", "1969", "1971", "1970-01-01", "1971-01-01")
    assert person.countries == ("cf", "sd")  # "(1) Central African Republic (2) Sudan"
    assert ("passport", "D00001184") in person.identifiers
    assert ("passport", "P04838205") in person.identifiers
    assert ("national_id", "202-2708-8368") in person.identifiers
    abbas = entity(uk, "13814")
    names = {(n.name, n.kind) for n in abbas.names}
    assert ("Yasser Aziz ABBAS", "primary") in names  # the "Prime Alias" row
    assert ("Yaser Aziz ABAS", "alias") in names


def test_uk_entity_and_dirty_text(uk: ListSnapshot) -> None:
    tong_san = entity(uk, "13556")
    assert tong_san.schema == "Organization"
    assert tong_san.primary_name == "TONG SAN 2"
    assert tong_san.identifiers == (("imo", "8937675"),)
    battalion = entity(uk, "13222")
    assert battalion.remarks is not None
    assert "\u2019" in battalion.remarks  # cp1252 0x92


def test_uk_current_layout_with_stamp_row_and_quality() -> None:
    data = (
        "Last Updated,03/05/2024\r\n"
        "Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,Name Non-Latin Script,DOB,"
        "Nationality,Passport Details,Country,Other Information,Group Type,Alias Type,"
        "Alias Quality,Regime,Listed On,Last Updated,Group ID\r\n"
        "PETROV,Ivan,,,,,,,00/05/1970,Russia,,,,Individual,Primary name,,Russia,"
        "01/01/2022,01/01/2022,15000\r\n"
        "PETROFF,Vanya,,,,,,,31/02/1970,Russia,,,,Individual,AKA,Low quality,Russia,"
        "01/01/2022,01/01/2022,15000\r\n"
        "NAUTILUS,,,,,,,,,,,,IMO 1234567,Ship,Primary name,,Russia,01/01/2022,01/01/2022,"
        "15001\r\n"
        ",,,,,,,,,,,,,Spaceship,AKA,,Russia,01/01/2022,01/01/2022,15002\r\n"
    ).encode("cp1252")
    snapshot = parse_uk_csv(data)
    assert snapshot.version == "2024-05-03"
    petrov = entity(snapshot, "15000")
    assert [(n.name, n.kind) for n in petrov.names] == [
        ("Ivan PETROV", "primary"),
        ("Vanya PETROFF", "weak_alias"),
    ]
    assert petrov.birth_dates == ("1970-05",)
    assert petrov.countries == ("ru",)
    assert entity(snapshot, "15001").schema == "Vessel"
    warnings = "\n".join(snapshot.warnings)
    assert "unreadable DOB '31/02/1970'" in warnings
    assert "unknown Group Type 'spaceship'" in warnings


def test_uk_not_a_conlist() -> None:
    with pytest.raises(ListFormatError, match="Name 6"):
        parse_uk_csv(b"a,b,c\r\n1,2,3\r\n")


# -- BIS Denied Persons List -----------------------------------------------------------------


@pytest.fixture(scope="module")
def dpl() -> ListSnapshot:
    return parse_bis_dpl((DATA / "bis_dpl_2022-09.txt").read_bytes())


def test_bis_counts_and_typo_dates(dpl: ListSnapshot) -> None:
    assert dpl.version == "2022-09-02"  # typo'd 2922-09-01 and 3017-08-22 are not the version
    assert len(dpl.entities) == 459  # 581 rows, one per name and address
    assert Counter(e.schema for e in dpl.entities) == {"Person": 365, "Organization": 94}
    assert dpl.warnings == (
        "line 35: invalid Last_Update '0222-05-18' ignored",
        "line 306: invalid Last_Update '2922-09-01' ignored",
        "line 343: invalid Last_Update '3017-08-22' ignored",
    )


def test_bis_entities(dpl: ListSnapshot) -> None:
    freight = next(e for e in dpl.entities if e.primary_name == "AIR FREIGHT LTD")
    assert freight.schema == "Organization"
    assert freight.countries == ("iq", "ae", "jo")
    assert freight.entity_id.startswith("dpl-")
    assert freight.remarks and freight.remarks.startswith("80 F.R. 30435")
    person = next(e for e in dpl.entities if e.primary_name == "AARON ABRAHAM VILLA")
    assert person.schema == "Person"
    assert person.countries == ()
    assert person.remarks == "87 F.R. 52741 8/29/2022"
    again = parse_bis_dpl((DATA / "bis_dpl_2022-09.txt").read_bytes())
    assert [e.entity_id for e in again.entities] == [e.entity_id for e in dpl.entities]


def test_bis_not_a_dpl() -> None:
    with pytest.raises(ListFormatError, match="not a DPL file"):
        parse_bis_dpl(b"name\tcountry\nX\tUS\n")


# -- Custom watchlist ------------------------------------------------------------------------


WATCHLIST = (
    "\ufeffid,name,schema,aliases,birth_date,countries,identifiers,program\r\n"
    "C-1,Jean Dupont,person,Jean Dupond; J. Dupont,1970-05-01,FR;Côte d'Ivoire,"
    "passport:12AB34567;national_id: 1 70 05 75 ,Internal fraud list\r\n"
    "C-2,Acme Trading Ltd,organization,,,ke,,\r\n"
    ",Nameless Row Without Id,,,,,,\r\n"
    "C-4,,person,,,,,\r\n"
    "C-5,Bad Fields,person,,1970-13-01;1971,Atlantis;ug,nocolon,\r\n"
    "C-6,Odd,spaceship,,,,,\r\n"
    "C-1,Duplicate,person,,,,,\r\n"
)


def test_watchlist_parsed_and_validated() -> None:
    snapshot = parse_watchlist_csv(WATCHLIST.encode("utf-8"), version="2026-01-01")
    assert [e.entity_id for e in snapshot.entities] == ["C-1", "C-2", "row-4", "C-5"]
    dupont = snapshot.entities[0]
    assert dupont.schema == "Person"
    assert [(n.name, n.kind) for n in dupont.names] == [
        ("Jean Dupont", "primary"),
        ("Jean Dupond", "alias"),
        ("J. Dupont", "alias"),
    ]
    assert dupont.birth_dates == ("1970-05-01",)
    assert dupont.countries == ("fr", "ci")
    assert dupont.identifiers == (("passport", "12AB34567"), ("national_id", "1 70 05 75"))
    assert dupont.programs == ("Internal fraud list",)
    assert snapshot.entities[1].schema == "Organization"
    assert snapshot.entities[1].countries == ("ke",)
    bad = snapshot.entities[3]
    assert bad.birth_dates == ("1971",)
    assert bad.countries == ("ug",)
    assert bad.identifiers == ()
    assert snapshot.warnings == (
        "line 5: empty name; row skipped",
        "line 6: birth_date '1970-13-01' is not YYYY[-MM[-DD]]; dropped",
        "line 6: unknown country 'Atlantis'; dropped",
        "line 6: identifier 'nocolon' is not type:value; dropped",
        "line 7: unknown schema 'spaceship'; row skipped",
        "line 8: duplicate id 'C-1'; row skipped",
    )


def test_watchlist_cp1252_semicolon_and_minimal_columns() -> None:
    data = "Name;Countries\r\nJosé Núñez;Kenya\r\n".encode("cp1252")
    snapshot = parse_watchlist_csv(data, version="v1")
    (only,) = snapshot.entities
    assert only.primary_name == "José Núñez"
    assert only.countries == ("ke",)
    assert only.entity_id == "row-2"
    assert snapshot.warnings == ()


def test_watchlist_missing_name_column_and_limits() -> None:
    with pytest.raises(ListFormatError, match="'name' is missing"):
        parse_watchlist_csv(b"full_name,country\r\nX,KE\r\n", version="v1")
    with pytest.raises(ListFormatError, match="empty"):
        parse_watchlist_csv(b"", version="v1")
    rows = b"name\r\n" + b"A\r\n" * 4
    with pytest.raises(ListFormatError, match="more than 3 rows"):
        parse_watchlist_csv(rows, version="v1", max_rows=3)
    extra = parse_watchlist_csv(b"name,notes\r\nA,x\r\n", version="v1")
    assert extra.warnings == ("unknown columns ignored: notes",)


def test_watchlist_reader_streams_lines_and_names_a_hostile_line() -> None:
    from hakiki.engines.screening.parsers.watchlist_csv import WatchlistReader, text_lines

    data = b"name,position,start_date,end_date\r\nAmani Juma,Minister,2015-01-01,bad\r\n"
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)]  # lines cut across chunks
    reader = WatchlistReader(text_lines(chunks, "utf-8"), code="wl_1", keep_issues=10)
    (entity,) = list(reader.entities())
    assert entity.programs == ("Minister (2015-01-01 to now)",)
    assert [i.public() for i in reader.issues] == ["end_date is not YYYY[-MM[-DD]]; dropped"]
    assert reader.issues[0].warning() == "line 2: end_date 'bad' is not YYYY[-MM[-DD]]; dropped"

    endless = [b"name\nA\n", b"x" * 600, b"y" * 600]
    with pytest.raises(ListFormatError, match="line 3 is longer than 1,000 characters"):
        list(text_lines(endless, "utf-8", max_line_chars=1000))
    with pytest.raises(ListFormatError, match="line 2: bytes that are not utf-8"):
        list(text_lines([b"name\n\xff\n"], "utf-8"))
    wide = WatchlistReader(["name" + ",x" * 10 + "\n", "A" + ",1" * 80 + "\n"])
    with pytest.raises(ListFormatError, match="line 2 has 81 columns; at most 64"):
        list(wide.entities())
    aliases = ";".join(f"Alias {n}" for n in range(150))
    many = WatchlistReader(["name,aliases\n", f"Amani Juma,{aliases}\n"], keep_issues=5)
    (entity,) = list(many.entities())
    assert len(entity.names) == 100
    assert many.issues[0].public() == "more than 100 names; the rest dropped"


def test_text_lines_keeps_crlf_whole_across_chunks() -> None:
    from hakiki.engines.screening.parsers.watchlist_csv import text_lines

    data = b"name\r\nA\x0cB\r\nC\xe2\x80\xa8D\r\nE"
    for size in (1, 2, 3, 5, len(data)):
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        assert list(text_lines(chunks, "utf-8")) == ["name\r\n", "A\x0cB\r\n", "C\u2028D\r\n", "E"]

"""OFAC legacy CSV parser: the bundled real files and small dirty inputs."""

from __future__ import annotations

from collections import Counter

from hakiki.engines.screening import ListEntity, ListSnapshot, parse_ofac_csv
from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_date

SDN_ROW = (
    '2676,"AL ZAWAHIRI, Dr. Ayman","individual","SDGT","Operational and Military Leader of '
    'JIHAD GROUP",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 19 Jun 1951; POB Giza, Egypt; Passport '
    '1084010 (Egypt); alt. Passport 19820215; Operational and Military Leader of JIHAD GROUP."\r\n'
)


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


def test_bundled_counts(snapshots: dict[str, ListSnapshot]) -> None:
    ofac = snapshots["us_ofac_sdn"]
    assert ofac.version == "2024-05-03"
    assert ofac.checks == frozenset({"sanction"})
    assert len(ofac.entities) == 14965
    assert Counter(e.schema for e in ofac.entities) == {
        "Person": 6854,
        "Organization": 6884,
        "Vessel": 851,
        "Aircraft": 376,
    }
    # alt.csv and add.csv are newer than sdn.csv: orphans are skipped and counted, not errors.
    assert any("alt.csv" in w and "skipped" in w for w in ofac.warnings)
    assert any("add.csv" in w and "skipped" in w for w in ofac.warnings)
    assert len(ofac.warnings) == 2
    kinds = Counter(n.kind for e in ofac.entities for n in e.names)
    assert kinds["primary"] == 14965
    assert kinds["alias"] > 15000
    assert kinds["weak_alias"] > 3000


def test_individual_fully_parsed(snapshots: dict[str, ListSnapshot]) -> None:
    person = entity(snapshots["us_ofac_sdn"], "6939")
    assert person.schema == "Person"
    primary = person.names[0]
    assert primary.kind == "primary"
    assert primary.name == "Mohammad Hamdi Mohammad Sadiq AL-AHDAL"
    assert primary.original == "AL-AHDAL, Mohammad Hamdi Mohammad Sadiq"
    assert primary.given == "Mohammad Hamdi Mohammad Sadiq"
    assert primary.family == "AL-AHDAL"
    names = {(n.name, n.kind) for n in person.names}
    assert ("Muhammad AL-HAMATI", "alias") in names  # from alt.csv
    assert ("Abu Asim AL-MAKKI", "weak_alias") in names  # a.k.a. 'AL-MAKKI, Abu Asim'
    assert person.programs == ("SDGT",)
    assert person.birth_dates == ("1971-11-19",)
    assert set(person.countries) == {"sa", "ye"}  # place of birth, nationality
    assert person.gender == "male"
    assert ("passport", "541939") in person.identifiers
    assert ("national_id", "216040") in person.identifiers


def test_organisation_vessel_aircraft(snapshots: dict[str, ListSnapshot]) -> None:
    ofac = snapshots["us_ofac_sdn"]
    bank = entity(ofac, "306")
    assert bank.schema == "Organization"
    assert [(n.name, n.kind) for n in bank.names] == [
        ("BANCO NACIONAL DE CUBA", "primary"),
        ("BNC", "weak_alias"),
        ("NATIONAL BANK OF CUBA", "alias"),
    ]
    assert bank.programs == ("CUBA",)
    assert {"ch", "es", "jp", "pa"} <= set(bank.countries)  # from add.csv
    vessel = entity(ofac, "4238")
    assert vessel.schema == "Vessel"
    assert vessel.primary_name == "MAR AZUL"
    assert ("call_sign", "CL2192") in vessel.identifiers
    aircraft = entity(ofac, "15431")
    assert aircraft.schema == "Aircraft"
    assert ("msn", "1023409321") in aircraft.identifiers


def test_multiple_programs_and_dobs() -> None:
    row = (
        '12113,"MORTEZAVI, Hasan","individual","SDGT] [IRGC] [IFSR",-0- ,-0- ,-0- ,-0- ,-0- ,'
        '-0- ,-0- ,"DOB 23 Aug 1964; alt. DOB 1965; DOB circa 1960; DOB 1970 to 1972; '
        "citizen Iran; Gender Male; a.k.a. 'ALI, Hassan'.\"\r\n"
    )
    snapshot = parse_ofac_csv(row.encode("cp1252"), version="2024-05-03")
    (person,) = snapshot.entities
    assert person.programs == ("SDGT", "IRGC", "IFSR")
    assert person.birth_dates == ("1964-08-23", "1965", "1960", "1970", "1971", "1972")
    assert person.countries == ("ir",)
    assert person.names[1].name == "Hassan ALI"
    assert person.names[1].kind == "weak_alias"


def test_dates() -> None:
    assert parse_ofac_date("01 Jan 1970") == ["1970-01-01"]
    assert parse_ofac_date("Dec 1970") == ["1970-12"]
    assert parse_ofac_date("1970") == ["1970"]
    assert parse_ofac_date("circa 1970") == ["1970"]
    assert parse_ofac_date("01 Jan 1961 to 31 Dec 1963") == ["1961", "1962", "1963"]
    assert parse_ofac_date("sometime") == []


def test_dirty_bytes_cp1252_empty_marker_and_eof_byte() -> None:
    sdn = (
        SDN_ROW.encode("cp1252")
        + '7,"NUÑEZ, José","individual","SDNTK",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'.encode(
            "cp1252"
        )
        + b"\x1a"
    )
    snapshot = parse_ofac_csv(sdn, version="2024-05-03")
    assert snapshot.warnings == ()
    assert [e.entity_id for e in snapshot.entities] == ["2676", "7"]
    nunez = snapshot.entities[1]
    assert nunez.primary_name == "José NUÑEZ"
    assert nunez.remarks is None  # -0-
    assert nunez.birth_dates == ()
    zawahiri = snapshot.entities[0]
    assert zawahiri.birth_dates == ("1951-06-19",)
    assert ("passport", "1084010") in zawahiri.identifiers
    assert ("passport", "19820215") in zawahiri.identifiers
    assert zawahiri.countries == ("eg",)


def test_cp1252_undefined_byte_does_not_crash() -> None:
    sdn = b'9,"ACME \x81 TRADING",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'
    snapshot = parse_ofac_csv(sdn, version="x")
    assert snapshot.entities[0].primary_name == "ACME \x81 TRADING"


def test_malformed_rows_become_warnings() -> None:
    sdn = (
        SDN_ROW
        + '"BROKEN ROW WITHOUT COLUMNS"\r\n'
        + 'abc,"NO NUMBER","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'
        + '11,"SPACESHIP","spaceship","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'
        + SDN_ROW
    ).encode("cp1252")
    alt = b'2676,1,"aka","ZAWAHIRI, Ayman",-0- \r\n999999,2,"aka","NOBODY",-0- \r\nxx\r\n'
    add = b'2676,5,-0- ,"Cairo","Egypt",-0- \r\n999999,6,-0- ,-0- ,"Kenya",-0- \r\n'
    snapshot = parse_ofac_csv(sdn, alt, add, version="2024-05-03")
    assert [e.entity_id for e in snapshot.entities] == ["2676"]
    warnings = "\n".join(snapshot.warnings)
    assert "line 2: expected 12 columns, got 1" in warnings
    assert "line 3: no ent_num or name" in warnings
    assert "unknown SDN_Type 'spaceship'" in warnings
    assert "duplicate ent_num 2676" in warnings
    assert "alt.csv: 1 aliases of entities not in sdn.csv skipped" in warnings
    assert "alt.csv line 3: malformed row skipped" in warnings
    assert "add.csv: 1 addresses of entities not in sdn.csv skipped" in warnings
    names = [(n.name, n.kind) for n in snapshot.entities[0].names]
    assert ("Ayman ZAWAHIRI", "alias") in names


def test_weak_marker_in_alt_file() -> None:
    alt = b'2676,1,"weak aka","ABU MUHAMMAD",-0- \r\n2676,2,"aka","DOCTOR",weak\r\n'
    snapshot = parse_ofac_csv(SDN_ROW.encode(), alt, version="x")
    kinds = {n.name: n.kind for n in snapshot.entities[0].names}
    assert kinds["ABU MUHAMMAD"] == "weak_alias"
    assert kinds["DOCTOR"] == "weak_alias"


def test_empty_input() -> None:
    snapshot = parse_ofac_csv(b"\x1a", version="x")
    assert snapshot.entities == ()
    assert snapshot.warnings == ()

"""FCDO UK Sanctions List CSV: hand-made fixture in the published layout; layout detection."""

from __future__ import annotations

from pathlib import Path

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot
from hakiki.engines.screening.parsers import ListFormatError, parse_uk_csv

DATA = Path(__file__).parent / "data"
SAMPLE = (DATA / "uk_sanctions_list_sample.csv").read_bytes()


def entity(snapshot: ListSnapshot, entity_id: str) -> ListEntity:
    return next(e for e in snapshot.entities if e.entity_id == entity_id)


@pytest.fixture(scope="module")
def uksl() -> ListSnapshot:
    return parse_uk_csv(SAMPLE)


def test_layout_detected_and_dated(uksl: ListSnapshot) -> None:
    assert uksl.version == "2026-04-24"  # "Report Date: 24-Apr-2026"
    assert uksl.code == "gb_fcdo_sanctions" and uksl.title == "UK Sanctions List (FCDO)"
    assert [e.entity_id for e in uksl.entities] == ["AFG0001", "RUS0251", "IRQ0001", "RUS1801"]
    assert [e.schema for e in uksl.entities] == ["Organization", "Person", "Person", "Vessel"]
    assert uksl.warnings == (
        "line 8: unreadable D.O.B '31/02/1937' ignored",
        "line 11: no Unique ID or unknown Designation Type 'spaceship'",
        "line 12: no Unique ID or unknown Designation Type 'entity'",
        "line 13: no name; row kept for its other details",
    )


def test_person_names_dates_documents(uksl: ListSnapshot) -> None:
    putin = entity(uksl, "RUS0251")
    assert [(n.name, n.kind) for n in putin.names] == [
        ("Vladimir Vladimirovich PUTIN", "primary"),
        ("Владимир Владимирович ПУТИН", "alias"),  # Name non-latin script
        ("Vladimir POUTINE", "alias"),  # Primary Name Variation
        ("VOVA", "weak_alias"),  # Alias, Low quality
    ]
    assert (putin.names[0].given, putin.names[0].family) == ("Vladimir Vladimirovich", "PUTIN")
    assert putin.programs == ("The Russia (Sanctions) (EU Exit) Regulations 2019",)
    assert putin.birth_dates == ("1952-10-07",) and putin.countries == ("ru",)
    assert putin.identifiers == (
        ("passport", "100000001"),
        ("passport", "100000002"),
        ("national_id", "7700000000"),
    )
    assert putin.gender == "male"
    saddam = entity(uksl, "IRQ0001")
    assert saddam.birth_dates == ("1937-04-28", "1939")  # "dd/mm/1939": year only
    assert saddam.countries == ("iq", "jo")  # "(1) Iraq (2) Jordan"


def test_entity_and_ship(uksl: ListSnapshot) -> None:
    exchange = entity(uksl, "AFG0001")
    assert exchange.primary_name == "HAJI KHAIRULLAH HAJI SATTAR MONEY EXCHANGE"
    assert [n.kind for n in exchange.names] == ["primary", "alias", "alias"]
    assert exchange.countries == ("af", "pk") and exchange.gender is None
    assert exchange.remarks == "Afghan Money Service Provider License Number: 044."
    ship = entity(uksl, "RUS1801")
    assert ship.identifiers == (("imo", "9123456"),)


def test_dirty_bytes_and_older_type_column() -> None:
    """cp1252, a trailing 0x1A, the earlier "Individual, Entity, Ship" column, no Report Date."""
    text = (
        "Last Updated,Unique ID,Name 6,Name 1,Name type,Alias strength,Regime Name,"
        '"Individual, Entity, Ship",D.O.B,Nationality(/ies)\r\n'
        "03/02/2025,CYB0001,MÜLLER,José,Primary Name,,Cyber,Individual,00/00/1980,Germany\r\n"
        "05/02/2025,CYB0001,MULLER,Jose,Alias,Weak,Cyber,Individual,,\r\n"
        ",,,,,,,,,\r\n"
    )
    snapshot = parse_uk_csv(text.encode("cp1252") + b"\x1a", code="gb_fcdo_sanctions")
    assert snapshot.version == "2025-02-05"  # the latest Last Updated
    [person] = snapshot.entities
    assert [(n.name, n.kind) for n in person.names] == [
        ("José MÜLLER", "primary"),
        ("Jose MULLER", "weak_alias"),
    ]
    assert person.birth_dates == ("1980",) and person.countries == ("de",)
    assert snapshot.warnings == ()


def test_conlist_still_read_by_the_same_parser() -> None:
    conlist = parse_uk_csv((DATA / "uk_conlist_sample.csv").read_bytes())
    assert conlist.code == "gb_hmt_sanctions" and len(conlist.entities) == 41


def test_neither_layout() -> None:
    with pytest.raises(ListFormatError, match="Unique ID"):
        parse_uk_csv(b"Report Date: 24-Apr-2026\r\na,b,c\r\n1,2,3\r\n")
    with pytest.raises(ListFormatError, match="Report Date"):
        parse_uk_csv(b"Unique ID,Name 6,Designation Type\r\nX1,NAME,Entity\r\n")

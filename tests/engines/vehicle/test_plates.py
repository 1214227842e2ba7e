"""Kenyan plates by category; malformed ones are refused."""

from __future__ import annotations

import pytest

from hakiki.engines.vehicle import IdentifierError, parse_plate


@pytest.mark.parametrize(
    ("raw", "printed", "category"),
    [
        ("KCA 123A", "KCA 123A", "civilian"),
        ("kdg123x", "KDG 123X", "civilian"),
        ("KAA 123", "KAA 123", "civilian_old"),
        ("KBU 7", "KBU 7", "civilian_old"),
        ("KMDA 123A", "KMDA 123A", "motorcycle"),
        ("KMCA-001B", "KMCA 001B", "motorcycle"),
        ("KTWA 123A", "KTWA 123A", "tricycle"),
        ("KTCA 123A", "KTCA 123A", "tractor"),
        ("KHMA 123A", "KHMA 123A", "heavy_machinery"),
        ("ZD 1234", "ZD 1234", "trailer"),
        ("GK A123B", "GK A123B", "national_government"),
        ("GK 123A", "GK 123A", "national_government"),
        ("47 CG 456A", "47 CG 456A", "county_government"),
        ("GVN 037", "GVN 037", "governor"),
        ("1 CD 12K", "1 CD 12K", "diplomatic"),
        ("29CD101K", "29 CD 101K", "diplomatic"),
        ("KA 1234", "KA 1234", "military"),
        ("KAF 123", "KAF 123", "military"),
        ("KN 456A", "KN 456A", "military"),
    ],
)
def test_every_category(raw: str, printed: str, category: str) -> None:
    plate = parse_plate(raw)
    assert (plate.registration_number, plate.category) == (printed, category)


def test_county_and_governor_plates_name_the_county() -> None:
    assert parse_plate("22 CG 001A").county == "Kiambu"
    assert parse_plate("47CG456A").county_code == 47
    assert parse_plate("GVN 037").county == "Kakamega"


def test_military_plates_name_the_service() -> None:
    assert parse_plate("KAF 123").service == "Kenya Air Force"
    assert parse_plate("KA 123").service == "Kenya Army"


def test_a_suffixed_kaf_plate_is_the_civilian_series() -> None:
    assert parse_plate("KAF 123A").category == "civilian"


def test_diplomatic_plates_carry_the_mission_code() -> None:
    assert parse_plate("29 CD 101K").mission_code == 29


@pytest.mark.parametrize(
    "raw",
    [
        "KCI 123A",  # the series skip I and O
        "KCO 123A",
        "KCA 12345",
        "KCA123AB",
        "48 CG 123A",  # no county 48
        "00 CG 123A",
        "HELLO",
        "123",
        "K",
        "   ",
        "KCA 123A; DROP TABLE",
        "ZD 12",
    ],
)
def test_malformed_plates(raw: str) -> None:
    with pytest.raises(IdentifierError):
        parse_plate(raw)

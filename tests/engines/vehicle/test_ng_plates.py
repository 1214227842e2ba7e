"""Nigerian plates read offline: the 2011 format (LGA code first), the 1992-2011 one (LGA code
last), diplomatic and consular plates, the issuing LGA where the code is in the table, and a
clear problem for anything else."""

from __future__ import annotations

import pytest

from hakiki.engines.vehicle import IdentifierError, decode, parse_nigerian_plate


@pytest.mark.parametrize(
    ("raw", "printed", "category", "lga", "state"),
    [
        ("KJA-123AB", "KJA-123AB", "civilian", "Ikeja", "Lagos"),
        ("lsr 123 aa", "LSR-123AA", "civilian", "Surulere", "Lagos"),
        ("BWR123XY", "BWR-123XY", "civilian", "Bwari", "Federal Capital Territory"),
        ("AB 123-KJA", "AB 123-KJA", "civilian_old", "Ikeja", "Lagos"),
        ("AKR-456CD", "AKR-456CD", "civilian", "Akure South", "Ondo"),
        ("GBA 101 AA", "GBA-101AA", "civilian", "Ilaje", "Ondo"),  # Igbokoda, Ilaje's seat
        ("AB 123-KAA", "AB 123-KAA", "civilian_old", "Akoko North-East", "Ondo"),
        ("FST-918EH", "FST-918EH", "civilian", None, None),
    ],
)
def test_civilian_plates_name_their_lga_when_the_code_is_known(
    raw: str, printed: str, category: str, lga: str | None, state: str | None
) -> None:
    plate = parse_nigerian_plate(raw)
    assert (plate.registration_number, plate.category) == (printed, category)
    assert (plate.lga, plate.state) == (lga, state)
    assert (
        plate.lga_code
        == printed.replace(" ", "").replace("-", "")[(0 if category == "civilian" else 5) :][:3]
    )
    if lga is None:
        assert "not in Hakiki's table" in plate.description


def test_diplomatic_and_consular_plates_carry_the_mission() -> None:
    diplomatic = parse_nigerian_plate("12 CD 34")
    assert (diplomatic.category, diplomatic.mission_code, diplomatic.number) == (
        "diplomatic",
        12,
        "34",
    )
    assert parse_nigerian_plate("7CMD1").category == "diplomatic"
    assert parse_nigerian_plate("3 CC 9").category == "consular"


@pytest.mark.parametrize("raw", ["", "KCA 123A", "KJA-12AB", "K1A-123AB", "ABCD-123AB"])
def test_anything_else_says_which_formats_exist(raw: str) -> None:
    with pytest.raises(IdentifierError, match=r"Nigerian plate format|empty"):
        parse_nigerian_plate(raw)


def test_the_country_picks_the_plate_rules_and_the_query_drops_separators() -> None:
    nigerian = decode("registration_number", "KJA 123 AB", "NG")
    assert nigerian.value == "KJA-123AB" and nigerian.query_value == "KJA123AB"
    assert nigerian.country == "NG"
    kenyan = decode("registration_number", "KCA 123A")
    assert kenyan.plate is not None and kenyan.plate.county is None
    assert kenyan.query_value == "KCA 123A"
    with pytest.raises(IdentifierError):
        decode("registration_number", "KJA-123AB")  # not a Kenyan plate

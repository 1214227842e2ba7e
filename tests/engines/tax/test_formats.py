"""The taxpayer-number formats: what fits, how it is normalised, and what the 400 says."""

from __future__ import annotations

import pytest

from hakiki.engines.tax.formats import (
    FormatProblem,
    parse_certificate_number,
    parse_kenyan_id,
    parse_kra_pin,
    parse_taxpayer_number,
    parse_tra_tin,
    parse_ura_tin,
)
from hakiki.identity.channels import find_channel


@pytest.mark.parametrize(
    ("raw", "number", "kind"),
    [
        ("A123456789Z", "A123456789Z", "individual"),
        ("p051234567a", "P051234567A", "non_individual"),
        (" A 123-456-789 z ", "A123456789Z", "individual"),
        ("P318295670X", "P318295670X", "non_individual"),
    ],
)
def test_kra_pins_that_fit(raw: str, number: str, kind: str) -> None:
    pin = parse_kra_pin(raw)
    assert (pin.number, pin.display, pin.taxpayer_type, pin.authority) == (
        number,
        number,
        kind,
        "KRA",
    )


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("", "is empty"),
        ("B123456789Z", "starts with 'B'; a KRA PIN starts with A (individual) or P"),
        ("A12345678Z", "has 10 characters; a KRA PIN has 11"),
        ("A1234567890Z", "has 12 characters"),
        ("A12345678OZ", "has 'O' at position 10; characters 2 to 10 of a KRA PIN are digits"),
        ("A1234567890", "ends with '0'; a KRA PIN ends with a letter"),
        ("A123456789_", "only letters and digits, not '_'"),
        ("A12345678٩Z", "only letters and digits"),  # an Arabic-Indic nine is no ASCII digit
    ],
)
def test_kra_pins_that_do_not_fit_say_why(raw: str, says: str) -> None:
    with pytest.raises(FormatProblem, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_kra_pin(raw)


def test_uganda_tin_is_ten_digits() -> None:
    assert parse_ura_tin("1000 012 345").number == "1000012345"
    with pytest.raises(FormatProblem, match="has 9 digits; a URA TIN has 10"):
        parse_ura_tin("100001234")
    with pytest.raises(FormatProblem, match="holds 'A'"):
        parse_ura_tin("A000012345")


@pytest.mark.parametrize("raw", ["123-456-789", "123456789", "123 456 789", "12-3456-789"])
def test_tanzania_tin_is_nine_digits_written_in_threes(raw: str) -> None:
    tin = parse_tra_tin(raw)
    assert (tin.number, tin.display, tin.authority) == ("123456789", "123-456-789", "TRA")


@pytest.mark.parametrize(
    "parse", [parse_ura_tin, parse_tra_tin, parse_kenyan_id], ids=["ura", "tra", "ke_id"]
)
def test_only_ascii_digits_count(parse: object) -> None:
    assert callable(parse)
    with pytest.raises(FormatProblem, match="holds"):
        parse("١٢٣٤٥٦٧٨٩")  # Arabic-Indic digits: str.isdigit() would take them


def test_tanzania_tin_of_another_length() -> None:
    with pytest.raises(FormatProblem, match="has 10 digits; a TRA TIN has 9"):
        parse_tra_tin("123-456-7890")


def test_the_country_picks_the_format() -> None:
    assert parse_taxpayer_number("ke", "A123456789Z").country == "KE"
    assert parse_taxpayer_number("UG", "1000012345").taxpayer_type is None
    assert parse_taxpayer_number("ng", "20304753-0001").authority == "FIRS"
    with pytest.raises(FormatProblem, match="no taxpayer number format"):
        parse_taxpayer_number("GH", "12345678")


@pytest.mark.parametrize("number", ["1234567", "23456780", "123456789"])
def test_kenyan_ids_agree_with_the_identity_channel(number: str) -> None:
    channel = find_channel("national_id", "KE")
    assert channel is not None and channel.check(number) is None
    assert parse_kenyan_id(number) == number


@pytest.mark.parametrize("number", ["123456", "1234567890", "1234567A"])
def test_kenyan_ids_refused_by_both(number: str) -> None:
    channel = find_channel("national_id", "KE")
    assert channel is not None and channel.check(number) is not None
    with pytest.raises(FormatProblem):
        parse_kenyan_id(number)


def test_certificate_numbers() -> None:
    assert parse_certificate_number("kraeon 1294-973222", "a TCC") == "KRAEON1294973222"
    for raw, says in (
        ("12345", "has 5 characters"),
        ("KRA#123456", "not '#'"),
        ("ABCDEFGH", "has no digit"),
        ("K" * 40 + "1", "has 41 characters"),
    ):
        with pytest.raises(FormatProblem, match=says):
            parse_certificate_number(raw, "a TCC")

"""Phone numbers of the four countries, against libphonenumber's metadata (phonenumbers)."""

from __future__ import annotations

import pytest

from hakiki.engines.phone import analyse, lookup_key


@pytest.mark.parametrize(
    ("text", "country", "e164", "national", "region", "line_type", "carrier"),
    [
        ("0712 345 678", "KE", "+254712345678", "0712 345678", "KE", "mobile", "Safaricom"),
        ("0111 234567", "KE", "+254111234567", "0111 234567", "KE", "mobile", "Safaricom"),
        ("0733-123-456", "KE", "+254733123456", "0733 123456", "KE", "mobile", "Airtel"),
        ("0772 123456", "UG", "+256772123456", "0772 123456", "UG", "mobile", "MTN"),
        ("0751234567", "UG", "+256751234567", "0751 234567", "UG", "mobile", "Airtel"),
        ("0754 123 456", "TZ", "+255754123456", "0754 123 456", "TZ", "mobile", "Vodacom"),
        ("0785123456", "TZ", "+255785123456", "0785 123 456", "TZ", "mobile", "Airtel"),
        ("0803 123 4567", "NG", "+2348031234567", "0803 123 4567", "NG", "mobile", "MTN"),
        ("08051234567", "NG", "+2348051234567", "0805 123 4567", "NG", "mobile", "Glo"),
        ("0701 234 5678", "NG", "+2347012345678", "0701 234 5678", "NG", "mobile", "Airtel"),
    ],
)
def test_mobiles(
    text: str, country: str, e164: str, national: str, region: str, line_type: str, carrier: str
) -> None:
    result = analyse(text, country)
    assert result.valid, result.reason
    assert result.reason is None
    assert (result.e164, result.national, result.region) == (e164, national, region)
    assert (result.line_type, result.original_carrier) == (line_type, carrier)
    assert result.supported_region
    assert result.lookup_key == e164
    assert result.location is None  # mobiles have no area, only the country


@pytest.mark.parametrize(
    ("text", "country", "e164", "location"),
    [
        ("020 2712345", "KE", "+254202712345", "Nairobi"),
        ("041 2234567", "KE", "+254412234567", "Mombasa/Mariakani/Kilifi"),
        ("0414 234567", "UG", "+256414234567", "Kampala"),
        ("022 211 2345", "TZ", "+255222112345", "Dar-Es-Salaam"),
        ("0201 270 0000", "NG", "+2342012700000", "Lagos"),
        ("0209 461 0000", "NG", "+2342094610000", "Abuja"),
    ],
)
def test_fixed_lines_have_an_area(text: str, country: str, e164: str, location: str) -> None:
    result = analyse(text, country)
    assert result.valid
    assert result.line_type == "fixed line"
    assert result.original_carrier is None
    assert (result.e164, result.location) == (e164, location)


def test_toll_free() -> None:
    result = analyse("0800 720 000", "KE")
    assert result.valid and result.line_type == "toll free"


@pytest.mark.parametrize(
    ("text", "country", "reason"),
    [
        ("07123", "KE", "too short"),
        ("071234567890", "KE", "too long"),
        ("0912 345 678", "KE", "invalid prefix"),  # no 09 range in Kenya
        ("0702 123 456", "NG", "invalid prefix"),
        ("hello", "KE", "not a number"),
        ("", "UG", "not a number"),
        ("+2340", None, "too short"),
        ("0712345678", None, "missing country"),
        ("+999 712 345 678", None, "invalid country code"),
    ],
)
def test_invalid_numbers_say_why(text: str, country: str | None, reason: str) -> None:
    result = analyse(text, country)
    assert not result.valid
    assert result.reason == reason
    assert result.line_type is None and result.original_carrier is None
    assert result.lookup_key is None


@pytest.mark.parametrize(
    "text",
    ["0712345678", "+254712345678", "254712345678", "+254 (0)712-345-678", "00254712345678"],
)
def test_every_spelling_gives_one_key(text: str) -> None:
    assert lookup_key(text, "KE") == "+254712345678"


def test_international_form_wins_over_the_default_country() -> None:
    result = analyse("+256772123456", "KE")
    assert (result.region, result.original_carrier) == ("UG", "MTN")


def test_other_countries_parse_but_are_flagged() -> None:
    result = analyse("+44 20 7123 4567")
    assert result.valid
    assert result.region == "GB"
    assert not result.supported_region


def test_unsupported_default_country_is_refused() -> None:
    with pytest.raises(ValueError, match="country must be one of"):
        analyse("0712345678", "GB")

"""17-character VINs: vininfo's decode, the check digit where it applies, 400-worthy shapes."""

from __future__ import annotations

import random

import pytest
from vininfo import Vin

from hakiki.engines.vehicle import IdentifierError, decode_vin
from hakiki.engines.vehicle.vin import expected_check_digit

# Real-world VINs with published, valid check digits.
HONDA_ACCORD_2003 = "1HGCM82633A004352"  # the classic NHTSA example
SAIC_GM_CHINA = "LSGPC52U6AF102554"


def test_a_north_american_vin_is_decoded_and_its_check_digit_holds() -> None:
    vin = decode_vin(HONDA_ACCORD_2003, this_year=2026)
    assert (vin.manufacturer, vin.region, vin.country) == (
        "Honda",
        "North America",
        "United States",
    )
    assert vin.wmi == "1HG" and vin.model_years == (2003,) and vin.plant_code == "A"
    assert (vin.check_digit, vin.check_digit_expected) == ("valid", "3")


def test_one_changed_character_fails_the_check_digit() -> None:
    vin = decode_vin("1HGCM82633A004353")  # last digit changed: the check digit no longer holds
    assert vin.check_digit == "invalid" and vin.check_digit_expected == "5"
    altered = decode_vin("1HGCM82643A004352")  # position 9 itself changed
    assert altered.check_digit == "invalid" and altered.check_digit_expected == "3"


def test_a_chinese_vin_is_checked_too() -> None:
    vin = decode_vin(SAIC_GM_CHINA, this_year=2026)
    assert vin.region == "Asia" and vin.country == "China"
    assert vin.check_digit == "valid"
    assert vin.model_years == (2010, 1980)  # "A" recurs every 30 years; 2040 is not yet possible


@pytest.mark.parametrize(
    "raw", ["JTDBR32E720123456", "WVWZZZ1JZXW000001", "SALGA2JE0DA000001", "MALA841CBHM012345"]
)
def test_elsewhere_the_check_digit_is_not_applicable(raw: str) -> None:
    vin = decode_vin(raw)
    assert vin.check_digit == "not_applicable" and vin.check_digit_expected is None


def test_vininfo_details_give_plant_and_models_where_it_knows_them() -> None:
    vin = decode_vin("1N4AL3AP8DC123456")  # Nissan, Smyrna (Tennessee)
    assert vin.manufacturer == "Nissan" and vin.plant == "Smyrna"


def test_spaces_dashes_and_case_are_ignored() -> None:
    assert decode_vin(" 1hgcm8-2633a 004352 ").vin == HONDA_ACCORD_2003


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("1HGCM82633A00435", "17 characters, not 16"),
        ("1HGCM82633A0043521", "17 characters, not 18"),
        ("1HGCM82633AOO4352", "never contains I, O or Q"),
        ("1HGCM8263?A004352", "only the letters"),
        ("", "17 characters, not 0"),
    ],
)
def test_malformed_vins_are_refused(raw: str, problem: str) -> None:
    with pytest.raises(IdentifierError) as error:
        decode_vin(raw)
    assert problem in error.value.problem


def test_the_check_digit_agrees_with_vininfo() -> None:
    rng = random.Random(13)
    alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    for _ in range(500):
        body = "".join(rng.choice(alphabet) for _ in range(17))
        vin = body[:8] + expected_check_digit(body) + body[9:]
        assert Vin(vin).verify_checksum(check_year=False)
        assert (
            decode_vin("1" + vin[1:8] + expected_check_digit("1" + vin[1:]) + vin[9:]).check_digit
            == "valid"
        )

"""TD3 check digits against the ICAO Doc 9303 specimen (part 4, Appendix A: Anna Maria
Eriksson of Utopia)."""

from __future__ import annotations

import pytest

from hakiki.engines.mrz.td3 import MrzFormatError, check_digit, parse_td3

SPECIMEN_1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
SPECIMEN_2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"


def test_specimen_check_digits() -> None:
    assert check_digit("L898902C3") == "6"
    assert check_digit("740812") == "2"
    assert check_digit("120415") == "9"
    assert check_digit("ZE184226B<<<<<") == "1"


def test_specimen_parses_and_is_valid() -> None:
    mrz = parse_td3(SPECIMEN_1, SPECIMEN_2)
    assert mrz.valid
    assert (mrz.document_type, mrz.issuing_state, mrz.nationality) == ("P", "UTO", "UTO")
    assert (mrz.surname, mrz.given_names) == ("ERIKSSON", "ANNA MARIA")
    assert (mrz.document_number, mrz.birth_date, mrz.sex, mrz.expiry_date) == (
        "L898902C3", "740812", "F", "120415",
    )  # fmt: skip
    assert mrz.personal_number == "ZE184226B"


def _with(line: str, position: int, char: str) -> str:
    return line[:position] + char + line[position + 1 :]


@pytest.mark.parametrize(
    ("position", "char", "failed"),
    [
        (9, "5", ["document_number", "composite"]),  # the composite covers the check digit
        (19, "3", ["birth_date", "composite"]),
        (27, "0", ["expiry_date", "composite"]),
        (42, "2", ["personal_number", "composite"]),
        (43, "1", ["composite"]),
        (0, "M", ["document_number", "composite"]),  # a misread character, not a check digit
    ],
)
def test_each_broken_check_digit_is_named(position: int, char: str, failed: list[str]) -> None:
    mrz = parse_td3(SPECIMEN_1, _with(SPECIMEN_2, position, char))
    assert [f.field for f in mrz.failures] == failed
    assert not mrz.valid


def test_empty_personal_number_may_carry_a_filler_check_digit() -> None:
    line2 = "L898902C36UTO7408122F1204159<<<<<<<<<<<<<<<"
    composite = line2[0:10] + line2[13:20] + line2[21:43]
    mrz = parse_td3(SPECIMEN_1, line2[:43] + check_digit(composite))
    assert mrz.valid and mrz.personal_number == ""


@pytest.mark.parametrize(
    ("line1", "line2", "problem"),
    [
        (SPECIMEN_1, SPECIMEN_2[:-1], "line 2 has 43 characters"),
        (SPECIMEN_1, SPECIMEN_2[:-1] + "!", "only A-Z, 0-9 and <"),
        ("I" + SPECIMEN_1[1:], SPECIMEN_2, "starts with P"),
    ],
)
def test_not_a_td3_zone(line1: str, line2: str, problem: str) -> None:
    with pytest.raises(MrzFormatError, match=problem):
        parse_td3(line1, line2)

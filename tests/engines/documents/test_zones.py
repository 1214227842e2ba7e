"""The three zone layouts from text: fields, check digits, OCR confusions."""

from __future__ import annotations

import pytest

from hakiki.engines.mrz.zones import MrzError, TextLine, parse_text, parse_zone
from tests.documents.specimens import MRV_A, MRV_B, TD1_KENYA, TD1_UTOPIA

TD3 = (
    "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
    "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
)
TD2 = ("I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6")


def test_td3_icao_example() -> None:
    zone = parse_text(TD3)
    assert zone.valid and zone.layout == "TD3"
    assert (zone.surname, zone.given_names, zone.document_number) == (
        "ERIKSSON", "ANNA MARIA", "L898902C3",
    )  # fmt: skip
    assert (zone.birth_date, zone.expiry_date, zone.sex) == ("740812", "120415", "F")
    assert zone.optional_data == "ZE184226B"


def test_td2_and_td1_icao_examples() -> None:
    td2 = parse_text(TD2)
    assert td2.valid and td2.layout == "TD2" and td2.document_number == "D23145890"
    td1 = parse_text(TD1_UTOPIA)
    assert td1.valid and td1.layout == "TD1" and td1.document_number == "D23145890"
    assert td1.nationality == "UTO" and td1.given_names == "ANNA MARIA"
    kenya = parse_text(TD1_KENYA)
    assert kenya.valid and kenya.issuing_state == "KEN" and kenya.document_code == "ID"


def test_every_failing_check_digit_is_named() -> None:
    second = "L898902C36UTO7408123F1204150ZE184226B<<<<<10"
    zone = parse_text((TD3[0], second))
    assert {f.field for f in zone.failures} == {"birth_date", "expiry_date", "composite"}
    assert not zone.valid


def test_ocr_confusions_are_resolved_by_position_and_check_digit() -> None:
    # Letters where digits must be (dates, check digits), and a number whose O must be a 0.
    misread = (
        "P<UT0ERIKSS0N<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L8989O2C36UTO74O8122F12O4159ZE184226B<<<<<1O",
    )
    zone = parse_text(misread)
    assert zone.valid, zone.failures
    assert zone.surname == "ERIKSSON" and zone.document_number == "L898902C3"
    assert zone.lines == TD3


def test_a_long_td1_number_continues_in_the_optional_data() -> None:
    # ICAO 9303 part 5: a number of more than 9 characters, < as its check digit, the rest and
    # its check digit in the optional data.
    from hakiki.engines.mrz.td3 import check_digit

    number = "D23145890123"
    line1 = f"I<UTO{number[:9]}<{number[9:]}{check_digit(number)}"
    line1 += "<" * (30 - len(line1))
    line2 = "7408122F1204159UTO<<<<<<<<<<<"
    composite = check_digit(line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29])
    zone = parse_text((line1, line2 + composite, TD1_UTOPIA[2]))
    assert zone.valid, zone.failures
    assert zone.document_number == number


@pytest.mark.parametrize(
    "lines",
    [
        ("ABC",),
        (TD3[0], TD3[1][:40]),
        (TD2[0], TD2[1], TD2[1]),
        ("X<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", TD2[1]),  # no such document code
    ],
)
def test_what_is_not_a_zone_is_refused(lines: tuple[str, ...]) -> None:
    with pytest.raises(MrzError):
        parse_text(lines)
    with pytest.raises(MrzError):
        parse_zone([])


def test_text_line_keeps_what_no_confusion_explains() -> None:
    assert TextLine("A").best(0, "0123456789") == "A"


def test_visas_mrv_a_and_mrv_b_icao_examples() -> None:
    # ICAO 9303 part 7: no composite check digit, optional data to the end of the second line.
    mrv_a = parse_text(MRV_A)
    assert mrv_a.sure and mrv_a.layout == "MRV-A" and mrv_a.document_code == "V"
    assert (mrv_a.document_number, mrv_a.nationality, mrv_a.issuing_state) == (
        "L8988901C", "XXX", "UTO",
    )  # fmt: skip
    assert (mrv_a.birth_date, mrv_a.sex, mrv_a.expiry_date) == ("400907", "F", "961210")
    assert mrv_a.optional_data == "6ZE184226B"
    mrv_b = parse_text(MRV_B)
    assert mrv_b.sure and mrv_b.layout == "MRV-B" and mrv_b.surname == "ERIKSSON"
    assert mrv_b.optional_data == ""


def test_a_visa_still_checks_its_fields_check_digits() -> None:
    wrong = (MRV_A[0], MRV_A[1][:19] + "0" + MRV_A[1][20:])  # birth date's check digit
    assert [f.field for f in parse_text(wrong).failures] == ["birth_date"]
    # The last characters are optional data, not a composite check digit: anything goes.
    assert parse_text((MRV_B[0], MRV_B[1][:35] + "7")).sure


def test_v_is_a_visa_code_only_in_two_line_layouts() -> None:
    with pytest.raises(MrzError):
        parse_text(("V" + TD1_KENYA[0][1:], *TD1_KENYA[1:]))

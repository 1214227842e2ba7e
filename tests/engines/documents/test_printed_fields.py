"""The printed fields of a visual zone, from lines of text as PP-OCR gives them: dates in the
forms documents print, labels in several languages, the value a label points at, and each
field compared with the zone (match, mismatch, not found; a doubt is never a mismatch)."""

from __future__ import annotations

import pytest

from hakiki.engines.documents.printed_fields import MONTHS, Printed, dates_in, label_of, month_of
from hakiki.engines.documents.text_ocr import TextLine
from hakiki.engines.documents.visual_zone import compare
from hakiki.engines.mrz.zones import parse_text
from tests.documents.specimens import TD1_UTOPIA

# ICAO 9303's TD3 specimen: Anna Maria Eriksson, L898902C3, born 1974-08-12, expires 2012-04-15.
TD3_UTOPIA = (
    "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
    "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
)
ZONE = parse_text(TD3_UTOPIA)


def line(text: str, x: float, y: float, height: float = 20, confidence: float = 0.99) -> TextLine:
    right = x + len(text) * height * 0.6
    corners = ((x, y), (right, y), (right, y + height), (x, y + height))
    return TextLine(text, confidence, corners)


def page(**values: str | tuple[str, float]) -> list[TextLine]:
    """A data page: each field's label (small) and its value under it, in two columns, and the
    zone's own lines at the bottom (which are never compared with themselves)."""
    labels = {
        "surname": ("Surname/ Nom", 300, 100),
        "given_names": ("Given names/ Prénoms", 300, 170),
        "document_number": ("Passport No./ N° de passeport", 700, 100),
        "birth_date": ("Date of birth/ Date de naissance", 300, 240),
        "sex": ("Sex/ Sexe", 700, 240),
        "expiry_date": ("Date of expiry/ Date d'expiration", 300, 310),
    }
    lines = [line(TD3_UTOPIA[0], 40, 500, 28), line(TD3_UTOPIA[1], 40, 540, 28)]
    for field, (label, x, y) in labels.items():
        lines.append(line(label, x, y, 14))
        if field in values:
            value = values[field]
            text, confidence = value if isinstance(value, tuple) else (value, 0.99)
            lines.append(line(text, x, y + 22, 24, confidence))
    return lines


GENUINE = {
    "surname": "ERIKSSON",
    "given_names": "ANNA MARIA",
    "document_number": "L898902C3",
    "birth_date": "12 AUG/AOÛT 74",
    "sex": "F",
    "expiry_date": "15 APR/AVR 12",
}


@pytest.mark.parametrize(
    ("text", "yymmdd"),
    [
        ("12 AUG/AOUT 74", "740812"),
        ("12AUGUST/AOUT74", "740812"),
        ("12.08.1974", "740812"),
        ("12 08 1974", "740812"),
        ("1974-08-12", "740812"),
        ("1974-08.12", "740812"),  # separators as printed on a real Polish passport
        ("20 JUIN/JUN 1978", "780620"),
        ("8 AOUTAUG 2006", "060808"),  # the OCR ran the two names together
        ("12. MARZ 1974", "740312"),  # März, folded
        ("03 ENE 1990", "900103"),
        ("12 SEPTIEMBRE 1974", "740912"),
        ("31 DES/DEC 66", "661231"),
        ("13 LIP/JUL 2006", "060713"),
        ("Date of Birth: 12-08-1974", "740812"),
    ],
)
def test_dates_in_the_forms_documents_print(text: str, yymmdd: str) -> None:
    assert [d.readings for d in dates_in(text)] == [frozenset({yymmdd})]


def test_every_month_name_reads_as_its_month() -> None:
    assert {name: month_of(name) for name in MONTHS} == MONTHS
    assert month_of("AUG/AOUT") == 8 and month_of("MAR/APR") is None and month_of("XYZ") is None


def test_slashed_dates_read_both_ways_and_runs_of_digits_are_not_strict() -> None:
    [us] = dates_in("10/04/49")
    assert us.readings == {"491004", "490410"} and us.strict
    [run] = dates_in("10041960")
    assert run.readings == {"600410"} and not run.strict
    # "/" read as 7 between two month names: 01 JAN/JAN 85, neither 01 JAN 7 nor 7 JAN 85
    assert [d.readings for d in dates_in("01JAN7JAN85")] == [{"850101"}]
    assert dates_in("45.13.1990") == [] and dates_in("PASSPORT CESTOVNI PAS") == []
    assert dates_in("12 08.1974") == []  # a space and a dot: two numbers, not a date


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("4.Date of birth/Geburtstag/", "birth_date"),
        ("Fecha de nacimiento", "birth_date"),
        ("6.Place of birth/Geburtsort/", None),
        ("Lieu de naissance", None),
        ("1. Surname/Name/Nom", "surname"),
        ("1.Name/Nom", "surname"),
        ("Apellidos", "surname"),
        ("Given name/Vornamen/Prénoms", "given_names"),
        ("Nombre", "given_names"),
        ("NOMBRE D'ENTREES/NUMBER OF ENTRIES", None),
        ("Name (Surname, Given names)", None),
        ("Passport No./Pass-Nr.", "document_number"),
        ("Personal No./ N° personnel", None),
        ("8.Dateof expiry/Gültig bis", "expiry_date"),
        ("5.Sex/Geschlecht/Sexe", "sex"),
    ],
)
def test_labels_in_several_languages(text: str, field: str | None) -> None:
    assert label_of(Printed.of(line(text, 0, 0))) == field


def test_a_genuine_page_matches_every_field() -> None:
    found = compare(page(**GENUINE), ZONE)
    assert set(found.outcomes.values()) == {"match"} and found.confirmed
    assert found.lines == 12  # the zone's two lines left out


def test_printed_forms_of_the_same_values_match() -> None:
    found = compare(
        page(
            surname="Eriksson",
            given_names="ANNA-MARIA",
            document_number="L 898902 C3",
            birth_date="12.08.1974",
            expiry_date="2012-04-15",
            sex="F/F",
        ),
        ZONE,
    )
    assert set(found.outcomes.values()) == {"match"}


def test_a_value_after_a_colon_on_the_labels_line() -> None:
    lines = [
        line("Surname: JOHANSSON", 300, 100),
        line("Date of Birth: 12-08-1974", 300, 140),
        line("Passport No.: L898902C3", 300, 180),
    ]
    found = compare(lines, ZONE)
    assert found.outcomes["surname"] == "mismatch"
    assert found.outcomes["birth_date"] == found.outcomes["document_number"] == "match"


def test_a_date_the_detector_cut_in_two_is_joined() -> None:
    found = compare(
        [line("Date of expiry", 300, 300, 14), line("15APR/AVR", 300, 322), line("12", 400, 322)],
        ZONE,
    )
    assert found.outcomes["expiry_date"] == "match"
    nld = compare([line("120KT/OCT", 300, 322), line("1974 123456782", 500, 322)], ZONE)
    assert nld.outcomes["birth_date"] == "not_found"  # 12 OKT 1974 is not 12 AUG
    assert dates_in("120KT/OCT 1974")[0].readings == {"741012"}


def test_names_match_folded_and_truncated() -> None:
    name = "MUELLER<<JOSE<ANTONIO<MARIA<LUIS<HERNANDEZ"  # 42 letters and fillers: cut to 39
    zone = parse_text(("P<D<<" + name[:39], "CA000000<4D<<6408125F1802212<<<<<<<<<<<<<<<6"))
    assert zone.given_names == "JOSE ANTONIO MARIA LUIS HERNAN"
    found = compare(
        [
            line("Name/Nom", 300, 100, 14),
            line("MÜLLER", 300, 122, 24),
            line("Vornamen/Given names", 300, 170, 14),
            line("José Antonio María Luis Hernández", 300, 192, 24),
        ],
        zone,
    )
    assert found.outcomes["surname"] == "match" and found.outcomes["given_names"] == "match"


def test_a_printed_birth_date_other_than_the_zones_differs() -> None:
    found = compare(page(**{**GENUINE, "birth_date": "12 AUG/AOÛT 79"}), ZONE)
    assert found.outcomes["birth_date"] == "mismatch" and not found.confirmed
    assert found.fields("mismatch") == ["birth_date"]


def test_a_printed_name_or_number_other_than_the_zones_differs() -> None:
    found = compare(
        page(**{**GENUINE, "surname": "JOHANSSON", "document_number": "X1234567"}), ZONE
    )
    assert found.fields("mismatch") == ["document_number", "surname"]


def test_ocr_doubts_are_not_found_never_mismatches() -> None:
    doubts = page(
        **{
            **GENUINE,
            "birth_date": ("12 AUG/AOUT 79", 0.85),  # read unsurely
            "expiry_date": ("15 APR/AVR 13", 0.93),  # one digit off, read at 0.93: a slip
            "document_number": "L898902G3",  # one character off
            "surname": "ERIKSSAN",  # one letter off
            "given_names": "Anna Marla",  # mixed case: may be a label
        }
    )
    found = compare(doubts, ZONE)
    assert found.fields("mismatch") == []
    assert found.outcomes["birth_date"] == "not_found"
    assert found.outcomes["expiry_date"] == "not_found"
    assert found.outcomes["document_number"] == "not_found"
    # the same one-digit change read surely is a mismatch
    sure = compare(page(**{**GENUINE, "expiry_date": ("15 APR/AVR 13", 0.99)}), ZONE)
    assert sure.fields("mismatch") == ["expiry_date"]


def test_the_zones_other_date_under_a_label_is_not_a_mismatch() -> None:
    # The value taken from under "Date of birth" is the zone's expiry date: a layout the
    # labels were misread on, not a different birth date.
    found = compare(page(**{**GENUINE, "birth_date": "15 APR/AVR 12"}), ZONE)
    assert found.outcomes["birth_date"] == "not_found"


def test_nothing_printed_is_nothing_found() -> None:
    zone_only = [line(TD3_UTOPIA[0], 40, 500, 28), line(TD3_UTOPIA[1], 40, 540, 28)]
    found = compare(zone_only, ZONE)
    assert found.lines == 0 and set(found.outcomes.values()) == {"not_found"}
    labels_only = compare(page(), ZONE)
    assert set(labels_only.outcomes.values()) == {"not_found"} and not labels_only.confirmed


def test_two_sides_join_and_a_match_on_one_side_wins() -> None:
    front = compare(page(surname="ERIKSSON", birth_date="12.08.1974"), parse_text(TD1_UTOPIA))
    back = compare(page(document_number="D23145890"), parse_text(TD1_UTOPIA))
    both = front.joined(back)
    assert not front.confirmed and not back.confirmed and both.confirmed
    assert both.lines == front.lines + back.lines

"""Never confidently wrong (issue 32): a field guarded by a check digit is taken only when
exactly one confident reading passes it; otherwise it is unsure, with its candidates.

Two swaps of O and 0 at weights 7 and 3 leave a check digit unchanged (7 x 24 + 3 x 24 = 240),
so "swap until the check digit passes" finds wrong numbers that pass."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from hakiki.engines.documents.ocrb import ALPHABET, ReadLine
from hakiki.engines.documents.zone import scan
from hakiki.engines.mrz.td3 import check_digit
from hakiki.engines.mrz.zones import parse_zone
from tests.documents.specimens import render_card


def td3(number: str, birth: str, expiry: str, personal: str = "") -> tuple[str, str]:
    """A TD3 zone of a Kenyan passport with its check digits computed."""
    first = "P<KENOTIENO<<ZAWADI".ljust(44, "<")
    padded, extra = number.ljust(9, "<"), personal.ljust(14, "<")
    second = (
        f"{padded}{check_digit(padded)}KEN{birth}{check_digit(birth)}F{expiry}"
        f"{check_digit(expiry)}{extra}{check_digit(extra) if personal else '<'}"
    )
    return first, second + check_digit(second[0:10] + second[13:20] + second[21:43])


def td1(number: str, birth: str, expiry: str, optional: str = "") -> tuple[str, str, str]:
    padded = number.ljust(9, "<")
    first = f"IDKEN{padded}{check_digit(padded)}{optional}".ljust(30, "<")
    second = f"{birth}{check_digit(birth)}F{expiry}{check_digit(expiry)}KEN".ljust(29, "<")
    second += check_digit(first[5:30] + second[0:7] + second[8:15] + second[18:29])
    return first, second, "OTIENO<<ZAWADI".ljust(30, "<")


def reading(line: str, doubtful: dict[int, tuple[str, float]] | None = None) -> ReadLine:
    """A line read glyph by glyph: each printed glyph scores 0.9, the others 0.3; ``doubtful``
    gives a position a rival glyph and its score."""
    scores = np.full((len(line), len(ALPHABET)), 0.3, dtype=np.float32)
    for i, ch in enumerate(line):
        scores[i, ALPHABET.index(ch)] = 0.9
    for i, (rival, score) in (doubtful or {}).items():
        scores[i, ALPHABET.index(rival)] = score
    return ReadLine(scores=scores)


def test_two_o_zero_readings_that_both_pass_the_check_digit_are_unsure() -> None:
    lines = td3("AB0000000", "900101", "301231")
    assert check_digit("AB0OO0000") == check_digit("AB0000000")  # weights 7 and 3: 240
    # The zeros at positions 3 and 4 look as much like O as like 0.
    zone = parse_zone([reading(lines[0]), reading(lines[1], {3: ("O", 0.88), 4: ("O", 0.88)})])
    assert zone.valid and not zone.sure
    (doubt,) = zone.unsure
    assert doubt.field == "document_number"
    assert set(doubt.candidates) == {"AB0000000", "AB0OO0000"}
    assert zone.document_number in doubt.candidates


def test_exactly_one_confident_reading_that_passes_is_taken() -> None:
    lines = td3("AB0000000", "900101", "301231")
    # One doubtful zero: O there changes the check digit, so only the printed 0 passes.
    zone = parse_zone([reading(lines[0]), reading(lines[1], {3: ("O", 0.88)})])
    assert zone.sure and zone.document_number == "AB0000000"
    # Read as O more surely than 0, but 0 still within the margin: the check digit decides.
    zone = parse_zone([reading(lines[0]), reading(lines[1], {3: ("O", 0.93)})])
    assert zone.sure and zone.document_number == "AB0000000"


def test_a_zero_read_surely_as_o_is_unsure_never_silently_repaired() -> None:
    lines = td3("AB1000000", "900101", "301231")
    misread = lines[1][:3] + "O" + lines[1][4:]
    # The glyph is confidently an O: no confident reading passes. The O/0 confusion explains
    # the failing check digit, so the field is unsure (not verified, not failed).
    zone = parse_zone([reading(lines[0]), reading(misread, {3: ("0", 0.5)})])
    assert not zone.failures and not zone.sure
    assert zone.unsure[0].field == "document_number"
    assert "AB1000000" in zone.unsure[0].candidates


def test_a_check_digit_nothing_explains_still_fails() -> None:
    first, second = td3("AB1234567", "900101", "301231")
    wrong = second[:9] + str((int(second[9]) + 1) % 10) + second[10:]
    zone = parse_zone([reading(first), reading(wrong)])
    assert {f.field for f in zone.failures} >= {"document_number"} and not zone.unsure


def test_dates_stay_digits_when_their_check_digit_fails() -> None:
    first, second = td3("AB1234567", "740812", "301231")
    wrong = second[:19] + str((int(second[19]) + 3) % 10) + second[20:]
    zone = parse_zone([reading(first), reading(wrong)])
    assert zone.birth_date.isdigit()
    assert "birth_date" in {f.field for f in zone.failures}


ZEROS = [
    td3("A00000000", "000101", "300101", "00000000000000"),
    td3("AK0000000", "900101", "301231", "0000000000"),
    td3("100200300", "010100", "201010", "A000000000"),
    td1("000000000", "000101", "300101"),
    td1("AO0000000", "800101", "301010", "00000000"),
]


@pytest.mark.parametrize("lines", ZEROS, ids=lambda lines: lines[0][:15])
def test_zeros_everywhere_are_read_or_unsure_never_wrong(lines: tuple[str, ...]) -> None:
    for photo in ({}, {"angle": -8, "blur": 1.5, "quality": 60}):
        data = render_card(lines, **photo)  # type: ignore[arg-type]
        found = scan(np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))).reading
        assert found is not None
        zone = found.zone
        # A genuine document with zeros in its number and personal number never fails.
        assert not zone.failures, zone.failures
        if zone.sure:
            assert zone.lines == lines
        for doubt in zone.unsure:
            if doubt.field not in ("document_number", "personal_number"):
                # A name or code read unsurely (issue 32: nothing checks it): still as printed.
                assert doubt.candidates[0] == {
                    "issuing_state": lines[0][2:5],
                    "name": lines[-1] if len(lines) == 3 else lines[0][5:],
                    "nationality": lines[1][15:18] if len(lines) == 3 else lines[1][10:13],
                    "sex": lines[1][7] if len(lines) == 3 else lines[1][20],
                }[doubt.field]  # fmt: skip
                continue
            start = {"document_number": 0, "personal_number": 28}[doubt.field]
            printed = lines[1][start : start + (9 if start == 0 else 14)]
            if len(lines) == 3:
                printed = lines[0][5:14]
            assert printed in doubt.candidates
        assert (zone.birth_date, zone.expiry_date) == (
            (lines[1][13:19], lines[1][21:27])
            if len(lines) == 2
            else (lines[1][0:6], lines[1][8:14])
        )


def test_a_reading_where_every_glyph_is_in_doubt_stays_bounded() -> None:
    # A noisy photo: every character of the number scores the same. The readings tried are
    # capped (three per position, 2,048 per field), so this answers at once and stays unsure.
    first, second = td3("AB1234567", "900101", "301231")
    scores = reading(second).scores
    scores[0:9, :] = 0.6
    zone = parse_zone([reading(first), ReadLine(scores=scores)])
    assert not zone.sure
    assert all(len(doubt.candidates) <= 2048 for doubt in zone.unsure)


def test_a_6_read_as_g_unsurely_is_unsure_for_no_check_digit_tells_them_apart() -> None:
    # G is 16: at any weight it adds what 6 adds, modulo 10. A zone in another font than
    # OCR-B (yu_mrz_strip_taylor.png of the real-image bench) read the 6 of B98765432 as G at
    # 0.75, the 6 nowhere near: "B987G5432" passed its check digit, a wrong number, valid.
    lines = td3("B98765432", "900101", "301231")
    assert check_digit("B987G5432") == check_digit("B98765432")
    misread = lines[1][:4] + "G" + lines[1][5:]
    unsure = parse_zone([reading(lines[0]), reading(misread, {4: ("G", 0.75)})])
    assert [d.field for d in unsure.unsure] == ["document_number"]
    assert set(unsure.unsure[0].candidates) == {"B987G5432", "B98765432"}
    # Read surely (OCR-B's G and 6 score 0.8 and more on real scans): the G is what is printed.
    sure = parse_zone([reading(lines[0]), reading(misread)])
    assert sure.sure and sure.document_number == "B987G5432"

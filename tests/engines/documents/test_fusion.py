"""Two readers of the zone fused (issue 32): the glyph matcher and PP-OCRv4, per character.

The readings here are built by hand (a glyph reading's scores, a recogniser's probabilities)
so each rule of docs/decisions.md "Issue 32: a second reader" is shown on its own."""

from __future__ import annotations

import numpy as np

from hakiki.engines.documents.mrz_fusion import fuse
from hakiki.engines.documents.mrz_ocr import OcrLine, decode
from hakiki.engines.documents.ocrb import ALPHABET
from hakiki.engines.mrz.td3 import check_digit
from hakiki.engines.mrz.zones import parse_zone
from tests.engines.documents.test_unsure import reading, td3


def ocr(line: str, doubtful: dict[int, tuple[str, float]] | None = None) -> OcrLine:
    """A line as the recogniser reads it: each character 0.97, ``doubtful`` positions with a
    rival at its probability (the printed character keeps the rest)."""
    probabilities = np.full((len(line), len(ALPHABET)), 0.001, dtype=np.float32)
    for i, ch in enumerate(line):
        probabilities[i, ALPHABET.index(ch)] = 0.97
    for i, (rival, p) in (doubtful or {}).items():
        probabilities[i, ALPHABET.index(rival)] = p
        probabilities[i, ALPHABET.index(line[i])] = 0.97 - p
    return OcrLine(probabilities)


def swapped(line: str, changes: dict[int, str]) -> str:
    return "".join(changes.get(i, ch) for i, ch in enumerate(line))


def test_the_readers_agreeing_is_the_value() -> None:
    first, second = td3("AB0000000", "900101", "301231")
    zone = fuse([reading(first), reading(second)], [ocr(first), ocr(second)])
    assert zone.sure and zone.lines == (first, second)


def test_a_torn_matcher_is_settled_by_a_sure_recogniser() -> None:
    first, second = td3("AB0000000", "900101", "301231")
    # The matcher cannot tell O from 0 at two positions whose swaps keep the check digit
    # (7 x 24 + 3 x 24 = 240): alone, it is unsure between two numbers that both pass.
    torn = reading(second, {3: ("O", 0.88), 4: ("O", 0.88)})
    assert not parse_zone([reading(first), torn]).sure
    zone = fuse([reading(first), torn], [ocr(first), ocr(second)])
    assert zone.sure and zone.document_number == "AB0000000"


def test_a_wrong_number_that_passes_is_unsure_when_the_other_reader_passes_another() -> None:
    first, second = td3("AB0000000", "900101", "301231")
    wrong = swapped(second, {3: "O", 4: "O"})  # AB0OO0000: its check digit holds too
    assert check_digit(wrong[:9]) == wrong[9]
    # The matcher alone is sure of the wrong number and every check digit holds.
    assert parse_zone([reading(first), reading(wrong)]).sure
    zone = fuse([reading(first), reading(wrong)], [ocr(first), ocr(second)])
    assert zone.valid and not zone.sure
    (doubt,) = [d for d in zone.unsure if d.field == "document_number"]
    assert set(doubt.candidates) == {"AB0000000", "AB0OO0000"}


def test_disagreement_where_one_value_passes_takes_it() -> None:
    first, second = td3("AB1234567", "900101", "301231")
    misread = swapped(second, {5: "8"})  # AB1238567: its check digit fails
    zone = fuse([reading(first), reading(misread)], [ocr(first), ocr(second)])
    assert zone.sure and zone.document_number == "AB1234567"


def test_a_repair_with_more_than_one_passing_candidate_is_unsure() -> None:
    first, second = td3("AB0000000", "900101", "301231")
    # The recogniser hesitates at 3 and 4 between 0 and O, the matcher too: two pass.
    zone = fuse(
        [reading(first), reading(second, {3: ("O", 0.88), 4: ("O", 0.88)})],
        [ocr(first), ocr(second, {3: ("O", 0.4), 4: ("O", 0.4)})],
    )
    assert not zone.sure
    assert {"AB0000000", "AB0OO0000"} <= set(zone.unsure[0].candidates)


def test_names_the_readers_read_differently_are_unsure_with_both() -> None:
    first, second = td3("AB1234567", "900101", "301231")  # P<KENOTIENO<<ZAWADI
    misread = swapped(first, {7: "F"})  # the matcher reads E as F, surely
    zone = fuse([reading(misread), reading(second)], [ocr(first), ocr(second)])
    (doubt,) = zone.unsure
    assert doubt.field == "name"
    assert set(doubt.candidates) == {first[5:], misread[5:]}
    assert zone.surname == "OTIENO"  # the recogniser's, read at the line's full length


def test_a_recogniser_that_abstains_leaves_the_matcher_alone() -> None:
    first, second = td3("AB1234567", "900101", "301231")
    # A smudge: the recogniser's best at position 5 is under one half.
    unsure = ocr(second, {5: ("8", 0.6)})
    zone = fuse([reading(first), reading(second)], [ocr(first), unsure])
    assert zone.sure and zone.document_number == "AB1234567"


def test_letters_and_digits_each_take_what_their_field_allows() -> None:
    first, second = td3("AB1234567", "900101", "301231")
    # The recogniser's usual slips: 0 for O in the state, O for 0 in the birth date.
    read_first = swapped(first, {5: "0"})  # P<KEN0TIENO
    read_second = swapped(second, {14: "O"})  # 9O0101
    zone = parse_zone([ocr(read_first), ocr(read_second)])
    assert zone.surname == "OTIENO" and zone.birth_date == "900101" and zone.sure


def frames_of(text: str, pitch: int = 4, peaks: dict[int, int] | None = None) -> np.ndarray:
    """CTC frames: each character peaks on one frame, blanks between; ``peaks`` makes a
    character's run last several frames (a run of < read as one)."""
    rows = []
    for i, ch in enumerate(text):
        span = (peaks or {}).get(i, 1)
        for _ in range(span):
            row = np.full(1 + len(ALPHABET), 0.001, dtype=np.float32)
            row[1 + ALPHABET.index(ch)] = 0.98
            rows.append(row)
        for _ in range(pitch - span if span < pitch else 0):
            row = np.full(1 + len(ALPHABET), 0.001, dtype=np.float32)
            row[0] = 0.98
            rows.append(row)
    return np.stack(rows)


def test_a_run_of_fillers_read_as_one_is_widened_by_its_frames() -> None:
    line = "P<KENOTIENO<<ZAWADI".ljust(44, "<")
    read = "P<KENOTIENO<<ZAWADI<"  # the trailing run of 25 read as one <, peaking late
    frames = frames_of(read[:-1])
    # The run of < from position 19 to 43: one character whose frames reach the end.
    tail = np.full((25 * 4, 1 + len(ALPHABET)), 0.001, dtype=np.float32)
    tail[:, 1 + ALPHABET.index("<")] = 0.98
    decoded = decode(np.concatenate([frames, tail]), 44)
    assert decoded is not None and decoded.text == line and decoded.padded


def test_a_letter_not_read_is_unknown_never_guessed() -> None:
    line = "P<KENOTIENO<<ZAWADI".ljust(44, "<")
    frames = frames_of(line)
    frames[7 * 4] = frames[7 * 4 + 1]  # the I of OTIENO not read: a blank where it was
    decoded = decode(frames, 44)
    assert decoded is not None and decoded.text[:7] + decoded.text[8:] == line[:7] + line[8:]
    assert decoded.sure_of(7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ<") == []  # the recogniser abstains
    assert decoded.sure_of(6, "ABCDEFGHIJKLMNOPQRSTUVWXYZ<") == ["T"]
    for i in (8, 9, 10):  # three more not read: too many, the line is not read
        frames[i * 4] = frames[i * 4 + 1]
    assert decode(frames, 44) is None


def test_a_state_code_that_cannot_be_one_is_unsure() -> None:
    # The recogniser alone, sure of a < where the K of KEN is: "<EN" is no state code (codes
    # are letters padded at the end), so the state is unsure, never reported as "EN".
    from hakiki.engines.documents.mrz_fusion import _malformed

    first, second = td3("AB1234567", "900101", "301231")
    misread = swapped(first, {2: "<"})
    zone = _malformed(parse_zone([ocr(misread), ocr(second)]))
    assert [doubt.field for doubt in zone.unsure] == ["issuing_state"]
    assert _malformed(parse_zone([ocr(first), ocr(second)])).sure


def test_a_state_code_no_list_holds_is_unsure() -> None:
    # No check digit guards the issuing state and the nationality: a real Egyptian scan read
    # EGY as EQY, a British one GBR as QDA, both agreed by the two readers. A code that neither
    # ISO 3166 nor ICAO's own list holds is unsure, never reported as read.
    from hakiki.engines.documents.mrz_fusion import _malformed

    first, second = td3("AB1234567", "900101", "301231")
    misread = swapped(second, {10: "Q", 11: "D", 12: "A"})  # the nationality
    zone = _malformed(parse_zone([ocr(first), ocr(misread)]))
    assert [(doubt.field, doubt.candidates) for doubt in zone.unsure] == [("nationality", ("QDA",))]
    for code in ("D<<", "UTO", "XXA", "GBD"):  # Germany, ICAO's specimen, stateless, British
        line = first[:2] + code + first[5:]
        assert not _malformed(parse_zone([ocr(line), ocr(second)])).unsure


def test_failing_check_digits_read_by_the_recogniser_alone_are_attention_not_failed() -> None:
    from PIL import Image

    from hakiki.engines.documents.verify import _zone_check
    from hakiki.engines.documents.zone import Scan, ZoneReading

    first, second = td3("AB1234567", "900101", "301231")
    broken = swapped(second, {9: str((int(second[9]) + 1) % 10)})
    zone = parse_zone([ocr(first), ocr(broken)])
    assert zone.failures
    for readers, status in ((("pp-ocr",), "attention"), (("glyphs", "pp-ocr"), "failed")):
        reading = ZoneReading(zone, zone.lines, 0.0, 0, 0.97, readers=readers)
        check = _zone_check(Scan(Image.new("L", (8, 8)), reading, None), "passport", [])
        assert check.status == status


# Never confidently wrong on what no check digit guards (names, codes, sex).


def test_a_name_letter_the_matcher_is_torn_over_is_unsure_though_the_recogniser_is_sure() -> None:
    # The Icelandic scan of bench/documents_real.py: ...THURIDUR<OESP, the matcher's best F
    # with E close behind, the recogniser sure of E. Nothing checks a name: unsure, both kept.
    first, second = td3("AB1234567", "900101", "301231")  # P<KENOTIENO<<ZAWADI
    misread = swapped(first, {8: "F"})  # OTIFNO
    torn = reading(misread, {8: ("E", 0.88)})
    zone = fuse([torn, reading(second)], [ocr(first), ocr(second)])
    (doubt,) = [d for d in zone.unsure if d.field == "name"]
    assert {first[5:], misread[5:]} <= set(doubt.candidates)
    assert zone.valid and not zone.sure


def test_a_name_letter_the_recogniser_reads_unsurely_is_unsure_though_both_agree() -> None:
    first, second = td3("AB1234567", "900101", "301231")
    # Both read the first A of ZAWADI best, but neither surely: the recogniser at 0.6 with H
    # at 0.37, the matcher with H close behind. Not a sure read of a name.
    hesitant = ocr(first, {14: ("H", 0.37)})
    torn = reading(first, {14: ("H", 0.88)})
    zone = fuse([torn, reading(second)], [hesitant, ocr(second)])
    (doubt,) = zone.unsure
    assert doubt.field == "name" and doubt.candidates[0] == first[5:]
    assert zone.given_names == "ZAWADI"  # reported as read, but not as sure


def test_a_letter_one_reader_read_in_addition_is_unsure() -> None:
    # An extra letter in one reader's alignment: ZAWADI against ZAWAADI, every later letter
    # shifted by one. Both readers sure of their own: the name is unsure with both readings.
    first, second = td3("AB1234567", "900101", "301231")
    longer = first[:18] + "A" + first[18:43]
    zone = fuse([reading(first), reading(second)], [ocr(longer), ocr(second)])
    (doubt,) = zone.unsure
    assert doubt.field == "name" and {first[5:], longer[5:]} <= set(doubt.candidates)


def test_a_nationality_read_as_digits_is_unsure_whatever_letters_it_makes() -> None:
    # Both readers see 6BR where the nationality is: the parser makes it GBR (a code holds
    # letters only) and GBR is a listed code, but a 6 was seen: unsure, never reported as read.
    first, second = td3("AB1234567", "900101", "301231")
    seen = swapped(second, {10: "6", 11: "B", 12: "R"})
    zone = fuse([reading(first), reading(seen)], [ocr(first), ocr(seen)])
    assert zone.nationality == "GBR"
    (doubt,) = zone.unsure
    assert doubt.field == "nationality" and doubt.candidates[0] == "GBR"
    assert "6BR" in doubt.candidates
    # A 0 for an O is left to the parser: OCR-B's two differ by their width only.
    utopia = first[:2] + "UTO" + first[5:]
    zero = swapped(second, {10: "U", 11: "T", 12: "0"})  # UTO read UT0 by both
    matched = reading(zero, {12: ("O", 0.85)})  # the matcher: 0 first, O close behind
    zone = fuse([reading(utopia), matched], [ocr(utopia), ocr(zero)])
    assert zone.nationality == "UTO" and zone.sure


def test_a_code_no_list_holds_with_one_lookalike_that_is_listed_reports_it_unsure() -> None:
    from hakiki.engines.documents.mrz_fusion import _malformed

    first, second = td3("AB1234567", "900101", "301231")
    egypt = first[:2] + "EGY" + first[5:]
    misread = swapped(second, {10: "E", 11: "Q", 12: "Y"})  # EGY read as EQY by both
    zone = _malformed(parse_zone([ocr(egypt), ocr(misread)]))
    assert zone.nationality == "EGY" and zone.lines[1][10:13] == "EGY"
    assert [(d.field, d.candidates) for d in zone.unsure] == [("nationality", ("EGY", "EQY"))]


def test_the_reader_that_misread_the_checked_digits_goes_second_in_the_name() -> None:
    # A zone set in another font (Courier): the matcher misreads digits, which the check digits
    # show, and a letter of the name; the recogniser is sure of every digit but only 0.85 of
    # the name's letter. Its reading of the name goes first (still unsure: nothing checks it).
    first, second = td3("AB1234567", "900101", "301231")
    glyph_second = swapped(second, {2: "I", 4: "B", 6: "S"})  # 1 as I, 3 as B, 5 as S
    glyph_first = swapped(first, {7: "T"})  # OTIENO as OTTENO
    hesitant = ocr(first)
    hesitant.probabilities[7, ALPHABET.index("I")] = 0.85
    assert parse_zone([reading(glyph_first), reading(second)]).surname == "OTTENO"
    zone = fuse([reading(glyph_first), reading(glyph_second)], [hesitant, ocr(second)])
    assert zone.document_number == "AB1234567"
    assert zone.surname == "OTIENO"
    (doubt,) = [d for d in zone.unsure if d.field == "name"]
    assert {first[5:], glyph_first[5:]} <= set(doubt.candidates)


def test_a_listed_code_whose_rival_letter_makes_no_code_is_settled_by_the_list() -> None:
    # A rotated, blurred card: the matcher torn between F and E in KEN (F first by a hair), the
    # recogniser sure of E. KFN is no code: the list settles it, as a check digit would.
    first, second = td3("AB1234567", "900101", "301231")
    torn = reading(swapped(second, {11: "F"}), {11: ("E", 0.88)})
    zone = fuse([reading(first), torn], [ocr(first), ocr(second)])
    assert zone.nationality == "KEN" and zone.sure
    # Where the rival letter makes a listed code too (GBR and GBP), it stays unsure.
    british, pound = (swapped(second, {10: "G", 11: "B", 12: ch}) for ch in "RP")
    line = first[:2] + "GBR" + first[5:]
    torn = reading(pound, {12: ("R", 0.88)})
    zone = fuse([reading(line), torn], [ocr(line), ocr(british)])
    assert [d.field for d in zone.unsure] == ["nationality"]

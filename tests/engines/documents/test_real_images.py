"""Real document images (tests/data/documents/real, MIT, see SOURCES.md): zones the old reader
got wrong or missed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from hakiki.engines.documents.zone import scan

REAL = Path(__file__).resolve().parents[2] / "data" / "documents" / "real"


def read(name: str) -> tuple[str, ...] | None:
    reading = scan(np.asarray(Image.open(REAL / name).convert("RGB"))).reading
    return None if reading is None else reading.zone.lines


def test_a_number_of_zeros_is_not_read_as_a_wrong_number_that_passes() -> None:
    # The old reader: CAO0OOOO, whose check digit holds (two O/0 swaps at weights 7 and 3).
    reading = scan(np.asarray(Image.open(REAL / "pe-100_pass-bdr.jpg").convert("RGB"))).reading
    assert reading is not None and reading.zone.valid
    assert reading.zone.document_number == "CA000000"
    # The specimen's issuing state, BDR, is in no list of codes (Germany's is D): unsure, the
    # only doubt; the number is read surely.
    assert [(d.field, d.candidates) for d in reading.zone.unsure] == [("issuing_state", ("BDR",))]
    assert reading.zone.lines[1] == "CA000000<4D<<6408125F1802212<<<<<<<<<<<<<<<6"


def test_a_frame_touching_the_zone_is_trimmed_away() -> None:
    assert read("yu-1.png") == (
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    )


def test_a_name_letter_the_readers_disagree_on_is_unsure_on_a_real_scan() -> None:
    # The Icelandic specimen: THURIDUR<OESP, the E read as F by the glyph matcher. Main
    # reported the name as read surely; no check digit could have caught a wrong letter.
    reading = scan(np.asarray(Image.open(REAL / "pe-100_pass-isl.png").convert("RGB"))).reading
    assert reading is not None and reading.zone.valid
    assert reading.zone.given_names == "THURIDUR OESP"
    (doubt,) = [d for d in reading.zone.unsure if d.field == "name"]
    assert "AEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<" in doubt.candidates
    assert reading.zone.document_number == "A0000000"


def test_a_code_read_with_a_lookalike_letter_is_the_listed_code_and_unsure() -> None:
    reading = scan(np.asarray(Image.open(REAL / "pe-24_pass-egy.jpg").convert("RGB"))).reading
    assert reading is not None and reading.zone.nationality == "EGY"
    (doubt,) = [d for d in reading.zone.unsure if d.field == "nationality"]
    assert doubt.candidates[0] == "EGY" and "EQY" in doubt.candidates


def test_a_zone_in_another_font_takes_the_recogniser_s_letters_in_the_name() -> None:
    # Courier: the glyph matcher read TAYLGR (and misread digits the check digits settled).
    reading = scan(np.asarray(Image.open(REAL / "yu-mrz_strip_taylor.png").convert("RGB"))).reading
    assert reading is not None
    assert (reading.zone.surname, reading.zone.given_names) == ("TAYLOR", "SARA JANE")
    assert "name" in {d.field for d in reading.zone.unsure}  # the readers disagreed
    assert reading.zone.document_number == "B98765432"


def test_a_zone_in_a_wide_monospaced_font_is_read_squeezed() -> None:
    # A card's back drawn in a wide monospaced font: the recogniser read PUBLIC<<JON as
    # PUBC<<ON (letters skipped), the glyph matcher found nothing; squeezed, the line reads.
    lines = read("pe-77_card-cmw.png")
    assert lines == (
        "IDCMW<512849702<<<<<<<<<<<<<<<",
        "6104128M1402209CMW<<<<<<<<<<<1",
        "PUBLIC<<JON<<<<<<<<<<<<<<<<<<<",
    )

"""Finding the zone anywhere in the photo: turned by any angle, taken at a slant, a strip of the
zone alone, a frame around it, two sides of a card side by side; visas. Cards rendered here
(tests/documents/specimens.py) and real images (tests/data/documents/real, SOURCES.md)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hakiki.engines.documents.zone import Scan, scan
from tests.documents.specimens import (
    MRV_A,
    MRV_B,
    TD1_KENYA,
    framed,
    render_card,
    slanted,
    tight_strip,
    two_sides,
)

REAL = Path(__file__).resolve().parents[2] / "data" / "documents" / "real"
TD3 = (
    "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
    "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
)


def scanned(data: bytes) -> Scan:
    return scan(np.asarray(Image.open(io.BytesIO(data)).convert("RGB")))


def read_surely(data: bytes) -> tuple[tuple[str, ...], str]:
    reading = scanned(data).reading
    assert reading is not None and reading.zone.sure
    return reading.zone.lines, getattr(reading, "located", "")


@pytest.mark.parametrize("angle", [40, 125])
def test_a_card_turned_by_any_angle_is_read(angle: int) -> None:
    # The deskew looks within 15 degrees of the quarter turns; these are far from all four.
    lines, located = read_surely(render_card(TD1_KENYA, width=900, angle=angle, fmt="PNG"))
    assert lines == TD1_KENYA and located == "turned"


@pytest.mark.parametrize(
    "corners",
    [
        ((0.18, 0.05), (0.88, 0.0), (1.0, 1.0), (0.0, 0.92)),  # the top edge far away
        ((0.0, 0.0), (1.0, 0.12), (0.85, 0.85), (0.1, 1.0)),  # held at a slant and turned
    ],
)
def test_a_card_photographed_at_a_slant_is_flattened(
    corners: tuple[tuple[float, float], ...],
) -> None:
    lines, located = read_surely(slanted(TD1_KENYA, corners))
    assert lines == TD1_KENYA and located == "flattened"


@pytest.mark.parametrize(("zone", "margin"), [(TD1_KENYA, 0), (TD3, 4)], ids=["TD1", "TD3"])
def test_a_strip_of_the_zone_alone_is_read(zone: tuple[str, ...], margin: int) -> None:
    # A line of glyphs is then far taller than a twelfth of the image's height.
    lines, located = read_surely(tight_strip(zone, margin))
    assert lines == zone and located == "whole"


def test_a_small_strip_of_the_zone_is_read() -> None:
    strip = Image.open(io.BytesIO(tight_strip(TD3, 3)))
    small = strip.resize((360, round(strip.height * 360 / strip.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "JPEG", quality=80)
    lines, _ = read_surely(out.getvalue())
    assert lines == TD3


@pytest.mark.parametrize("zone", [TD1_KENYA, TD3], ids=["TD1", "TD3"])
def test_a_frame_around_the_zone_does_not_throw_the_spacing(zone: tuple[str, ...]) -> None:
    # The frame's sides, chained to the glyphs, made the line wider: every cell was off.
    lines, _ = read_surely(framed(zone))
    assert lines == zone


def test_two_sides_side_by_side_are_read_one_half_at_a_time() -> None:
    lines, located = read_surely(two_sides(TD1_KENYA))
    assert lines == TD1_KENYA and located == "half"


@pytest.mark.parametrize(("zone", "layout"), [(MRV_A, "MRV-A"), (MRV_B, "MRV-B")])
def test_a_visa_is_read(zone: tuple[str, ...], layout: str) -> None:
    reading = scanned(render_card(zone, width=1100)).reading
    assert reading is not None and reading.zone.sure
    assert reading.zone.layout == layout and reading.zone.document_code == "V"
    assert reading.zone.lines == zone and reading.zone.document_number == "L8988901C"


def real(name: str) -> Scan:
    return scan(np.asarray(Image.open(REAL / name).convert("RGB")))


def test_a_real_schengen_visa_is_read() -> None:
    reading = real("pe-100_visa-polx.jpg").reading
    assert reading is not None and reading.zone.sure and reading.zone.layout == "MRV-B"
    zone = reading.zone
    assert (zone.document_code, zone.issuing_state, zone.document_number) == (
        "VC", "POL", "PL0000000",
    )  # fmt: skip
    assert (zone.surname, zone.given_names) == ("KOWALSKA KWIATKOWSKA", "BEATA")
    assert (zone.birth_date, zone.sex, zone.expiry_date) == ("600208", "F", "050501")


def test_specks_of_a_scanned_background_chain_no_glyphs() -> None:
    # The dust between the scan's edge and the zone made the first line start at the edge.
    reading = real("pe-100_pass-hrv.jpg").reading
    assert reading is not None and reading.zone.valid and reading.located == "whole"
    assert reading.zone.lines == (
        "P<HRVSPECIMEN<<SPECIMEN<<<<<<<<<<<<<<<<<<<<<",
        "0070070071HRV8212258F1407019<<<<<<<<<<<<<<06",
    )
    # The glyph reader alone reads 007007007 or 007007OO7 (both pass the check digits); the
    # recogniser's zeros settle it: both readers agree, so the number is sure.
    assert reading.readers == ("glyphs", "pp-ocr") and reading.zone.sure


def test_a_real_card_scanned_front_and_back_side_by_side() -> None:
    reading = real("pe-33_id-usa.jpg").reading
    assert reading is not None and reading.located == "half"
    zone = reading.zone
    assert zone.layout == "TD1" and (zone.surname, zone.given_names) == ("CRITTENDEN", "LEE W")
    assert (zone.birth_date, zone.expiry_date, zone.nationality) == ("491004", "941101", "CAN")
    # This specimen prints a check digit that does not hold (1 for 022345679, which makes 8):
    # read as printed, the failure is reported, never a number changed until it passes.
    assert zone.document_number == "022345679"
    assert {f.field for f in zone.failures} == {"document_number", "composite"}


def test_where_no_zone_is_expected_it_is_read_only_where_it_lies_plainly() -> None:
    # A driving licence carries no zone: a photo of one is not turned, flattened, halved and
    # passed through the detector in search of one (1-2.5 s of CPU for nothing).
    card = np.asarray(
        Image.open(io.BytesIO(render_card(TD1_KENYA, width=900, angle=40, fmt="PNG")))
    )
    assert scan(card[:, :, :3], search=False).reading is None
    assert scan(card[:, :, :3]).reading is not None
    plain = np.asarray(Image.open(io.BytesIO(render_card(TD1_KENYA, fmt="PNG"))).convert("RGB"))
    reading = scan(plain, search=False).reading
    assert reading is not None and reading.zone.lines == TD1_KENYA

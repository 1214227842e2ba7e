"""Reading zones from photos: the ICAO specimens and TD1 cards rendered here, rotated, blurred,
upside down and sideways."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hakiki.engines.documents.zone import read_zone
from tests.documents.specimens import TD1_KENYA, TD1_UTOPIA, render_card

DATA = Path(__file__).resolve().parents[2] / "data" / "documents"


def pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def test_td3_specimen_reads_as_eriksson() -> None:
    reading = read_zone(pixels((DATA / "pe-passport-td3.jpg").read_bytes()))
    assert reading is not None and reading.zone.valid
    zone = reading.zone
    assert (zone.surname, zone.given_names, zone.document_number) == (
        "ERIKSSON", "ANNA MARIA", "L898902C3",
    )  # fmt: skip
    assert reading.lines[1] == "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
    assert reading.confidence > 0.8


def test_td2_specimen() -> None:
    reading = read_zone(pixels((DATA / "pe-passport-td2.jpg").read_bytes()))
    assert reading is not None and reading.zone.valid
    assert reading.zone.layout == "TD2" and reading.zone.document_number == "D23145890"
    assert reading.lines == (
        "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<",
        "D231458907UTO7408122F1204159<<<<<<<6",
    )


@pytest.mark.parametrize(
    ("lines", "angle", "blur"),
    [
        (TD1_UTOPIA, 0, 0),
        (TD1_UTOPIA, 6, 1.2),
        (TD1_UTOPIA, -9, 1.5),
        (TD1_KENYA, 12, 1.0),
        (TD1_KENYA, 3, 1.5),
        (TD1_KENYA, 0, 2.0),
        (TD1_KENYA, 180, 1.0),
        (TD1_UTOPIA, 90, 0.8),
        (TD1_KENYA, -93, 0.8),
    ],
)
def test_td1_cards_rotated_and_blurred(lines: tuple[str, ...], angle: float, blur: float) -> None:
    reading = read_zone(pixels(render_card(lines, angle=angle, blur=blur)))
    assert reading is not None, (angle, blur)
    assert reading.zone.valid and reading.lines == lines


def test_a_page_without_a_zone_reads_nothing() -> None:
    blank = Image.new("RGB", (900, 600), (230, 230, 230))
    assert read_zone(np.asarray(blank)) is None
    noise = np.random.default_rng(3).integers(0, 255, (600, 900, 3), dtype=np.uint8)
    assert read_zone(noise) is None

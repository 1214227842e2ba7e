"""Camera photos of rendered documents (tests/documents/camera.py): the zone is found and read
at any angle, in perspective, on a curved page and in a tight strip, by the two readers fused;
what is read is right or unsure, never wrong (issue 32)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hakiki.engines.documents.ocrb import _font_path
from hakiki.engines.documents.zone import scan
from hakiki.engines.mrz.zones import Zone
from tests.documents.camera import SHOTS, photograph
from tests.documents.specimens import TD1_UTOPIA, render_card
from tests.engines.documents.test_unsure import ZEROS

TD3_UTOPIA = (
    "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
    "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
)


def read(data: bytes) -> Zone | None:
    reading = scan(np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))).reading
    return None if reading is None else reading.zone


def right_or_unsure(zone: Zone, lines: tuple[str, ...]) -> None:
    assert not zone.failures
    if zone.sure:
        assert zone.lines == lines
    doubted = {doubt.field for doubt in zone.unsure}
    if "document_number" not in doubted:
        number = lines[0][5:14] if len(lines) == 3 else lines[1][0:9]
        assert zone.document_number == number.rstrip("<")


def test_a_passport_tilted_35_degrees_is_read() -> None:
    shot = next(s for s in SHOTS if s.name == "tilted 35 degrees")
    zone = read(photograph(render_card(TD3_UTOPIA, width=1400, fmt="PNG"), shot))
    assert zone is not None and zone.valid and zone.lines == TD3_UTOPIA
    # A letter of the name the recogniser did not see is reported unsure, never guessed.
    assert {doubt.field for doubt in zone.unsure} <= {"name"}


def test_a_card_on_a_curved_page_is_read() -> None:
    shot = next(s for s in SHOTS if s.name == "curved page")
    zone = read(photograph(render_card(TD1_UTOPIA, width=1400, fmt="PNG"), shot))
    assert zone is not None and zone.sure and zone.lines == TD1_UTOPIA


def test_zeros_photographed_are_right_or_unsure() -> None:
    # The corpus of zeros everywhere, photographed with glare, and small and soft.
    shots = [s for s in SHOTS if s.name in ("glare", "small and soft")]
    for lines in (ZEROS[0], ZEROS[4]):
        for shot in shots:
            zone = read(photograph(render_card(lines, width=1400, fmt="PNG"), shot))
            assert zone is not None
            right_or_unsure(zone, lines)


def test_a_tight_strip_of_only_the_zone_is_read() -> None:
    font = ImageFont.truetype(_font_path(), 28)
    strip = Image.new("RGB", (round(font.getlength(TD3_UTOPIA[0])) + 16, 84), (250, 250, 245))
    for i, line in enumerate(TD3_UTOPIA):
        ImageDraw.Draw(strip).text((8, 6 + 38 * i), line, font=font, fill=(25, 25, 25))
    out = io.BytesIO()
    strip.save(out, "PNG")
    zone = read(out.getvalue())
    assert zone is not None and zone.sure and zone.lines == TD3_UTOPIA

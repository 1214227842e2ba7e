"""PP-OCRv4 from the wheel reads a real passport scan's printed lines (no download)."""

from pathlib import Path

import numpy as np
from PIL import Image

from hakiki.engines.documents.text_ocr import read_text, recognise

REAL = Path(__file__).resolve().parent.parent / "data" / "documents" / "real"
ZONE = (
    "P<BDRMUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<",
    "CA000000<4D<<6408125F1802212<<<<<<<<<<<<<<<6",
)


def test_the_zone_lines_of_a_real_scan_are_among_the_lines_read() -> None:
    pixels = np.asarray(Image.open(REAL / "pe-100_pass-bdr.jpg").convert("RGB"))
    lines = read_text(pixels)
    texts = [line.text.replace(" ", "") for line in lines]
    assert set(ZONE) <= set(texts)
    zone_lines = [line for line in lines if line.text.replace(" ", "") in ZONE]
    assert all(line.confidence > 0.8 and len(line.corners) == 4 for line in zone_lines)
    # top to bottom, in the image's own pixels
    tops = [min(y for _, y in line.corners) for line in zone_lines]
    assert tops == sorted(tops) and max(tops) < pixels.shape[0]


def test_a_line_image_alone_is_recognised() -> None:
    pixels = np.asarray(Image.open(REAL / "pe-100_pass-bdr.jpg").convert("RGB"))
    line = next(x for x in read_text(pixels) if x.text.replace(" ", "") == ZONE[1])
    xs = [int(x) for x, _ in line.corners]
    ys = [int(y) for _, y in line.corners]
    crop = pixels[min(ys) : max(ys), min(xs) : max(xs)]
    [(text, confidence)] = recognise([crop])
    assert text.replace(" ", "") == ZONE[1] and confidence > 0.8
    assert recognise([]) == []

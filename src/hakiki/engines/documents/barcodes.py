"""PDF417 and QR codes on documents (the back of many identity cards), read with zxing-cpp
(Apache-2.0; pyzbar cannot read PDF417).

zxing-cpp finds a code's modules at one pixel and more, but a photo or a small scan blurs a
module under two pixels into its neighbours: the reader tries the image as sent, then enlarged
(bicubic, 1.5x, 2x, 3x) and sharpened (an unsharp mask restores the edges enlarging softened),
cheapest first, and stops at the first code found or when ``BUDGET_SECONDS`` of CPU are spent.
An attempt costs 10-60 ms; an image without a code costs the whole ladder (issue 32:
bench/documents_forensics.py --barcodes, docs/benchmarks.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import zxingcpp
from PIL import Image, ImageFilter

FORMATS = zxingcpp.barcode_formats_from_str("PDF417,QRCode")
MAX_CODES = 4
# (enlargement, unsharp mask's radius per unit of enlargement and strength in %, or none):
# on rendered codes at 0.8-2.2 pixels per module, blurred and JPEG'd, each step read codes the
# steps before it missed (bench/documents_forensics.py --barcodes).
LADDER: tuple[tuple[float, tuple[float, int] | None], ...] = (
    (1.0, None),
    (2.0, (0.5, 300)),
    (3.0, (1.0, 150)),
    (1.5, (1.0, 150)),
    (1.0, (1.0, 150)),
)
MAX_PIXELS = 16_000_000  # an enlargement beyond it is skipped (memory; and modules are big)
BUDGET_SECONDS = 0.4


@dataclass(frozen=True)
class Barcode:
    format: str  # PDF417 or QRCode
    text: str


def _variant(grey: Image.Image, scale: float, sharpen: tuple[float, int] | None) -> Image.Image:
    image = grey
    if scale != 1.0:
        size = (round(grey.width * scale), round(grey.height * scale))
        image = grey.resize(size, Image.Resampling.BICUBIC)
    if sharpen is not None:
        radius, strength = sharpen
        image = image.filter(
            ImageFilter.UnsharpMask(radius=radius * scale, percent=strength, threshold=0)
        )
    return image


def read(pixels: np.ndarray, budget: float = BUDGET_SECONDS) -> list[Barcode]:
    """Every PDF417 and QR code in an RGB image (at most ``MAX_CODES``)."""
    grey = Image.fromarray(np.ascontiguousarray(pixels)).convert("L")
    started = time.process_time()
    for scale, sharpen in LADDER:
        if grey.width * grey.height * scale * scale > MAX_PIXELS:
            continue
        found = zxingcpp.read_barcodes(_variant(grey, scale, sharpen), formats=FORMATS)
        codes = [Barcode(code.format.name, code.text) for code in found if code.valid]
        if codes:
            return codes[:MAX_CODES]
        if time.process_time() - started > budget:
            break
    return []


def names_number(codes: list[Barcode], number: str) -> bool | None:
    """Whether a code carries the document number (None: no code, or no number to look for)."""
    if not codes or not number:
        return None
    return any(number in code.text.replace(" ", "").upper() for code in codes)

"""PDF417 and QR codes on documents (the back of many identity cards), read with zxing-cpp
(Apache-2.0; pyzbar cannot read PDF417)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import zxingcpp

FORMATS = zxingcpp.barcode_formats_from_str("PDF417,QRCode")
MAX_CODES = 4


@dataclass(frozen=True)
class Barcode:
    format: str  # PDF417 or QRCode
    text: str


def read(pixels: np.ndarray) -> list[Barcode]:
    """Every PDF417 and QR code in an RGB image (at most ``MAX_CODES``)."""
    found = zxingcpp.read_barcodes(np.ascontiguousarray(pixels), formats=FORMATS)
    return [Barcode(code.format.name, code.text) for code in found if code.valid][:MAX_CODES]


def names_number(codes: list[Barcode], number: str) -> bool | None:
    """Whether a code carries the document number (None: no code, or no number to look for)."""
    if not codes or not number:
        return None
    return any(number in code.text.replace(" ", "").upper() for code in codes)

"""Forensics, quality and barcodes calibrated on genuine public document images (issue 32):
genuine scans raise no alarm, doctored copies of them are still caught, and a barcode too
small for zxing-cpp as sent is read once enlarged and sharpened."""

from __future__ import annotations

import base64
import io
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import zxingcpp
from PIL import Image, ImageFilter

from hakiki.engines.documents import barcodes, forensics, quality
from hakiki.engines.documents.verify import Analysis, Side, analyse
from hakiki.engines.documents.zone import straighten
from hakiki.engines.face import load_image
from tests.conftest import SQLITE_ONLY, AccountFactory
from tests.documents import doctored

REAL = Path(__file__).resolve().parents[1] / "data" / "documents" / "real"
TODAY = date(2026, 11, 27)
# Genuine images that raised alarms before issue 32: "resolution too low" (all four), moiré
# (id-usa, nld), copy-move (nld), glare on a form's white fields (visa-polx).
GENUINE = ("pe-100_pass-ltu.jpg", "pe-33_id-usa.jpg", "pe-100_visa-polx.jpg")


def alarms(checks: list[Any]) -> dict[str, str]:
    return {
        c["name"]: c["reason"]
        for c in checks
        if c["category"] in ("quality", "forensics") and c["status"] == "attention"
    }


@SQLITE_ONLY
async def test_a_genuine_scan_raises_no_quality_or_forensic_alarm(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    image = base64.b64encode((REAL / "pe-98_pass-nld.jpg").read_bytes()).decode()
    response = await client.post(
        "/v3/documents/verify",
        json={"document_type": "passport", "front_image": image},
        headers=account.headers,
    )
    assert response.status_code == 200, response.text
    assert alarms(response.json()["data"]["checks"]) == {}


def analysed(data: bytes) -> Analysis:
    image = load_image(data, max_bytes=1 << 22, max_pixels=16_000_000, max_side=2000)
    side = Side("front_image", data, image.format, image.pixels, image.original_size)
    return analyse(side, None, "passport", None, TODAY)


def raised(data: bytes) -> dict[str, str]:
    return {
        c.name.split(".", 1)[-1]: c.reason
        for c in analysed(data).checks
        if c.category in ("quality", "forensics") and c.status == "attention"
    }


def test_genuine_scans_raise_no_alarm() -> None:
    for name in GENUINE:
        assert raised((REAL / name).read_bytes()) == {}, name


def genuine(name: str = "pe-100_pass-ltu.jpg") -> Image.Image:
    return Image.open(REAL / name).convert("RGB")


def examined(made: doctored.Doctored) -> forensics.Forensics:
    """The forensic signals of a doctored copy (no zone search: these copies have none to
    read, and the full pipeline's look for one costs seconds)."""
    data, fmt = made
    pixels = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    return forensics.examine(data, fmt, straighten(pixels).straight)


def test_a_screenshot_is_caught_as_png_and_as_a_shared_jpeg() -> None:
    shot, fmt = doctored.screenshot(genuine())
    assert examined((shot, fmt)).screenshot
    shared = io.BytesIO()
    Image.open(io.BytesIO(shot)).convert("RGB").save(shared, "JPEG", quality=80)
    found = examined((shared.getvalue(), "JPEG"))
    assert found.screenshot and found.screen


def test_a_photo_of_a_screen_is_caught() -> None:
    found = examined(doctored.photo_of_screen(genuine("pe-98_pass-nld.jpg")))
    assert found.screen and found.moire >= forensics.MOIRE_ATTENTION and not found.screenshot


def test_a_copy_saved_by_an_editor_is_caught() -> None:
    saved, _fmt = doctored.editor_saved(genuine())
    assert "Photoshop" in raised(saved)["editing_software"]


def test_glare_over_the_document_is_caught_and_white_paper_is_not() -> None:
    lit, _fmt = doctored.glare(genuine("pe-100_pass-bdr.jpg"))  # a lamp's reflection
    pixels = np.asarray(Image.open(io.BytesIO(lit)).convert("RGB"))
    assessed = quality.assess(pixels, np.asarray(straighten(pixels).straight), (1874, 1326))
    assert "glare" in assessed.problems[0]
    assert "quality" not in raised((REAL / "pe-100_visa-polx.jpg").read_bytes())  # white fields


def test_resolution_is_judged_on_the_zone_s_characters() -> None:
    # 559 x 395 pixels, zone characters 11-12 pixels high: read right, not "too low".
    ltu = analysed((REAL / "pe-100_pass-ltu.jpg").read_bytes())
    quality = next(c for c in ltu.checks if c.category == "quality")
    assert quality.status == "passed" and quality.signals["zone_glyph_height"] >= 10
    # 272 x 185 pixels: characters 6 pixels high, where E and F, H and R part no more.
    gbr = raised((REAL / "pe-27_pass-gbr.jpg").read_bytes())
    assert "the zone's characters are 6 pixels high" in gbr["quality"]


def _pdf417_photo(module: float, blur: float) -> np.ndarray:
    code = zxingcpp.create_barcode(
        "ANSI 636000 DAQ123456789 PUBLIC JON", zxingcpp.BarcodeFormat.PDF417
    )
    card = Image.new("RGB", (1000, 640), (236, 238, 230))
    card.paste(Image.fromarray(np.asarray(code.to_image(scale=4))).convert("RGB"), (60, 60))
    small = card.resize(
        (round(1000 * module / 4), round(640 * module / 4)), Image.Resampling.BILINEAR
    )
    out = io.BytesIO()
    small.filter(ImageFilter.GaussianBlur(blur)).save(out, "JPEG", quality=80)
    return np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGB"))


def test_a_barcode_at_low_resolution_is_read() -> None:
    pixels = _pdf417_photo(module=1.2, blur=0.7)  # 1.2 pixels per module, blurred
    assert zxingcpp.read_barcodes(pixels, formats=barcodes.FORMATS) == []  # as sent: nothing
    found = barcodes.read(pixels)
    assert [c.format for c in found] == ["PDF417"] and "DAQ123456789" in found[0].text
    # A real card's back (PassportEye's test image): its PDF417 at 1.4 pixels per module.
    card = np.asarray(Image.open(REAL / "pe-77_card-cmw.png").convert("RGB"))
    codes = barcodes.read(card)
    assert [c.format for c in codes] == ["PDF417"] and "ANSI636000" in codes[0].text
    assert barcodes.read(np.asarray(genuine())) == []

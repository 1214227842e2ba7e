"""Forensics, quality, barcodes and consistency on real files: the ICAO specimens (saved with
Paint.NET), cards rendered here, regions pasted, screens simulated, barcodes written by
zxing-cpp."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import numpy as np
import zxingcpp
from PIL import Image, ImageDraw, ImageFilter

from hakiki.engines.documents import barcodes, consistency, forensics, quality
from hakiki.engines.documents.zone import grey, straighten
from hakiki.engines.mrz.zones import parse_text
from tests.documents import doctored
from tests.documents.specimens import TD1_KENYA, TD1_UTOPIA, render_card

DATA = Path(__file__).resolve().parents[2] / "data" / "documents"
TODAY = date(2026, 11, 24)


def rgb(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def jpeg(image: Image.Image, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=92, **options)
    return out.getvalue()


def examine(data: bytes, fmt: str = "JPEG") -> forensics.Forensics:
    return forensics.examine(data, fmt, straighten(rgb(data)).straight)


def test_editing_software_from_exif_and_xmp() -> None:
    specimen = examine((DATA / "pe-passport-td3.jpg").read_bytes())
    assert specimen.software == "Paint.NET v3.5.10" and specimen.edited
    card = Image.open(io.BytesIO(render_card(TD1_KENYA)))
    assert examine(jpeg(card)).software is None
    exif = Image.Exif()
    exif[305] = "Adobe Photoshop 25.0 (Windows)"
    assert examine(jpeg(card, exif=exif)).software == "Adobe Photoshop 25.0 (Windows)"
    xmp = b'<x:xmpmeta><rdf:Description xmp:CreatorTool="GIMP 2.10"/></x:xmpmeta>'
    assert examine(jpeg(card, xmp=xmp)).software == "GIMP 2.10"
    camera = Image.Exif()
    camera[271], camera[272], camera[305] = "samsung", "SM-A546E", "A546EXXU4BXB1"
    assert examine(jpeg(card, exif=camera)).software is None


def test_copy_move_finds_a_pasted_region_and_not_the_zone_fillers() -> None:
    original = (DATA / "pe-passport-td3.jpg").read_bytes()
    assert not examine(original).copy_move
    image = Image.open(io.BytesIO(original)).convert("RGB")
    # Part of the portrait, again (a 130-pixel square gives 126 pairs: under the threshold,
    # which genuine print's own repeats reach, 124; docs/decisions.md, issue 32).
    image.paste(image.crop((180, 230, 380, 430)), (880, 20))
    moved = examine(jpeg(image))
    assert moved.copy_move, moved.copy_move_blocks
    for card in (render_card(TD1_KENYA), render_card(TD1_UTOPIA, angle=-8, blur=1.5)):
        scanned = straighten(rgb(card))
        assert forensics.copy_move_blocks(scanned.straight) < forensics.COPY_MOVE_MIN_BLOCKS


def test_photo_of_a_screen_and_screenshot() -> None:
    card = Image.open(io.BytesIO(render_card(TD1_UTOPIA)))
    screen = examine(doctored.photo_of_screen(card)[0])
    assert screen.screen and screen.moire >= forensics.MOIRE_ATTENTION
    assert not examine(render_card(TD1_UTOPIA)).screen
    assert not examine(render_card(TD1_UTOPIA, blur=5)).screen  # too blurred to tell: not flagged
    shot = io.BytesIO()
    Image.new("RGB", (1080, 2340), (250, 250, 250)).save(shot, "PNG")
    assert examine(shot.getvalue(), "PNG").screenshot
    assert examine(shot.getvalue(), "PNG").error_level_ratio is None


def test_quality_problems_name_the_reason() -> None:
    def assess(data: bytes) -> quality.Quality:
        image = Image.open(io.BytesIO(data))
        pixels = rgb(data)
        return quality.assess(pixels, np.asarray(grey(pixels)), image.size)

    assert assess(render_card(TD1_KENYA)).acceptable
    assert assess((DATA / "pe-passport-td2.jpg").read_bytes()).acceptable  # a white scan
    assert "blurred" in assess(render_card(TD1_KENYA, blur=5)).problems[0]
    # No zone found: only an image too small to hold one readable is called too small.
    assert "resolution" in assess(render_card(TD1_KENYA, width=140)).problems[0]
    dark = Image.open(io.BytesIO(render_card(TD1_KENYA))).point(lambda v: v // 6)
    assert "dark" in assess(jpeg(dark)).problems[0]
    card = Image.open(io.BytesIO(render_card(TD1_KENYA))).convert("RGB")
    spot = Image.new("L", card.size, 0)
    ImageDraw.Draw(spot).ellipse((300, 200, 650, 480), fill=255)
    # Glare fades out: a burnt-out core in a halo. A white patch with a hard edge is print.
    halo = spot.filter(ImageFilter.GaussianBlur(40)).point(lambda v: min(255, v * 2))
    glare = Image.composite(Image.new("RGB", card.size, (255, 255, 255)), card, halo)
    assert "glare" in assess(jpeg(glare)).problems[0]
    ImageDraw.Draw(card).ellipse((300, 200, 650, 480), fill=(255, 255, 255))
    assert assess(jpeg(card)).acceptable


def test_pdf417_and_qr_codes_written_by_zxing_are_read() -> None:
    card = Image.new("RGB", (1000, 640), (236, 238, 230))
    pdf417 = zxingcpp.create_barcode("ANCI 123456789 KAMAU", zxingcpp.BarcodeFormat.PDF417)
    qr = zxingcpp.create_barcode("https://example.org/v/123456789", zxingcpp.BarcodeFormat.QRCode)
    card.paste(Image.fromarray(np.asarray(pdf417.to_image(scale=3))).convert("RGB"), (60, 60))
    card.paste(Image.fromarray(np.asarray(qr.to_image(scale=4))).convert("RGB"), (700, 300))
    photo = card.rotate(4, Image.Resampling.BICUBIC, expand=True, fillcolor=(90, 90, 90))
    found = barcodes.read(rgb(jpeg(photo)))
    assert sorted(c.format for c in found) == ["PDF417", "QRCode"]
    assert barcodes.names_number(found, "123456789") is True
    assert barcodes.names_number(found, "999999999") is False
    assert barcodes.names_number([], "123456789") is None
    assert barcodes.read(rgb(render_card(TD1_KENYA))) == []


def test_consistency_findings() -> None:
    def findings(lines: tuple[str, ...], kind: str, country: str | None) -> dict[str, bool | None]:
        return {
            f.check: f.passed for f in consistency.check(parse_text(lines), kind, country, TODAY)
        }

    assert findings(TD1_KENYA, "national_id", "KE") == {
        "dates": True, "expiry": True, "document_type": True, "country": True,
        "number_format": True,
    }  # fmt: skip
    utopia = findings(TD1_UTOPIA, "passport", "KE")
    assert utopia["expiry"] is False and utopia["document_type"] is False
    assert utopia["country"] is False and utopia["number_format"] is None
    assert findings(TD1_KENYA, "drivers_license", None)["document_type"] is None
    severe = [
        f for f in consistency.check(parse_text(TD1_UTOPIA), "passport", None, TODAY) if f.severe
    ]
    assert {f.check for f in severe} == {"expiry", "document_type"}


def test_dates_that_cannot_be() -> None:
    from hakiki.engines.mrz.td3 import check_digit

    def card(birth: str, expiry: str) -> tuple[str, ...]:
        line2 = f"{birth}{check_digit(birth)}M{expiry}{check_digit(expiry)}KEN<<<<<<<<<<<"
        first = TD1_KENYA[0]
        composite = check_digit(first[5:30] + line2[0:7] + line2[8:15] + line2[18:29])
        return (first, line2 + composite, TD1_KENYA[2])

    def dates(birth: str, expiry: str) -> str:
        found = consistency.check(parse_text(card(birth, expiry)), "national_id", "KE", TODAY)
        return next(f.reason for f in found if f.check == "dates")

    assert dates("901301", "301231") == "a date in the zone is not a calendar date"
    assert dates("900101", "560101") == "the expiry date is not plausible"  # 30 years ahead
    assert dates("900101", "301231") == "the dates are plausible"
    assert consistency.birth_date("261231", TODAY) == date(1926, 12, 31)
    assert consistency.expiry_date("361231", TODAY) == date(2036, 12, 31)
    assert consistency.expiry_date("991231", TODAY) == date(1999, 12, 31)


def test_number_format_of_the_issuing_country() -> None:
    from hakiki.engines.mrz.td3 import check_digit

    def passport(number: str) -> tuple[str, str]:
        second = f"{number:<9}"[:9].replace(" ", "<")
        second += check_digit(second) + "KEN9001011F3012316" + "<" * 14 + "<"
        composite = check_digit(second[0:10] + second[13:20] + second[21:43])
        return ("P<KENKAMAU<<WANJIRU<AKINYI" + "<" * 18, second + composite)

    def fits(number: str) -> bool | None:
        found = consistency.check(parse_text(passport(number)), "passport", "KE", TODAY)
        return next(f.passed for f in found if f.check == "number_format")

    assert fits("AK0123456") is True and fits("A1234567") is True
    assert fits("L898902C3") is False and fits("12345678") is False

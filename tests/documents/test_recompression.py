"""The recompression check (issue 32): a photo pasted or a date redrawn between two JPEG saves
lacks the earlier save's quantisation lattice that the rest of the page carries. Calibrated on
genuine public specimens as sent and re-saved unedited (a messenger's save); where no earlier
save is traced the check does not run rather than guess."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

from hakiki.engines.documents import forensics
from tests.conftest import SQLITE_ONLY, AccountFactory
from tests.documents import doctored

REAL = Path(__file__).resolve().parents[1] / "data" / "documents" / "real"
FACE = Path(__file__).resolve().parents[1] / "engines" / "face" / "data" / "obama.jpg"
# The committed specimens saved as JPEG (each saved once, at qualities from about 50 to 100).
JPEGS = (
    "pe-100_pass-bdr.jpg",
    "pe-100_pass-hrv.jpg",
    "pe-100_pass-ltu.jpg",
    "pe-100_visa-polx.jpg",
    "pe-24_pass-egy.jpg",
    "pe-27_pass-gbr.jpg",
    "pe-33_id-usa.jpg",
    "pe-98_pass-nld.jpg",
)


def traced(data: bytes) -> forensics.Recompression:
    return forensics.recompression(Image.open(io.BytesIO(data)))


def resaved(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=quality)
    return out.getvalue()


def genuine(name: str) -> Image.Image:
    return Image.open(REAL / name).convert("RGB")


def face() -> Image.Image:
    return Image.open(FACE).convert("RGB")


def inside(box: tuple[int, int, int, int] | None, edit: tuple[int, int, int, int]) -> bool:
    """The region found is the edit: it covers most of it, and not much more (the typed date
    overhangs its patch, and blocks are 8 pixels)."""
    assert box is not None

    def area(b: tuple[int, int, int, int]) -> int:
        return max(0, b[2] - b[0]) * max(0, b[3] - b[1])

    common = (
        max(box[0], edit[0]),
        max(box[1], edit[1]),
        min(box[2], edit[2]),
        min(box[3], edit[3]),
    )
    return area(common) >= 0.7 * area(edit) and area(box) <= 2.0 * area(edit)


@pytest.mark.parametrize("name", JPEGS)
def test_genuine_specimens_as_sent_and_re_saved_raise_no_alarm(name: str) -> None:
    assert not traced((REAL / name).read_bytes()).region  # as sent: saved once, none traced
    image = genuine(name)
    for quality in (75, 90, 95):
        again = traced(resaved(image, quality))
        assert not again.region, (name, quality, again)


@pytest.mark.parametrize("name", ["pe-100_pass-ltu.jpg", "pe-24_pass-egy.jpg"])
def test_a_photo_pasted_between_two_saves_is_caught_where_it_is(name: str) -> None:
    image = genuine(name)
    copy, _fmt = doctored.pasted_photo(image, face())
    found = traced(copy)
    assert found.traced and found.region, found
    w = image.width // 4
    assert inside(found.box, doctored._textured_box(image, (w, round(w * 1.3))))


@pytest.mark.parametrize("name", ["pe-100_pass-ltu.jpg", "pe-100_pass-bdr.jpg"])
def test_a_date_redrawn_between_two_saves_is_caught_where_it_is(name: str) -> None:
    image = genuine(name)
    copy, _fmt = doctored.redrawn_date(image)
    found = traced(copy)
    assert found.region, found
    edit = doctored._textured_box(image, (image.width // 5, max(8, image.height // 18)))
    assert inside(found.box, edit)


def test_no_earlier_save_traced_is_not_a_verdict() -> None:
    # A lossless file, and a JPEG saved once: nothing to compare the regions by.
    png = (REAL / "pe-100_pass-isl.png").read_bytes()
    assert traced(png) == forensics.NOT_TRACED
    once = traced(resaved(genuine("pe-100_pass-isl.png"), 90))
    assert not once.traced and not once.region
    # A photo pasted into a file saved once (nothing earlier to lack) is not called genuine
    # either: the check does not run.
    pasted, _fmt = doctored.pasted_photo(genuine("pe-100_pass-isl.png"), face())
    assert not traced(pasted).traced


@SQLITE_ONLY
async def test_the_pasted_photo_answers_attention_through_the_api(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    copy, _fmt = doctored.pasted_photo(genuine("pe-100_pass-ltu.jpg"), face())
    response = await client.post(
        "/v3/documents/verify",
        json={"document_type": "passport", "front_image": base64.b64encode(copy).decode()},
        headers=account.headers,
    )
    assert response.status_code == 200, response.text
    body = response.json()["data"]
    checks = {c["name"]: c for c in body["checks"]}
    check = checks["front_image.recompression"]
    assert check["status"] == "attention" and "pasted or redrawn" in check["reason"]
    assert check["signals"]["region"] and check["signals"]["region_score"] >= 25
    assert body["verdict"] != "clear"  # the photo covers part of the zone here: rejected
    # The genuine scan as sent: the check does not run (saved once), and says why.
    genuine_scan = base64.b64encode((REAL / "pe-100_pass-ltu.jpg").read_bytes()).decode()
    response = await client.post(
        "/v3/documents/verify",
        json={"document_type": "passport", "front_image": genuine_scan},
        headers=account.headers,
    )
    check = {c["name"]: c for c in response.json()["data"]["checks"]}["front_image.recompression"]
    assert check["status"] == "not_run" and "no earlier JPEG save" in check["reason"]


def test_a_jpeg_saved_again_as_png_keeps_its_lattice() -> None:
    image = genuine("pe-100_pass-ltu.jpg")
    lossless = io.BytesIO()
    image.save(lossless, "PNG")
    clean = traced(lossless.getvalue())
    assert clean.traced and not clean.region, clean  # the genuine page, as PNG: nothing
    w = image.width // 4
    box = doctored._textured_box(image, (w, round(w * 1.3)))
    image.paste(face().resize((w, round(w * 1.3))), box[:2])
    pasted = io.BytesIO()
    image.save(pasted, "PNG")  # pasted, then saved without loss: still off the JPEG's lattice
    found = traced(pasted.getvalue())
    assert found.region and inside(found.box, box), found


def test_a_large_page_is_mapped_on_its_middle_and_the_region_placed_on_the_page() -> None:
    # A 2400 x 1700 photo of the page, with a camera's grain (an enlarged scan alone is smooth).
    grain = np.random.default_rng(7).integers(-9, 10, (1700, 2400, 1), dtype=np.int16)
    big = np.asarray(genuine("pe-100_pass-ltu.jpg").resize((2400, 1700)), dtype=np.int16)
    page = Image.fromarray((big + grain).clip(0, 255).astype(np.uint8))
    first = Image.open(io.BytesIO(resaved(page, 75))).convert("RGB")
    edit = (1000, 600, 1400, 1100)  # inside the middle 2048 x 2048
    first.paste(face().resize((edit[2] - edit[0], edit[3] - edit[1])), edit[:2])
    found = traced(resaved(first, 90))
    assert found.region and inside(found.box, edit), found
    assert not traced(resaved(page, 90)).traced  # saved once before: nothing earlier

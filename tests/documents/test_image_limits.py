"""The limits of a document image: under 1 MB (the spec's "each image under 1 MB": 1,048,575
bytes pass, 1,048,576 do not, in every image field) and at most 16 megapixels, both a 400
naming the field before any pixel is decoded."""

from __future__ import annotations

import base64
import io
import struct
import zlib

import httpx
from PIL import Image

from tests.conftest import AccountFactory

URL = "/v3/documents/verify"
MIB = 1024 * 1024


def png_of_size(size: int) -> bytes:
    """A real 600 x 400 PNG padded to exactly ``size`` bytes with a private ancillary chunk,
    which decoders skip."""
    out = io.BytesIO()
    Image.new("RGB", (600, 400), (40, 90, 160)).save(out, "PNG")
    png = out.getvalue()
    end = png.rindex(b"IEND") - 4  # the IEND chunk's length field
    filler = b"\0" * (size - len(png) - 12)
    chunk = struct.pack(">I", len(filler)) + b"haKi" + filler
    chunk += struct.pack(">I", zlib.crc32(b"haKi" + filler))
    padded = png[:end] + chunk + png[end:]
    assert len(padded) == size
    return padded


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def test_each_image_must_be_under_1_mb(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    under, at = b64(png_of_size(MIB - 1)), b64(png_of_size(MIB))
    body = {"document_type": "passport", "front_image": under}
    accepted = await client.post(URL, json=body, headers=account.headers)
    assert accepted.status_code == 200, accepted.text[:300]
    both = {**body, "back_image": under, "selfie_image": under}
    assert (await client.post(URL, json=both, headers=account.headers)).status_code == 200
    for field in ("front_image", "back_image", "selfie_image"):
        refused = await client.post(URL, json={**both, field: at}, headers=account.headers)
        assert refused.status_code == 400, (field, refused.text[:300])
        error = refused.json()
        assert error["details"] == [{"field": field, "problem": "too large"}]
        assert "under 1 MB" in error["message"] and "1,048,575 bytes" in error["message"]
        with_prefix = {**both, field: "data:image/png;base64," + at}
        again = await client.post(URL, json=with_prefix, headers=account.headers)
        assert again.status_code == 400 and again.json()["details"][0]["field"] == field


async def test_a_document_image_over_16_megapixels_is_refused_before_decoding(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    out = io.BytesIO()  # 4,700 x 3,500 = 16.45 MP, one bit a pixel: a few KB, quick to build
    Image.new("1", (4700, 3500), 1).save(out, "PNG")
    body = {"document_type": "passport", "front_image": b64(out.getvalue())}
    refused = await client.post(URL, json=body, headers=account.headers)
    assert refused.status_code == 400, refused.text[:300]
    assert refused.json()["details"] == [
        {"field": "front_image", "problem": "image_dimensions_too_large"}
    ]
    assert "16,000,000 pixels" in refused.json()["message"]
    out = io.BytesIO()  # a 16 MP phone photo's 4,608 x 3,456 still passes
    Image.new("1", (4608, 3456), 1).save(out, "PNG")
    body["front_image"] = b64(out.getvalue())
    assert (await client.post(URL, json=body, headers=account.headers)).status_code == 200

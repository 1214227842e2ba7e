"""Sandbox of the document verification (docs/sandbox.md#documents).

The images are checked for real (base64, size, format, pixels); then the front image's mean
colour picks the outcome, so any image editor makes a test document:

- dark (mean grey level under 45): too poor to judge, ``retryable`` (the photo is too dark);
- red (red over 150, green and blue under 100): rejected, the document expired;
- yellow (red and green over 150, blue under 100): attention, editing software in the metadata;
- anything else: clear.

A ``selfie_image`` adds a face match that passes and a clean face-bank check. The document
read is always the sandbox's Wanjiru Akinyi Kamau, of the type and country asked for.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image

from hakiki.core.endpoints import TestValue
from hakiki.engines.documents.verify import Check
from hakiki.engines.mrz.zones import Zone

_NOT_CHARGED = {"http_status": 200, "live": False, "billing.charged": False, "billing.amount": 0}
INVALID = {"http_status": 400, "error": "invalid_request"}
SANDBOX_DISTANCE = 0.38
_ISO3 = {"KE": "KEN", "UG": "UGA", "TZ": "TZA", "NG": "NGA"}
_NUMBERS = {"passport": "AK0000000", "national_id": "123456789", "residence_permit": "R0000000",
            "visa": "V00000000"}  # fmt: skip
_LAYOUTS = {"passport": ("TD3", "P"), "visa": ("MRV-A", "V")}


@dataclass(frozen=True)
class SandboxQuery:
    document_type: str
    country_code: str | None
    colour: tuple[float, float, float]  # the front image's mean red, green, blue
    selfie: bool


@dataclass(frozen=True)
class SandboxAnswer:
    checks: list[Check]
    zone: Zone | None
    retry_reasons: list[str]
    distance: float | None


def outcome(colour: tuple[float, float, float]) -> str:
    red, green, blue = colour
    if (red + green + blue) / 3 < 45:
        return "poor"
    if red > 150 and green < 100 and blue < 100:
        return "rejected"
    if red > 150 and green > 150 and blue < 100:
        return "attention"
    return "clear"


def _zone(query: SandboxQuery, expired: bool) -> Zone | None:
    number = _NUMBERS.get(query.document_type)
    if number is None:
        return None
    state = _ISO3.get(query.country_code or "KE", "KEN")
    layout, code = _LAYOUTS.get(query.document_type, ("TD1", "ID"))
    return Zone(
        layout=layout,
        lines=(),
        document_code=code,
        issuing_state=state,
        document_number=number,
        surname="KAMAU",
        given_names="WANJIRU AKINYI",
        nationality=state,
        birth_date="900101",
        sex="F",
        expiry_date="200101" if expired else "301231",
        optional_data="",
        failures=(),
    )


class VerifySandbox:
    def answer(self, query: SandboxQuery) -> SandboxAnswer:
        picked = outcome(query.colour)
        zone = None if picked == "poor" else _zone(query, expired=picked == "rejected")
        checks = [
            Check("front_image.quality", "quality", "attention", "the photo is too dark")
            if picked == "poor"
            else Check("front_image.quality", "quality", "passed", "good enough to judge")
        ]
        retry = ["front_image: the photo is too dark"] if picked == "poor" else []
        if zone is not None:
            checks.append(
                Check("mrz", "mrz", "passed", f"{zone.layout} zone read; every check digit holds")
            )
            checks.append(Check("dates", "consistency", "passed", "the dates are plausible"))
            checks.append(
                Check("expiry", "consistency", "failed", "the document expired on 2020-01-01")
                if picked == "rejected"
                else Check("expiry", "consistency", "passed", "valid until 2030-12-31")
            )
        elif picked == "poor" and query.document_type in _NUMBERS:
            checks.append(
                Check("mrz", "mrz", "attention", "no machine-readable zone could be read")
            )
            retry.append("the machine-readable zone could not be read; photograph the whole "
                         "document, flat, in good light")  # fmt: skip
        else:
            checks.append(
                Check("mrz", "mrz", "not_run", f"a {query.document_type} carries no zone")
            )
        checks.append(
            Check("front_image.editing_software", "forensics", "attention",
                  "the metadata names Adobe Photoshop 25.0", {"software": "Adobe Photoshop 25.0"})
            if picked == "attention"
            else Check("front_image.editing_software", "forensics", "passed", "no editor named",
                       {"software": None})
        )  # fmt: skip
        distance = None
        if query.selfie:
            distance = SANDBOX_DISTANCE
            checks.append(
                Check("face_match", "face", "passed", "the selfie is the document's holder",
                      {"distance": distance})
            )  # fmt: skip
            checks.append(Check("face_bank", "face", "passed", "the face is in no fraud report"))
        return SandboxAnswer(checks, zone, retry, distance)

    def test_values(self) -> list[TestValue]:
        def verify(description: str, expect: dict[str, Any], **body: Any) -> TestValue:
            full = {"document_type": "passport", "country_code": "KE", **body}
            return TestValue(description=description, body=full, expect=expect)

        return [
            verify(
                "a white (or any other colour) front image: clear",
                {**_NOT_CHARGED, "verdict": "clear", "retryable": False,
                 "document.document_number": "AK0000000"},
                front_image=solid_png((240, 240, 240)),
            ),
            verify(
                "a yellow front image: attention (editing software in the metadata)",
                {**_NOT_CHARGED, "verdict": "attention", "retryable": False,
                 "reasons.0": "the metadata names Adobe Photoshop 25.0"},
                front_image=solid_png((230, 210, 40)),
            ),
            verify(
                "a red front image: rejected (the document expired)",
                {**_NOT_CHARGED, "verdict": "rejected", "document.expiry_date": "2020-01-01"},
                front_image=solid_png((200, 30, 30)),
            ),
            verify(
                "document_type visa, a white front image: clear, an MRV-A zone (code V)",
                {**_NOT_CHARGED, "verdict": "clear", "document.layout": "MRV-A",
                 "document.document_code": "V"},
                document_type="visa", front_image=solid_png((240, 240, 240)),
            ),
            verify(
                "a dark front image: too poor to judge, retryable",
                {**_NOT_CHARGED, "verdict": "attention", "retryable": True,
                 "retry_reasons.0": "front_image: the photo is too dark"},
                front_image=solid_png((10, 10, 10)),
            ),
            verify(
                "with a selfie_image: the face match passes and the face bank is clean",
                {**_NOT_CHARGED, "verdict": "clear", "face.match": True,
                 "face.distance": SANDBOX_DISTANCE},
                front_image=solid_png((240, 240, 240)),
                selfie_image=solid_png((200, 170, 150)),
            ),
            verify(
                "a front_image that is not base64: 400 naming front_image",
                {**INVALID, "details.0.field": "front_image"},
                front_image="not an image!",
            ),
            verify(
                "a PNG that claims 50,000 x 50,000 pixels (a decompression bomb): 400",
                {**INVALID, "details.0.field": "front_image"},
                front_image=bomb_png(),
            ),
        ]  # fmt: skip


@cache
def solid_png(colour: tuple[int, int, int]) -> str:
    """A small PNG of one colour, base64: the sandbox's test documents."""
    out = io.BytesIO()
    Image.new("RGB", (48, 32), colour).save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


@cache
def bomb_png() -> str:
    """A valid PNG header that declares 50,000 x 50,000 pixels, with no pixels behind it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0)
    data = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )
    return base64.b64encode(data).decode()


VERIFY = VerifySandbox()

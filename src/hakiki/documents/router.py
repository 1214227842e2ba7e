"""HTTP handler of the documents category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.documents import service
from hakiki.documents.endpoints import VERIFY
from hakiki.documents.schemas import DocumentRequest, DocumentResult

router = EndpointRouter(tags=["Documents"])


@router.endpoint(VERIFY, response_model=DocumentResult)
async def verify(body: DocumentRequest, call: Call) -> bytes:
    """Reads the document's machine-readable zone (TD1, TD2 or TD3, from a photo: located,
    deskewed, read by OCR-B glyph matching, ICAO 9303 check digits), its PDF417 and QR codes,
    checks the dates, expiry, number format and country, looks for editing (metadata, error
    level, copy-move) and for photos of screens, judges the photo's quality, and with a
    `selfie_image` matches the document's portrait with the selfie and checks the selfie
    against the fraud face bank. Answers a `verdict` (clear, attention, rejected), every check
    with its reason, and the fields read; a photo too poor to judge answers `retryable: true`
    with the reasons. Each image under 1 MB (a larger one is a 400 naming it); images are
    never stored. Live: one charge per call; sandbox: the images are checked for real and
    the front image's colour picks the outcome (docs/sandbox.md)."""
    return await service.verify(call, body)

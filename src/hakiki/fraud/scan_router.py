"""HTTP handlers of the fraud scans (/v3/fraud/id-scan, ...)."""

from __future__ import annotations

from fastapi import File, Form, UploadFile

from hakiki.core.calls import Call
from hakiki.core.errors import ApiError
from hakiki.core.routing import EndpointRouter
from hakiki.engines.face.images import DEFAULT_MAX_BYTES
from hakiki.fraud import address_scan, examples, face_scan, id_scan, identity_risk, phone_scan
from hakiki.fraud.endpoints import ADDRESS, FACE_SCAN, ID_SCAN, IDENTITY_RISK, PHONE
from hakiki.fraud.scan_schemas import (
    AddressScanRequest,
    AddressScanResult,
    FaceScanResult,
    IdentityRiskRequest,
    IdentityRiskResult,
    IdScanRequest,
    IdScanResult,
    PhoneScanRequest,
    PhoneScanResult,
)

router = EndpointRouter(tags=["Fraud"])


@router.endpoint(ID_SCAN, response_model=IdScanResult)
async def scan_id(body: IdScanRequest, call: Call) -> bytes:
    """Format validity for the channel, fraud reports naming the number (every organisation's,
    never who reported), and how many names, dates of birth, phones and faces have been seen
    with it across organisations: one number, many people, is the synthetic-identity pattern.
    A 0-100 risk score with every rule that fired. Live: one charge per call; sandbox: the last
    digit of the number picks the signals (docs/sandbox.md)."""
    return await id_scan.scan(call, body)


@router.endpoint(PHONE, response_model=PhoneScanResult)
async def scan_phone(body: PhoneScanRequest, call: Call) -> bytes:
    """Validity (and why not), E.164 and national forms, line type, the original carrier (the
    number range's allocation, not after porting) and, for fixed lines, the area; reports naming
    the phone in the shared fraud database, how many identity numbers it was seen with, how
    often other organisations checked it in the last 7 days; a 0-100 risk score with every rule
    that fired. Live: one charge per call; sandbox: real parsing, the last digit picks the
    database signals (docs/sandbox.md)."""
    return await phone_scan.scan(call, body)


@router.endpoint(FACE_SCAN, response_model=FaceScanResult)
async def scan_face(
    call: Call,
    image: UploadFile = File(
        description="A file part: the photo, JPEG, PNG or WebP (sent with its Content-Type, "
        "e.g. image/jpeg), showing one face; at most 10 MB and 40 megapixels."
    ),
    identity_numbers: list[str] = Form(
        default=[],
        description="The identity numbers this face is presented with (up to 10): one text "
        "field per number, repeated (`-F identity_numbers=22222222207 -F "
        "identity_numbers=70000000007`). In sandbox the first one's last digit picks the signals.",
        examples=[examples.FACE_SCAN_REQUEST_NUMBERS],
    ),
) -> bytes:
    """multipart/form-data: an `image` file part and optional `identity_numbers` fields. The one
    face is matched against the faces of fraud reports (the fraud bank) and the faces seen with
    other identity numbers at any organisation: one face behind many BVNs or NINs is the
    synthetic-identity pattern. No face, or a second large face, is a 400. Answers the face's
    box, the matches (`links`), the reports of the bank matches and a 0-100 risk. Live: the
    face is remembered with the numbers sent, one charge per call; sandbox: the image is
    checked for real, the last digit of the first identity number picks the signals, nothing
    is remembered."""
    data = await image.read(DEFAULT_MAX_BYTES + 1)
    if len(data) > DEFAULT_MAX_BYTES:
        raise ApiError(
            400,
            "invalid_request",
            f"image: larger than {DEFAULT_MAX_BYTES // (1024 * 1024)} MB.",
            details=[{"field": "image", "problem": "too large"}],
        )
    numbers = [n.strip() for n in identity_numbers if n.strip()]
    return await face_scan.scan(call, data, numbers)


@router.endpoint(ADDRESS, response_model=AddressScanResult)
async def scan_address(body: AddressScanRequest, call: Call) -> bytes:
    """The address parsed (P.O. Box, postal code, county/district/region/state, ward/LGA,
    town) against a gazetteer of Kenya, Uganda, Tanzania and Nigeria shipped with Hakiki; a
    match level (exact, partial, none) with typos corrected; coordinates, when sent, checked
    against the stated area; reports in the shared fraud database giving the same address; a
    0-100 risk score with every rule that fired. Live: one charge per call; sandbox: the same
    parsing, match and GPS check, no reports counted, nothing charged."""
    return await address_scan.scan(call, body)


@router.endpoint(IDENTITY_RISK, response_model=IdentityRiskResult)
async def assess_identity(body: IdentityRiskRequest, call: Call) -> bytes:
    """Any of names, date of birth, identity numbers, phones, e-mails, an address and an IP:
    each is checked with the rules of its own scan (docs/api.md), and the signals are combined
    into one 0-100 score; a rule that fired for several items counts once, with every reason.
    Live: one charge per call; sandbox: the single scans' test values apply."""
    return await identity_risk.assess_identity(call, body)

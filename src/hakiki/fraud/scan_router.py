"""HTTP handlers of the fraud scans (/v3/fraud/id-scan, ...)."""

from __future__ import annotations

import hashlib

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.errors import ApiError
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.engines.face.images import DEFAULT_MAX_BYTES
from hakiki.fraud import address_scan, face_scan, id_scan, identity_risk, phone_scan
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

router = APIRouter(prefix="/v3/fraud", tags=["Fraud"])


@router.post(
    "/id-scan",
    response_model=IdScanResult,
    summary="Scan an identity number for fraud signals",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def scan_id(
    body: IdScanRequest,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """Format validity for the channel, fraud reports naming the number (every organisation's,
    never who reported), and how many names, dates of birth, phones and faces have been seen
    with it across organisations: one number, many people, is the synthetic-identity pattern.
    A 0-100 risk score with every rule that fired. Live: one charge per call; sandbox: the last
    digit of the number picks the signals (docs/sandbox.md)."""
    call = await begin_call(request, principal, id_scan.ENDPOINT, body.model_dump(mode="json"))
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await id_scan.scan(call, body)
    return Response(content, media_type="application/json")


@router.post(
    "/phone",
    response_model=PhoneScanResult,
    summary="Verify and enrich a phone number (carrier, line type, risk)",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def scan_phone(
    body: PhoneScanRequest,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """Validity (and why not), E.164 and national forms, line type, the original carrier (the
    number range's allocation, not after porting) and, for fixed lines, the area; reports naming
    the phone in the shared fraud database, how many identity numbers it was seen with, how
    often other organisations checked it in the last 7 days; a 0-100 risk score with every rule
    that fired. Live: one charge per call; sandbox: real parsing, the last digit picks the
    database signals (docs/sandbox.md)."""
    call = await begin_call(request, principal, phone_scan.ENDPOINT, body.model_dump(mode="json"))
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await phone_scan.scan(call, body)
    return Response(content, media_type="application/json")


@router.post(
    "/face-scan",
    response_model=FaceScanResult,
    summary="Scan a face against the fraud bank and faces seen with other identity numbers",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def scan_face(
    request: Request,
    image: UploadFile = File(description="JPEG, PNG or WebP with one face; at most 10 MB."),
    identity_numbers: list[str] = Form(
        default=[], description="The identity numbers this face is presented with (up to 10)."
    ),
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """multipart/form-data: an `image` file part and optional `identity_numbers` fields. The one
    face is matched against the faces of fraud reports (the fraud bank) and the faces seen with
    other identity numbers at any organisation: one face behind many BVNs or NINs is the
    synthetic-identity pattern. No face, or a second large face, is a 400. Live: the face is
    remembered with the numbers sent, one charge per call."""
    data = await image.read(DEFAULT_MAX_BYTES + 1)
    if len(data) > DEFAULT_MAX_BYTES:
        raise ApiError(
            400,
            "invalid_request",
            f"image: larger than {DEFAULT_MAX_BYTES // (1024 * 1024)} MB.",
            details=[{"field": "image", "problem": "too large"}],
        )
    numbers = [n.strip() for n in identity_numbers if n.strip()]
    payload = {"image_sha256": hashlib.sha256(data).hexdigest(), "identity_numbers": numbers}
    call = await begin_call(request, principal, face_scan.ENDPOINT, payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await face_scan.scan(call, data, numbers)
    return Response(content, media_type="application/json")


@router.post(
    "/address",
    response_model=AddressScanResult,
    summary="Verify a physical address; returns a match/risk signal",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def scan_address(
    body: AddressScanRequest,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """The address parsed (P.O. Box, postal code, county/district/region/state, ward/LGA,
    town) against a gazetteer of Kenya, Uganda, Tanzania and Nigeria shipped with Hakiki; a
    match level (exact, partial, none) with typos corrected; coordinates, when sent, checked
    against the stated area; reports in the shared fraud database giving the same address; a
    0-100 risk score with every rule that fired. Live: one charge per call."""
    call = await begin_call(request, principal, address_scan.ENDPOINT, body.model_dump(mode="json"))
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await address_scan.scan(call, body)
    return Response(content, media_type="application/json")


@router.post(
    "/identity-risk",
    response_model=IdentityRiskResult,
    summary="Composite identity-risk scan from a flexible payload",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def assess_identity(
    body: IdentityRiskRequest,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """Any of names, date of birth, identity numbers, phones, e-mails, an address and an IP:
    each is checked with the rules of its own scan (docs/api.md), and the signals are combined
    into one 0-100 score; a rule that fired for several items counts once, with every reason.
    Live: one charge per call; sandbox: the single scans' test values apply."""
    payload = body.model_dump(mode="json")
    call = await begin_call(request, principal, identity_risk.ENDPOINT, payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await identity_risk.assess_identity(call, body)
    return Response(content, media_type="application/json")

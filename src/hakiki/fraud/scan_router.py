"""HTTP handlers of the fraud scans (/v3/fraud/id-scan, ...)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.fraud import id_scan, phone_scan
from hakiki.fraud.scan_schemas import (
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

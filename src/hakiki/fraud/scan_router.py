"""HTTP handlers of the fraud scans (/v3/fraud/id-scan, ...)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.fraud import id_scan
from hakiki.fraud.scan_schemas import IdScanRequest, IdScanResult

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

"""HTTP handlers of the KYC category (thin: the work is in service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.kyc import service
from hakiki.kyc.schemas import (
    Document,
    DriversLicenseRequest,
    KycRequest,
    KycResult,
    NationalIdRequest,
    PassportRequest,
)
from hakiki.screening.router import IDEMPOTENCY_HEADER

router = APIRouter(prefix="/v3/kyc", tags=["KYC"])

VERIFY_ERRORS = error_responses(*AUTHENTICATED, 400, 402, 409, 503)


async def _verify(
    request: Request, principal: Principal, document: Document, body: KycRequest
) -> Response:
    payload = body.model_dump(mode="json", exclude_unset=True)
    call = await begin_call(request, principal, service.ENDPOINTS[document], payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await service.verify(call, document, body)
    return Response(content, media_type="application/json")


@router.post(
    "/national-id",
    response_model=KycResult,
    summary="Verify a national identity number (NG NIN, KE ID, UG NIN, TZ NIDA)",
    responses=VERIFY_ERRORS,
    openapi_extra=IDEMPOTENCY_HEADER,
)
async def national_id(
    body: NationalIdRequest,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
) -> Response:
    """A slow registry answers PENDING with a reference; poll GET /v3/kyc/status/{reference}
    or wait for the verification.completed / verification.failed webhook."""
    return await _verify(request, principal, "national_id", body)


@router.post(
    "/drivers-license",
    response_model=KycResult,
    summary="Verify a driver's licence number",
    responses=VERIFY_ERRORS,
    openapi_extra=IDEMPOTENCY_HEADER,
)
async def drivers_license(
    body: DriversLicenseRequest,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
) -> Response:
    return await _verify(request, principal, "drivers_license", body)


@router.post(
    "/passport",
    response_model=KycResult,
    summary="Verify a passport number, and its MRZ check digits when the MRZ is sent",
    responses=VERIFY_ERRORS,
    openapi_extra=IDEMPOTENCY_HEADER,
)
async def passport(
    body: PassportRequest,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
) -> Response:
    return await _verify(request, principal, "passport", body)


@router.get(
    "/status/{reference}",
    response_model=KycResult,
    summary="The current state of a verification (poll a PENDING one until it is final)",
    responses=error_responses(*AUTHENTICATED, 404),
)
async def status(
    reference: str,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
) -> KycResult:
    runtime = request.app.state.runtime
    request_id = str(request.scope["state"]["request_id"])
    return await service.status(runtime, principal, request_id, reference)

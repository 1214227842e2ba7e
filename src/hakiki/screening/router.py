"""HTTP handlers of the screening category (thin: the work is in service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.screening import aml_service, channels_service, service
from hakiki.screening.aml_schemas import (
    AmlScreeningRequest,
    BusinessScreeningRequest,
    IndividualScreeningRequest,
    PersonScreeningRequest,
    SanctionScreeningRequest,
    ScreeningResult,
)
from hakiki.screening.aml_service import Screening
from hakiki.screening.schemas import AmlWithIdRequest, AmlWithIdResult, ChannelList

router = APIRouter(prefix="/v3/screening", tags=["AML screening"])


# Read from the request in begin_call rather than declared as a parameter: FastAPI's
# per-parameter resolution costs more than the header is worth on the hot path.
IDEMPOTENCY_HEADER = {
    "parameters": [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {"type": "string", "maxLength": 255},
            "description": "Makes retries safe: the first response is replayed for 24 h.",
        }
    ]
}


@router.post(
    "/aml-with-id",
    response_model=AmlWithIdResult,
    summary="Verify an ID, then screen the identity for sanctions and PEP",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409, 503),
    openapi_extra=IDEMPOTENCY_HEADER,
)
async def aml_with_id(
    body: AmlWithIdRequest,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
) -> Response:
    """One call, one wallet transaction in live mode; deterministic mock data in sandbox
    (the last digit of the number picks the outcome, the one before it the AML hits)."""
    payload = body.model_dump(mode="json", exclude_unset=True)
    call = await begin_call(request, principal, service.ENDPOINT, payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await service.screen_with_id(call, body)
    return Response(content, media_type="application/json")


@router.get(
    "/channels",
    response_model=ChannelList,
    summary="The ID channels usable in the combined screening, with sandbox test values",
    responses=error_responses(*AUTHENTICATED),
)
async def channels(
    request: Request, principal: Principal = Depends(require_scope("identity:read"))
) -> ChannelList:
    return channels_service.list_channels(request.app.state.runtime.providers)


SCREENING_ERRORS = error_responses(*AUTHENTICATED, 400, 402, 409, 503)


async def _screen(
    request: Request, principal: Principal, endpoint: str, body: BaseModel, screening: Screening
) -> Response:
    payload = body.model_dump(mode="json", exclude_unset=True)
    call = await begin_call(request, principal, endpoint, payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await aml_service.screen(call, screening)
    return Response(content, media_type="application/json")


@router.post(
    "/aml",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="Screen any subject for the checks you choose",
    responses=SCREENING_ERRORS,
)
async def aml(
    body: AmlScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    """Sanctions, PEP and adverse-media screening of a person, business, vessel or aircraft."""
    screening = aml_service.person_screening(body, body.subject_type, list(body.checks))
    return await _screen(request, principal, "screening.aml", body, screening)


@router.post(
    "/individual",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="PEP and sanctions screening of a natural person",
    responses=SCREENING_ERRORS,
)
async def individual(
    body: IndividualScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    checks = ["sanction", "pep", *(["adverse_media"] if body.adverse_media else [])]
    screening = aml_service.person_screening(body, "person", checks)
    return await _screen(request, principal, "screening.individual", body, screening)


@router.post(
    "/business",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="Sanctions and watchlist screening of a business",
    responses=SCREENING_ERRORS,
)
async def business(
    body: BusinessScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    checks = ["sanction", *(["adverse_media"] if body.adverse_media else [])]
    screening = aml_service.business_screening(body, checks)
    return await _screen(request, principal, "screening.business", body, screening)


@router.post(
    "/pep",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="Screen a person against PEP lists",
    responses=SCREENING_ERRORS,
)
async def pep(
    body: PersonScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    screening = aml_service.person_screening(body, "person", ["pep"])
    return await _screen(request, principal, "screening.pep", body, screening)


@router.post(
    "/sanction",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="Screen a person or entity against sanctions lists",
    responses=SCREENING_ERRORS,
)
async def sanction(
    body: SanctionScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    screening = aml_service.person_screening(body, body.subject_type, ["sanction"])
    return await _screen(request, principal, "screening.sanction", body, screening)


@router.post(
    "/pep-and-sanction",
    response_model=ScreeningResult,
    openapi_extra=IDEMPOTENCY_HEADER,
    summary="Combined PEP and sanctions screening of a person",
    responses=SCREENING_ERRORS,
)
async def pep_and_sanction(
    body: PersonScreeningRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
) -> Response:
    screening = aml_service.person_screening(body, "person", ["sanction", "pep"])
    return await _screen(request, principal, "screening.pep_and_sanction", body, screening)

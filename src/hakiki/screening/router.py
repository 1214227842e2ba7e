"""HTTP handlers of the screening category (thin: the work is in service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.screening import channels_service, service
from hakiki.screening.schemas import AmlWithIdRequest, AmlWithIdResult, ChannelList

router = APIRouter(prefix="/v3/screening", tags=["AML screening"])


@router.post(
    "/aml-with-id",
    response_model=AmlWithIdResult,
    summary="Verify an ID, then screen the identity for sanctions and PEP",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409, 503),
)
async def aml_with_id(
    body: AmlWithIdRequest,
    request: Request,
    principal: Principal = Depends(require_scope("identity:read")),
    idempotency_key: str | None = Header(
        default=None,
        alias="Idempotency-Key",
        description="Makes retries safe: the first response is replayed for 24 h.",
    ),
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

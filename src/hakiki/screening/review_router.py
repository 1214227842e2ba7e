"""HTTP handlers of the hit-review workflow (/v3/account/screening-reviews)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response, runtime_of
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.core.pagination import PageRequest, page_params
from hakiki.screening import review_service
from hakiki.screening.review_schemas import Review, ReviewList, ReviewRequest

router = APIRouter(prefix="/v3/account/screening-reviews", tags=["Screening reviews"])


@router.post(
    "",
    status_code=201,
    response_model=Review,
    summary="Mark a screening hit as a false positive or a true match",
    responses=error_responses(*AUTHENTICATED, 400, 409),
)
async def create_review(
    body: ReviewRequest,
    request: Request,
    principal: Principal = Depends(require_scope("screening:write")),
) -> Response:
    """A false positive is left out of this subject's later screenings (in this environment)
    until the list entry changes; a true match is shown with its review. Reviews are never
    edited: a new review of the same hit overrides the previous one, and both stay in the
    audit trail."""
    payload = body.model_dump(mode="json")
    call = await begin_call(request, principal, "screening.review", payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await review_service.create_review(call, body)
    return Response(content, status_code=201, media_type="application/json")


@router.get(
    "",
    response_model=ReviewList,
    summary="The audit trail of reviews, newest first",
    responses=error_responses(*AUTHENTICATED, 400),
)
async def list_reviews(
    request: Request,
    principal: Principal = Depends(require_scope("screening:read")),
    page: PageRequest = Depends(page_params),
    subject_key: str | None = Query(None, description="Only this subject's reviews."),
    list_code: str | None = Query(None),
    entity_id: str | None = Query(None),
) -> ReviewList:
    filters = {"subject_key": subject_key, "list_code": list_code, "entity_id": entity_id}
    return await review_service.list_reviews(runtime_of(request), principal, filters, page)

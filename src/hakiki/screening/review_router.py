"""HTTP handlers of the hit-review workflow (/v3/account/screening-reviews)."""

from __future__ import annotations

from fastapi import Depends, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.screening import review_service
from hakiki.screening.endpoints import REVIEW, REVIEWS
from hakiki.screening.review_schemas import Review, ReviewList, ReviewRequest

router = EndpointRouter(tags=["Screening reviews"])


@router.endpoint(REVIEW, response_model=Review)
async def create_review(body: ReviewRequest, call: Call) -> bytes:
    """Records an analyst's decision on one hit of a screening: the subject
    (`data.aml.subject_key`), the hit (`list_code`, `entity_id`, `entity_fingerprint`), the
    `decision`, a `reason` and the `reviewer`; answers 201 with the review. A false positive
    is left out of this subject's later screenings (in this environment) until the list entry
    changes; a true match is shown with its review. Reviews are never edited: a new review of
    the same hit overrides the previous one, and both stay in the audit trail. Free. Sandbox:
    works as in live mode, on sandbox screenings' hits."""
    return await review_service.create_review(call, body)


@router.endpoint(REVIEWS, response_model=ReviewList)
async def list_reviews(
    call: Call,
    page: PageRequest = Depends(page_params),
    subject_key: str | None = Query(None, description="Only this subject's reviews."),
    list_code: str | None = Query(None),
    entity_id: str | None = Query(None),
) -> ReviewList:
    """The audit trail of your organisation's hit reviews in this environment, newest first,
    paginated; filters `subject_key`, `list_code` and `entity_id`. Every review stays listed,
    including those a newer review of the same hit overrides. Free. Sandbox: the reviews made
    with sandbox keys (a new organisation has none)."""
    filters = {"subject_key": subject_key, "list_code": list_code, "entity_id": entity_id}
    return await review_service.list_reviews(call.runtime, call.principal, filters, page)

"""Models of the screening-hit review workflow."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hakiki.core.pagination import Pagination
from hakiki.core.strict import FromCredentials
from hakiki.screening import examples

Decision = Literal["false_positive", "true_match"]


class ReviewRequest(BaseModel):
    """An analyst's decision on one hit, quoted from a screening result."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [examples.REVIEW_REQUEST]},
    )

    subject_key: StrictStr = Field(
        pattern=r"^[0-9a-f]{64}$", description="data.aml.subject_key of the screening."
    )
    list_code: StrictStr = Field(min_length=1, max_length=80)
    entity_id: StrictStr = Field(min_length=1, max_length=120)
    entity_fingerprint: StrictStr = Field(
        min_length=1, max_length=40, description="The hit's entity_fingerprint."
    )
    decision: Decision
    reason: StrictStr = Field(min_length=3, max_length=2000, description="Why: for the audit.")
    # Who decided is the caller (Review.reviewer); a body naming someone is a 400.
    reviewer: FromCredentials = None


class Review(BaseModel):
    id: str
    subject_key: str
    list_code: str
    entity_id: str
    entity_fingerprint: str
    decision: Decision
    reason: str
    reviewer: str = Field(
        description="Who decided: the signed-in console user's e-mail address, or the API "
        "key's client id; taken from the credentials, never from the body."
    )
    created_at: datetime
    entity_name: str | None = Field(
        None,
        description="The list entry's name and list title, looked up in the lists loaded "
        "now (public list data, not stored with the review); null when the entry is no longer "
        "on the loaded list.",
    )
    list_title: str | None = None


class ReviewList(BaseModel):
    data: list[Review]
    pagination: Pagination


class HitReview(BaseModel):
    """The review in force for a hit that is still shown."""

    id: str
    decision: Decision
    reviewer: str
    reason: str
    created_at: datetime
    applies: bool = Field(
        description="false when the list entry changed after the review: review it again."
    )


class SuppressedHit(BaseModel):
    """A hit left out because an analyst marked it a false positive for this subject and the
    list entry has not changed since."""

    list_code: str
    entity_id: str
    entity_name: str
    score: float
    review: HitReview

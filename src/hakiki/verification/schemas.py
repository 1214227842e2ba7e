"""Request and response models of the verification sessions (docs/api.md#verification-sessions)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
)

from hakiki.core.envelope import Envelope, Outcome
from hakiki.core.envelope import Verdict as Judgement
from hakiki.core.pagination import Pagination
from hakiki.core.privacy.consent import consent_id_field

Step = Literal["id_number", "document", "selfie_liveness", "screening"]
SessionStatus = Literal["created", "started", "submitted", "completed", "failed", "expired"]
Decision = Literal["approved", "review", "declined"]
StepStatus = Literal["passed", "review", "failed", "not_run"]
Country = Literal["KE", "UG", "TZ", "NG"]
Name = Annotated[
    StrictStr, StringConstraints(min_length=1, max_length=120, pattern=r"^[^\x00-\x1f\x7f]+$")
]

EXAMPLE_REQUEST: dict[str, Any] = {
    "steps": ["id_number", "document", "selfie_liveness", "screening"],
    "country_code": "KE",
    "id_channel": "national_id",
    "customer_reference": "cust-0042",
    "customer": {"first_name": "Wanjiru", "last_name": "Kamau"},
    "redirect_url": "https://lender.example/onboarding/done",
    "expires_in_minutes": 1440,
}


class Customer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    first_name: Name
    last_name: Name


class SessionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE_REQUEST]})

    steps: list[Step] = Field(
        min_length=1,
        max_length=4,
        description="What the customer does, in this order on the page: id_number (typed, "
        "checked with the KYC channel id_channel), document (photographed), selfie_liveness "
        "(active liveness, matched to the document's portrait: needs document), screening "
        "(sanctions and PEP on the name found: needs id_number, document or customer).",
    )
    country_code: Country = "KE"
    id_channel: Annotated[StrictStr, StringConstraints(min_length=1, max_length=40)] | None = Field(
        default=None, description="The KYC channel of the ID number (national_id, nin, bvn...)."
    )
    customer_reference: Annotated[
        StrictStr, StringConstraints(min_length=1, max_length=100, pattern=r"^[\x21-\x7e]+$")
    ] = Field(
        description="Your reference for the customer (no spaces); sandbox suffixes drive outcomes."
    )
    customer: Customer | None = Field(
        default=None, description="The customer's names, compared with the ID register's."
    )
    redirect_url: (
        Annotated[StrictStr, StringConstraints(max_length=2000, pattern=r"^https?://")] | None
    ) = Field(default=None, description="Where the page sends the customer when done.")
    expires_in_minutes: int = Field(
        default=1440, ge=5, le=10080, description="How long the link works (5 minutes to 7 days)."
    )


class StepResult(BaseModel):
    step: Step
    status: StepStatus
    reason: str
    evidence: dict[str, Any] = Field(default_factory=dict)
    charged: bool = False


class SessionOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "vss_01JDQ4R0000000000000000000",
                    "live": False,
                    "state": "created",
                    "decision": None,
                    "url": "https://hakiki.example.com/verify/kR3...",
                    "steps": ["id_number", "document", "selfie_liveness", "screening"],
                    "country_code": "KE",
                    "id_channel": "national_id",
                    "customer_reference": "cust-0042",
                    "redirect_url": "https://lender.example/onboarding/done",
                    "results": [],
                    "reasons": [],
                    "expires_at": "2026-11-28T10:00:00Z",
                    "consent_at": None,
                    "started_at": None,
                    "submitted_at": None,
                    "completed_at": None,
                    "price": 0,
                    "charged_amount": 0,
                    "currency": "KES",
                    "created_at": "2026-11-27T10:00:00Z",
                }
            ]
        }
    )

    id: str
    live: bool
    state: SessionStatus = Field(
        description="created -> started -> submitted -> completed | failed, or expired (the "
        "envelope's status: PENDING until it ends, then COMPLETED, or FAILED when it failed "
        "or expired)."
    )
    decision: Decision | None = Field(
        description="approved: every step passed; review: a step needs a person (a screening "
        "hit, a source unavailable); declined: a step failed (see reasons)."
    )
    url: str | None = Field(description="The one-time link to send the customer (only in the 201).")
    steps: list[Step]
    country_code: str
    id_channel: str | None
    customer_reference: str
    redirect_url: str | None
    results: list[StepResult] = Field(description="Each step's result, once submitted.")
    reasons: list[str] = Field(description="Why the decision is not approved, one per step.")
    expires_at: datetime
    consent_at: datetime | None
    started_at: datetime | None
    submitted_at: datetime | None
    completed_at: datetime | None
    price: int = Field(description="The steps' price reserved (live), minor units.")
    charged_amount: int = Field(description="What the steps that ran were charged.")
    currency: str
    created_at: datetime
    consent_id: str | None = consent_id_field()


EXAMPLE_SESSION: dict[str, Any] = SessionOut.model_config["json_schema_extra"]["examples"][0]  # type: ignore[index,assignment]


class SessionList(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [EXAMPLE_SESSION | {"url": None}],
                    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
                }
            ]
        }
    )

    data: list[SessionOut]
    pagination: Pagination


class SessionResult(Envelope):
    """A session in the envelope: PENDING until the customer has submitted and its steps
    have run, then COMPLETED (with the decision's verdict), or FAILED (failed or expired);
    ``reference`` is the session's id."""

    data: SessionOut


# The decision in the envelope's one vocabulary (docs/api.md#verdicts).
VERDICTS: dict[str, Judgement] = {
    "approved": Judgement.PASS,
    "review": Judgement.REVIEW,
    "declined": Judgement.FAIL,
}
_ENDED = {"completed": Outcome.COMPLETED, "failed": Outcome.FAILED, "expired": Outcome.FAILED}


def session_outcome(state: str) -> Outcome:
    """The envelope's status of a session in ``state``."""
    return _ENDED.get(state, Outcome.PENDING)


MAX_RETENTION_DAYS = 365


class ImageSettingsRequest(BaseModel):
    """Whether the hosted page's images (the document photo, the liveness frames) are kept,
    sealed, for your analysts to review, and for how long."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"keep_images": True, "retention_days": 30}]},
    )

    keep_images: StrictBool = Field(
        description="true: keep each session's images from now on; false (the default): keep "
        "none (the images already kept stay until their own deletion date)."
    )
    retention_days: StrictInt = Field(
        30,
        ge=1,
        le=MAX_RETENTION_DAYS,
        description="Days the images are kept after the submission; then deleted.",
    )


class ImageSettings(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "keep_images": True,
                    "retention_days": 30,
                    "updated_at": "2026-11-27T10:00:00Z",
                    "updated_by": "hkc_sandbox_0a1b2c3d",
                }
            ]
        }
    )

    keep_images: bool = Field(description="false unless your organisation opted in.")
    retention_days: int
    updated_at: datetime | None = Field(description="null: never set (the default, off).")
    updated_by: str | None = Field(description="Who set it: the key or the console user.")

"""Request and response models of the background-check endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictStr,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from hakiki.background import examples
from hakiki.background.check_types import COUNTRIES
from hakiki.core.envelope import Envelope, Outcome, example
from hakiki.core.envelope import Verdict as Judgement
from hakiki.core.pagination import Pagination
from hakiki.core.privacy.consent import consent_id_field
from hakiki.core.strict import FromCredentials
from hakiki.engines.background.states import CheckResult, CheckStatus, RequestState

CountryCode = Literal["KE", "UG", "TZ", "NG"]


def _country(value: Any) -> Any:
    listed = ", ".join(COUNTRIES)
    if not isinstance(value, str) or value.strip().upper() not in COUNTRIES:
        raise PydanticCustomError(
            "unsupported_country",
            "must be a country background checks serve: one of {supported}",
            {"supported": listed},
        )
    return value.strip().upper()


Country = Annotated[CountryCode, BeforeValidator(_country)]


def _plain_text(value: Any) -> Any:
    """No control characters in names (a name is one line) and no blank name."""
    if isinstance(value, str):
        value = value.strip()
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise PydanticCustomError("control_character", "must not contain control characters")
    return value


Name = Annotated[
    StrictStr,
    BeforeValidator(_plain_text),
    StringConstraints(min_length=1, max_length=120),
]
CheckCode = Annotated[StrictStr, StringConstraints(min_length=1, max_length=40)]


# Check types and countries ---------------------------------------------------------------


class CheckTypeOut(BaseModel):
    code: str
    name: str
    kind: Literal["automated", "manual"]
    description: str
    needs: list[str] = Field(description="Fields the candidate fills in on the invitation page.")
    documents: list[str] = Field(description="Documents the candidate uploads.")
    turnaround_hours: int = Field(
        description="The SLA: from the candidate's submission to the check's result."
    )
    price: int = Field(description="Per check run, in minor units of your wallet's currency.")
    available: bool
    unavailable_reason: str | None = None
    countries: list[str]


class CheckTypeList(BaseModel):
    country_code: str | None
    data: list[CheckTypeOut]
    pagination: Pagination


class CountryOut(BaseModel):
    country_code: str
    name: str
    check_types: int
    automated: int
    manual: int


class CountryList(BaseModel):
    data: list[CountryOut]
    pagination: Pagination


# Packages ----------------------------------------------------------------------------------


class PackageOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.PACKAGE]})

    id: str
    name: str
    country_code: str
    description: str
    check_types: list[str]
    price: int = Field(description="Sum of the check types' prices, reserved per candidate.")
    turnaround_hours: int = Field(description="The longest check's turnaround.")
    system: bool
    created_at: datetime | None = None
    updated_at: datetime | None = None


class PackageList(BaseModel):
    data: list[PackageOut]
    pagination: Pagination


class PackageRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Loan officers",
                    "country_code": "KE",
                    "description": "Identity, sanctions and police clearance.",
                    "check_types": ["identity", "sanctions_pep", "criminal_record"],
                }
            ]
        },
    )

    name: Name = Field(description="Unique in your organisation (case-insensitive).")
    country_code: Country = Field(description="KE, UG, TZ or NG.")
    description: Annotated[StrictStr, StringConstraints(max_length=1000)] = ""
    check_types: list[CheckCode] = Field(
        min_length=1,
        max_length=20,
        description="Codes from GET /v3/background/check-types?country_code=, each once.",
    )


# Candidates --------------------------------------------------------------------------------


class CandidateIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    first_name: Name
    last_name: Name
    email: Annotated[
        StrictStr,
        BeforeValidator(_plain_text),
        StringConstraints(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"),
    ]
    phone: Annotated[StrictStr, StringConstraints(pattern=r"^\+?[0-9 ]{7,20}$")] | None = None
    id_number: Annotated[StrictStr, StringConstraints(pattern=r"^[A-Za-z0-9/-]{4,30}$")] | None = (
        None
    )


class CandidatesRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "package_id": "spk_ke_basic_identity",
                    "candidates": [
                        {
                            "first_name": "Wanjiru",
                            "last_name": "Kamau",
                            "email": "wanjiru+complete@example.com",
                            "phone": "+254712345678",
                        }
                    ],
                }
            ]
        },
    )

    package_id: Annotated[StrictStr, StringConstraints(min_length=1, max_length=40)] = Field(
        description="A system package id (spk_...) or one of your packages (bpk_...)."
    )
    candidates: list[CandidateIn] = Field(min_length=1, max_length=50)
    callback_url: (
        Annotated[StrictStr, StringConstraints(max_length=2000, pattern=r"^https?://")] | None
    ) = Field(
        default=None,
        description="Also deliver this request's background_check.* events here, signed with "
        "the callback_secret of the answer (Standard Webhooks), retried and logged like any "
        "webhook.",
    )


class CheckOut(BaseModel):
    code: str
    name: str
    kind: Literal["automated", "manual"]
    status: CheckStatus
    result: CheckResult | None
    evidence: dict[str, Any] | None
    due_at: datetime | None
    completed_at: datetime | None
    recorded_by: str | None = None
    charged: bool


class TimelineEntry(BaseModel):
    at: datetime
    event: str
    status: RequestState
    detail: str


class CandidateOut(BaseModel):
    first_name: str
    last_name: str
    email: str
    phone: str | None = None


class CandidateRequestOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.REINITIATED]})

    reference: str
    live: bool
    state: RequestState = Field(
        description="pending (invited) -> in_progress -> completed, or stalled, or expired "
        "(the envelope's status: PENDING until completed, then COMPLETED; FAILED when "
        "expired)."
    )
    result: CheckResult | None
    package: dict[str, Any]
    candidate: CandidateOut
    invitation_url: str | None = Field(
        description="Only while pending, and only in the answers to the create and "
        "reinitiate calls: the link holds the invitation's secret token."
    )
    expires_at: datetime
    submitted_at: datetime | None
    completed_at: datetime | None
    price: int
    charged_amount: int
    currency: str
    callback_url: str | None = Field(
        default=None, description="Where this request's events are also delivered, if anywhere."
    )
    created_at: datetime


class CandidateRequestDetail(CandidateRequestOut):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.DETAIL]})

    checks: list[CheckOut]
    timeline: list[TimelineEntry]


class CandidatesCreated(BaseModel):
    requests: list[CandidateRequestOut] = Field(
        description="One request per candidate, in the order sent, each with its reference."
    )
    callback_secret: str | None = Field(
        default=None,
        description="whsec_...: with a callback_url, the secret that signs the events sent to "
        "it (Standard Webhooks). Shown only here.",
    )
    consent_id: str | None = consent_id_field()


INVITED = (
    "The candidates are invited: each request continues in the background until its checks "
    "have run; poll it by its reference, or wait for background_check.updated."
)
REQUEST_MESSAGES = {
    "pending": "The candidate is invited and has not submitted yet.",
    "in_progress": "The candidate has submitted; the checks are running.",
    "stalled": "A check is past its turnaround; the request completes when its result is in.",
    "completed": "Every check has a result: the request's result and each check's are in data.",
    "expired": "The invitation expired before the candidate submitted; reinitiate it to send "
    "a fresh one. Nothing was charged for the checks that did not run.",
}


class CandidatesResult(Envelope):
    """The 201 of an invitation in the envelope: PENDING, ``reference`` the first request's
    (the only one's, for one candidate); each request's own in ``data.requests``."""

    data: CandidatesCreated


class CandidateResult(Envelope):
    """A request in the envelope: PENDING until completed, then COMPLETED with its result's
    verdict; FAILED when expired (reinitiate it)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                example(
                    examples.DETAIL,
                    reference=examples.DETAIL["reference"],
                    verdict=Judgement.PASS,
                    message=REQUEST_MESSAGES["completed"],
                )
            ]
        }
    )

    data: CandidateRequestDetail


class ReinitiatedResult(Envelope):
    """A reinitiated request in the envelope: PENDING again, with its fresh invitation."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                example(
                    examples.REINITIATED,
                    reference=examples.REINITIATED["reference"],
                    outcome=Outcome.PENDING,
                    message=REQUEST_MESSAGES["pending"],
                )
            ]
        }
    )

    data: CandidateRequestOut


# A completed request's result in the envelope's one vocabulary (docs/api.md#verdicts): what
# could not be verified is for a person to look at, not a failure of the candidate.
VERDICTS: dict[str, Judgement] = {
    "clear": Judgement.PASS,
    "consider": Judgement.REVIEW,
    "unverifiable": Judgement.REVIEW,
}
_OUTCOMES = {"completed": Outcome.COMPLETED, "expired": Outcome.FAILED}


def request_outcome(state: str) -> Outcome:
    """The envelope's status of a request in ``state``."""
    return _OUTCOMES.get(state, Outcome.PENDING)


class CandidateRequestList(BaseModel):
    data: list[CandidateRequestOut]
    pagination: Pagination


class CheckResultRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "result": "clear",
                    "evidence": {"certificate_number": "DCI-2026-001234", "notes": "Genuine."},
                }
            ]
        },
    )

    result: CheckResult
    evidence: dict[str, Annotated[StrictStr, StringConstraints(max_length=2000)]] = Field(
        min_length=1, max_length=20, description="What the analyst saw: text fields."
    )
    # Who recorded it is the caller (recorded_by); a body naming someone is a 400.
    analyst: FromCredentials = None

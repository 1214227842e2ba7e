"""Request and response models of the monitored-subjects endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictStr

from hakiki.core.envelope import Envelope, Outcome, Verdict, example
from hakiki.core.pagination import Pagination
from hakiki.screening.aml_schemas import CountryName

MonitoredCheck = Literal["sanction", "pep"]
DEFAULT_CHECKS: tuple[MonitoredCheck, ...] = ("sanction", "pep")
SubjectType = Literal["person", "business", "vessel", "aircraft"]

REFERENCE = Field(
    default=None,
    min_length=1,
    max_length=100,
    description="Your own reference for the customer (stored encrypted); enrolling the same "
    "reference again answers the subject already enrolled.",
)


class MonitoredSubjectRequest(BaseModel):
    """A customer to keep screening: a person by `name` (or `first_name`/`last_name`), a
    business, vessel or aircraft by `name`."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "first_name": "Sandbox",
                    "last_name": "Later Listed",
                    "birth_date": "1982-02-02",
                    "countries": ["KE"],
                    "reference": "customer-0042",
                }
            ]
        },
    )

    subject_type: SubjectType = Field(default="person")
    name: StrictStr | None = Field(default=None, max_length=300)
    first_name: StrictStr | None = Field(default=None, max_length=100)
    middle_name: StrictStr | None = Field(default=None, max_length=200)
    last_name: StrictStr | None = Field(default=None, max_length=100)
    birth_date: StrictStr | None = Field(
        default=None,
        pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$",
        description="YYYY, YYYY-MM or YYYY-MM-DD.",
    )
    gender: Literal["male", "female"] | None = None
    countries: list[CountryName] = Field(default_factory=list, max_length=10)
    identifiers: list[StrictStr] = Field(default_factory=list, max_length=10)
    reference: StrictStr | None = REFERENCE
    checks: list[MonitoredCheck] = Field(
        default_factory=lambda: list(DEFAULT_CHECKS),
        min_length=1,
        description="The list checks to keep running (sanction, pep).",
    )
    threshold: StrictFloat | None = Field(
        default=None, ge=0.5, le=1.0, description="Score from which an entry is a hit (0.80)."
    )


_SUBJECT_EXAMPLE: dict[str, Any] = {
    "id": "msub_01jdx3q6w9k2m4n8p0r2s4t6v8",
    "reference": "customer-0042",
    "subject_type": "person",
    "name": "Sandbox Later Listed",
    "first_name": "Sandbox",
    "middle_name": None,
    "last_name": "Later Listed",
    "birth_date": "1982-02-02",
    "gender": None,
    "countries": ["KE"],
    "identifiers": [],
    "checks": ["sanction", "pep"],
    "threshold": None,
    "subject_key": "4f1a9c0e7b2d6a8c3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d",
    "source": "api",
    "state": "active",
    "created_at": "2026-11-27T21:00:00Z",
    "deleted_at": None,
    "last_screened_at": "2026-11-27T21:00:01Z",
    "lists_screened": [
        {"code": "sandbox_sanction", "version": "sandbox-1"},
        {"code": "sandbox_pep", "version": "sandbox-1"},
    ],
    "checks_not_run": [],
    "open_alerts": 0,
    "open_alert_ids": [],
}

SubjectState = Literal["enrolling", "active", "deleted"]


class ScreenedList(BaseModel):
    code: str
    version: str


class MonitoredSubject(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [_SUBJECT_EXAMPLE]})

    id: str
    reference: str | None
    subject_type: str
    name: str = Field(description="The full name screened.")
    first_name: str | None = None
    middle_name: str | None = None
    last_name: str | None = None
    birth_date: str | None = None
    gender: str | None = None
    countries: list[str]
    identifiers: list[str]
    checks: list[str]
    threshold: float | None
    subject_key: str = Field(description="The key reviews and alerts use for this subject.")
    source: Literal["api", "screening", "aml_with_id"] = Field(
        description="How it was enrolled: this endpoint, `monitor: true` on a screening, or on "
        "AML-with-ID."
    )
    state: SubjectState = Field(
        description="enrolling (its baseline screening has not run yet: the envelope is "
        "PENDING) -> active (screened: COMPLETED) -> deleted (no longer monitored)."
    )
    created_at: datetime
    deleted_at: datetime | None = None
    last_screened_at: datetime | None = Field(
        description="Its last whole screening against every list: the baseline at enrolment "
        "(or the screening that enrolled it with `monitor: true`), then the daily full pass; "
        "list changes in between are screened as they come and show as alerts."
    )
    lists_screened: list[ScreenedList] = Field(
        description="The list versions that screening used (empty when not known: enrolled "
        "before baselines were recorded, until its next full pass)."
    )
    checks_not_run: list[str] = Field(
        description="Checks of the subject that could not run at that screening (no list "
        "loaded for them): the result is then INCOMPLETE, never clear."
    )
    open_alerts: int = Field(description="How many of its alerts are open.")
    open_alert_ids: list[str] = Field(
        description="Its open alerts (GET /v3/screening/alerts/{alert_id}), oldest first."
    )


def subject_messages(open_alerts: int = 0, not_run: list[str] | None = None) -> dict[Outcome, str]:
    """The envelope's message of a monitored subject, by its status."""
    checks = ", ".join(not_run or []) or "none"
    alerts = (
        f" {open_alerts} open alert(s) to review: GET /v3/screening/alerts/{{alert_id}} for "
        "each of data.open_alert_ids."
        if open_alerts
        else ""
    )
    return {
        Outcome.PENDING: "The subject is enrolled; its baseline screening against the current "
        "lists continues in the background: poll GET /v3/screening/monitored-subjects/"
        "{reference}.",
        Outcome.COMPLETED: (
            "Screened against every list:"
            + (alerts if open_alerts else " no open alert.")
            + " It is screened again whenever a list changes, and every day."
        ),
        Outcome.INCOMPLETE: f"Not every check could run at its last screening ({checks}: no "
        "list loaded): it is not clear." + alerts,
        Outcome.FAILED: "The subject was deleted before its baseline screening ran; it is no "
        "longer monitored.",
    }


class MonitoredSubjectResult(Envelope):
    """A monitored subject in the envelope: PENDING (``reference`` its id) until its baseline
    screening has run, then COMPLETED, PASS with no open alert, REVIEW with open alerts;
    INCOMPLETE when a check could not run; FAILED when deleted before its baseline ran."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                example(
                    _SUBJECT_EXAMPLE,
                    reference=_SUBJECT_EXAMPLE["id"],
                    verdict=Verdict.PASS,
                    message=subject_messages()[Outcome.COMPLETED],
                )
            ]
        }
    )

    data: MonitoredSubject


class MonitoredSubjectList(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [_SUBJECT_EXAMPLE],
                    "pagination": {
                        "page": 1,
                        "page_size": 20,
                        "total_pages": 1,
                        "total_items": 1,
                    },
                }
            ]
        }
    )

    data: list[MonitoredSubject]
    pagination: Pagination


class SandboxListUpdate(BaseModel):
    """What the sandbox list update did for your sandbox subjects."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "list_version": "sandbox-2",
                    "added": ["sbx-s-1", "sbx-s-5"],
                    "removed": ["sbx-s-4"],
                    "subjects_screened": 1,
                    "alerts_raised": ["alrt_06h1xm716awqpsn1f4s8cf5654"],
                    "alerts_closed": [],
                }
            ]
        }
    )

    list_version: str = Field(description="The sandbox lists' version after the update.")
    added: list[str] = Field(description="Entity ids the update added or amended.")
    removed: list[str] = Field(description="Entity ids the update removed.")
    subjects_screened: int
    alerts_raised: list[str] = Field(description="Alert ids opened or amended.")
    alerts_closed: list[str] = Field(description="Alert ids closed (entry removed).")

"""Models of the alert queue (/v3/screening/alerts)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hakiki.core.pagination import Pagination
from hakiki.screening import examples
from hakiki.screening.review_schemas import Decision
from hakiki.screening.schemas import AmlHit

AlertStatus = Literal["open", "resolved", "closed"]
AlertEventType = Literal["opened", "amended", "assigned", "commented", "resolved", "closed"]


class AlertSubjectView(BaseModel):
    subject_key: str = Field(description="The screened subject's key (data.aml.subject_key).")
    monitored_subject_id: str | None = Field(
        description="The monitored subject (msub_...) when monitoring raised the alert."
    )
    name: str = Field(description="The name that was screened.")
    reference: str | None = Field(description="Your own reference for the subject, if given.")


class Alert(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.ALERT]})

    id: str
    status: AlertStatus = Field(
        description="open (to work), resolved (an analyst decided) or closed (the list entry "
        "was removed from its list)."
    )
    origin: Literal["onboarding", "monitoring"] = Field(
        description="onboarding: a screening call's hit; monitoring: a monitored subject's."
    )
    list_code: str
    entity_id: str
    entity_fingerprint: str = Field(description="The list entry's content as last screened.")
    score: float
    hit: AmlHit = Field(
        description="The hit: the list entry's details, the matched name, its score and the "
        "explanation per feature."
    )
    subject: AlertSubjectView
    assignee: str | None = Field(
        description="Who works it: a console user's e-mail address or an API key's client id."
    )
    decision: Decision | None = Field(description="The resolution, once resolved.")
    created_at: datetime
    updated_at: datetime


class AlertEvent(BaseModel):
    id: str
    event: AlertEventType
    actor: str = Field(
        description="Who: the signed-in console user's e-mail address, the API key's client "
        "id, or system (a screening raised it, a list update closed it)."
    )
    detail: dict[str, Any] = Field(
        description="What: the comment; the decision and reason; the assignee; the entry "
        "fingerprints of an amendment; the request or reason that opened or closed it."
    )
    created_at: datetime


class AlertWithHistory(Alert):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.ALERT_WITH_HISTORY]})

    history: list[AlertEvent] = Field(description="Every action on the alert, oldest first.")


class AlertList(BaseModel):
    data: list[Alert]
    pagination: Pagination


class AssignRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"assignee": "analyst@lender.example"}]}
    )

    assignee: StrictStr | None = Field(
        max_length=254,
        description="A console user of your organisation (e-mail address) or an API key of "
        "this environment (client id); null to unassign.",
    )


class CommentRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"comment": "Asked the customer for a copy of the passport."}]
        },
    )

    comment: StrictStr = Field(min_length=1, max_length=4000)


class ResolveRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "decision": "false_positive",
                    "reason": "Different person: customer born 1994 in Kano, listed 1970.",
                }
            ]
        },
    )

    decision: Decision = Field(
        description="false_positive: the hit stays suppressed for this subject until the list "
        "entry changes; true_match: the subject is the listed entry."
    )
    reason: StrictStr = Field(min_length=3, max_length=2000, description="Why: for the audit.")

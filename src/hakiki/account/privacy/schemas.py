"""Response models of the privacy records."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.pagination import Pagination

EXAMPLE_CONSENT: dict[str, Any] = {
    "id": "cns_01jdv3m4k5n6p7q8r9s0t1v2w3",
    "live": False,
    "request_id": "req_01jdv3m4k5n6p7q8r9s0t1v2w3",
    "endpoint": "credit.bureau",
    "reference": "crd_01jdv3m4k5n6p7q8r9s0t1v2w3",
    "source": "api",
    "obtained_at": "2026-11-20T09:14:00Z",
    "method": "checkbox",
    "notice_version": "privacy-notice-2026-09",
    "notice_url": "https://lender.example/privacy",
    "notice_text": None,
    "purposes": ["credit_report"],
    "language": "en",
    "subject_reference": "cust-000123",
    "attested_by": None,
    "recorded_at": "2026-11-20T09:14:02Z",
}


class ConsentRecordOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_CONSENT]})

    id: str
    live: bool
    request_id: str = Field(description="The request that carried it (or the hosted page's).")
    endpoint: str = Field(description="The endpoint's key, or verification.hosted_page.")
    reference: str | None = Field(description="The resource the call made, when it named one.")
    source: Literal["api", "attested", "hosted", "console"] = Field(
        description="api: the consent object sent; attested: `consent: true` (the caller "
        "attests it, API 1.x only); hosted: ticked by the subject on a hosted page; console: "
        "attested by a console user on the form that made the call (`attested_by`)."
    )
    obtained_at: datetime
    method: str
    notice_version: str | None
    notice_url: str | None
    notice_text: str | None = Field(
        description="The text a hosted page or the console's form showed, as shown."
    )
    purposes: list[str]
    language: str | None
    subject_reference: str | None
    attested_by: str | None = Field(
        default=None, description="console: the id of the console user who attested it."
    )
    recorded_at: datetime


class AuditEntry(BaseModel):
    id: str
    actor_type: Literal["api_key", "user", "subject"] = Field(
        description="api_key, user (a console user) or subject (a hosted page's data subject)."
    )
    actor_id: str = Field(description="The key's id, the console user's id or the session's.")
    action: Literal["read", "create", "update", "delete", "export"]
    resource_type: str
    resource_id: str | None = Field(description="null for a list.")
    endpoint: str
    request_id: str
    created_at: datetime


class AuditLogPage(BaseModel):
    data: list[AuditEntry]
    pagination: Pagination


AUDIT_COLUMNS = tuple(AuditEntry.model_fields)

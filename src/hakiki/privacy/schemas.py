"""Models of subject requests and retention policies."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hakiki.core.pagination import Pagination

Kind = Literal["access", "erasure"]


class SubjectIdentifiers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reference: StrictStr | None = Field(
        default=None,
        max_length=200,
        description="Your reference for the person (a verification session's "
        "customer_reference, a monitored subject's or background request's reference).",
    )
    id_numbers: list[StrictStr] = Field(
        default_factory=list, max_length=10, description="Identity numbers (any type)."
    )
    phones: list[StrictStr] = Field(default_factory=list, max_length=10)
    emails: list[StrictStr] = Field(default_factory=list, max_length=10)
    first_name: StrictStr | None = Field(default=None, max_length=100)
    last_name: StrictStr | None = Field(default=None, max_length=100)
    date_of_birth: date | None = Field(
        default=None, description="With first_name and last_name: a name alone is many people."
    )
    country_code: StrictStr | None = Field(
        default=None, min_length=2, max_length=2, description="Reads local phone numbers."
    )


class SubjectRequestBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "type": "access",
                    "subject": {"id_numbers": ["31415926"], "phones": ["0722555019"]},
                }
            ]
        },
    )

    type: Kind = Field(description="access: an export of everything held; erasure: erase it.")
    subject: SubjectIdentifiers


class CategoryReceipt(BaseModel):
    category: str
    found: int = Field(description="Rows found about the subject.")
    exported: int = Field(description="Rows in the export (access).")
    erased: int = Field(description="Rows deleted (erasure).")
    anonymised: int = Field(description="Rows kept without the subject's data (erasure).")
    kept: int = Field(description="Rows kept as they are, for the reasons given (erasure).")
    reasons: list[str] = Field(description="Why rows were kept or only anonymised.")
    files_rewritten: int = Field(
        default=0,
        description="Stored files of many subjects (a bulk scan's upload) rewritten without "
        "the subject's rows (erasure).",
    )
    file_rows_removed: int = Field(
        default=0,
        description="The subject's rows replaced by a placeholder inside those files (erasure); "
        "counted in found too.",
    )


_RECEIPT: dict[str, Any] = {
    "category": "fraud_reports",
    "found": 1,
    "exported": 0,
    "erased": 0,
    "anonymised": 0,
    "kept": 1,
    "reasons": ["A fraud report is kept for the prevention and detection of crime ..."],
    "files_rewritten": 0,
    "file_rows_removed": 0,
}


class SubjectRequest(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "dsr_06h20bsfxnj8ehxm8qegnmmmfw",
                    "type": "erasure",
                    "status": "completed",
                    "receipt": [_RECEIPT],
                    "export_available": False,
                    "failure_reason": None,
                    "created_at": "2026-11-28T03:24:53.101867Z",
                    "completed_at": "2026-11-28T03:24:54.020000Z",
                }
            ]
        }
    )

    id: str
    type: Kind
    status: Literal["queued", "completed", "failed"]
    receipt: list[CategoryReceipt] | None = Field(
        description="Per category, once completed. Holds no personal data."
    )
    export_available: bool = Field(
        description="access: the export can be fetched (GET .../export) for 7 days."
    )
    failure_reason: str | None
    created_at: datetime
    completed_at: datetime | None


class SubjectExport(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "dsr_06h20bsfxnj8ehxm8qegnmmmfw",
                    "created_at": "2026-11-28T03:24:53.101867Z",
                    "categories": {
                        "credit": {
                            "credit_reports": [
                                {"reference": "crb_06h20b", "report_encrypted": {"...": "..."}}
                            ]
                        }
                    },
                }
            ]
        }
    )

    id: str
    created_at: datetime
    categories: dict[str, dict[str, list[dict[str, Any]]]] = Field(
        description="Category -> table -> rows, personal columns decrypted."
    )


class RetentionPolicy(BaseModel):
    category: str
    days: int
    default_days: int
    min_days: int
    max_days: int
    source: Literal["organisation", "default"]
    reason: str = Field(description="Why the bounds are what they are.")
    updated_at: datetime | None


class RetentionPolicies(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "category": "credit",
                            "days": 30,
                            "default_days": 90,
                            "min_days": 1,
                            "max_days": 365,
                            "source": "organisation",
                            "reason": "a bureau report serves the decision it was pulled for",
                            "updated_at": "2026-11-28T03:24:53Z",
                        }
                    ],
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

    data: list[RetentionPolicy]
    pagination: Pagination


class RetentionChange(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"policies": {"credit": 30}}]}
    )

    policies: dict[str, int | None] = Field(
        description="Category -> days (null: back to the default).", min_length=1
    )


class PurgeRun(BaseModel):
    id: str
    started_at: datetime
    finished_at: datetime
    purged: dict[str, int] = Field(description="Category -> rows of yours purged by the run.")


class PurgeRunList(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "id": "rtr_06h20bsfxnj8ehxm8qegnmmmfw",
                            "started_at": "2026-11-28T03:00:00Z",
                            "finished_at": "2026-11-28T03:00:01Z",
                            "purged": {"credit": 12, "request_log": 340},
                        }
                    ],
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

    data: list[PurgeRun]
    pagination: Pagination

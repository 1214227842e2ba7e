"""Models of bulk scans."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.envelope import Envelope, Outcome, example
from hakiki.core.pagination import Pagination
from hakiki.fraud import examples
from hakiki.fraud.scan_schemas import RiskAssessment

ScanType = Literal["id", "phone", "face"]
BulkStatus = Literal["pending", "processing", "completed", "failed"]


class BulkScan(BaseModel):
    bulk_id: str
    live: bool
    scan_type: ScanType
    state: BulkStatus = Field(
        description="pending -> processing -> completed | failed (the envelope's status: "
        "PENDING, then COMPLETED or FAILED)."
    )
    file_name: str
    file_format: Literal["csv", "xlsx"]
    total_records: int
    processed_records: int
    success_count: int = Field(description="Rows scanned (charged in live mode).")
    error_count: int = Field(description="Rows that could not be scanned (not charged).")
    price_per_row: int = Field(description="Minor units per scanned row; 0 in sandbox.")
    charged_amount: int
    currency: str
    failure_reason: str | None
    results_file: str = Field(
        description="Where to download every row's result: ?format=csv or ?format=xlsx."
    )
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None


class RowError(BaseModel):
    code: str = Field(
        description="url_refused, fetch_failed, image_too_large, no_face, multiple_faces, "
        "invalid_image, unsupported_image_format, corrupt_image, insufficient_funds, erased (the "
        "row was erased from the file at its data subject's request before it was scanned)"
    )
    message: str


class BulkRowResult(BaseModel):
    row: int = Field(description="The row in the uploaded sheet (the header is row 1).")
    reference: str | None = Field(description="The row's reference column, if it had one.")
    status: Literal["success", "error"]
    input: dict[str, Any] = Field(description="The row's scanned values.")
    risk: RiskAssessment | None
    findings: dict[str, Any] | None = Field(
        description="What the single scan of the same type answers (validity, reports, links)."
    )
    error: RowError | None
    transaction_id: str | None = Field(description="The row's wallet debit (live).")


class BulkScanDetail(BulkScan):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.BULK_SCAN_DETAIL]})

    results: list[BulkRowResult] = Field(description="One page of rows, in sheet order.")
    pagination: Pagination


def bulk_messages(failure: str | None = None) -> dict[Outcome, str]:
    return {
        Outcome.PENDING: "The scan continues in the background: poll GET "
        "/v3/fraud/bulk-scan/{reference}, or wait for the bulk_scan.completed webhook.",
        Outcome.COMPLETED: "The scan is completed: every row has its result; rows that ended "
        "in an error were not charged.",
        Outcome.FAILED: f"The scan failed ({failure}); the rows it did not scan were not charged.",
    }


class BulkScanAccepted(Envelope):
    """The 202 of an upload in the envelope: PENDING, ``reference`` the scan's id."""

    data: BulkScan


class BulkScanResult(Envelope):
    """A bulk scan in the envelope: PENDING while it runs, then COMPLETED or FAILED."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                example(
                    examples.BULK_SCAN_DETAIL,
                    reference=examples.BULK_SCAN_DETAIL["bulk_id"],
                    message=bulk_messages()[Outcome.COMPLETED],
                )
            ]
        }
    )

    data: BulkScanDetail


def bulk_outcome(state: str) -> Outcome:
    """The envelope's status of a scan in ``state``."""
    if state == "completed":
        return Outcome.COMPLETED
    return Outcome.FAILED if state == "failed" else Outcome.PENDING


class BulkScanList(BaseModel):
    data: list[BulkScan]
    pagination: Pagination

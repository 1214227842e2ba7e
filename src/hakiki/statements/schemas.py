"""Models of statement analyses (docs/api.md#statement-analysis)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.envelope import Envelope, Outcome, example
from hakiki.core.envelope import Verdict as Judgement
from hakiki.core.pagination import Pagination
from hakiki.core.privacy.consent import consent_id_field
from hakiki.statements import examples

StatementType = Literal["auto", "mpesa", "airtel_money", "mtn_momo", "bank"]
AnalysisStatus = Literal["pending", "processing", "completed", "failed"]
Verdict = Literal["genuine", "suspicious", "tampered"]


class Holder(BaseModel):
    name: str | None = Field(description="As printed in the statement's header (PDFs).")
    phone: str | None
    period_start: date | None
    period_end: date | None


class Signal(BaseModel):
    code: str = Field(description="One of the signals of docs/api.md#statement-signals.")
    severity: Literal["high", "medium", "info"]
    message: str
    evidence: dict[str, Any]


class StatementTransaction(BaseModel):
    receipt: str
    time: datetime = Field(description="As printed, local time of the issuer.")
    details: str
    status: str
    paid_in: int = Field(description="Minor units.")
    withdrawn: int = Field(description="Minor units.")
    balance: int | None
    category: str
    page: int = Field(description="PDF page, or the sheet's row.")


class StatementAnalysis(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.ANALYSIS]})

    analysis_id: str
    live: bool
    state: AnalysisStatus = Field(
        description="pending -> processing -> completed | failed (the envelope's status: "
        "PENDING, then COMPLETED or FAILED)."
    )
    progress: int = Field(description="Percent done.")
    statement_type: StatementType
    file_format: Literal["pdf", "csv", "xlsx", "xls", "html"] = Field(
        description="pdf, csv, xlsx, xls (legacy binary Excel) or html (an HTML table, as "
        "some banks' '.xls' exports are)."
    )
    duplicate_of: str | None = Field(
        description="An earlier analysis of the same file or the same statement, if any."
    )
    layout: str | None = Field(description="The layout and parser version that read the file.")
    verdict: Verdict | None
    price: int = Field(description="Minor units for the analysis; 0 in sandbox.")
    charged_amount: int
    currency: str
    failure_code: str | None
    failure_reason: str | None
    file_deleted: bool = Field(description="The uploaded file is deleted after the retention.")
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None


class StatementAnalysisAccepted(StatementAnalysis):
    """The 202 of an upload: the analysis, and the signing secret of its ``callback_url``."""

    model_config = ConfigDict(json_schema_extra={"examples": [examples.ACCEPTED]})

    callback_secret: str | None = Field(
        default=None,
        description="With a callback_url: the Standard Webhooks secret (whsec_...) that signs "
        "the statement_analysis.completed event sent there. Shown only in this answer (and its "
        "idempotent replay); stored encrypted.",
    )
    consent_id: str | None = consent_id_field()


class StatementAnalysisList(BaseModel):
    data: list[StatementAnalysis] = Field(description="Newest first, without their results.")
    pagination: Pagination


class StatementAnalysisDetail(StatementAnalysis):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.DETAIL]})

    holder: Holder | None
    summary: dict[str, dict[str, int]] | None = Field(
        description="The statement's own summary table (M-Pesa), by transaction type."
    )
    metrics: dict[str, Any] | None = Field(description="docs/api.md#statement-metrics")
    score: dict[str, Any] | None = Field(description="Cash-flow score 300-850 with its reasons.")
    signals: list[Signal]
    transactions: list[StatementTransaction] = Field(description="Oldest first, paginated.")
    pagination: Pagination


def analysis_messages(failure: str | None = None) -> dict[Outcome, str]:
    return {
        Outcome.PENDING: "The analysis continues in the background: poll GET "
        "/v3/statements/{reference}, or wait for the statement_analysis.completed webhook.",
        Outcome.COMPLETED: "The statement is analysed: its verdict, metrics, score and "
        "signals are in data.",
        Outcome.FAILED: f"The analysis failed ({failure}); nothing was charged.",
    }


class StatementAnalysisStarted(Envelope):
    """The 202 of an upload in the envelope: PENDING, ``reference`` the analysis's id."""

    data: StatementAnalysisAccepted


class StatementAnalysisResult(Envelope):
    """An analysis in the envelope: PENDING while it runs, then COMPLETED (with the verdict)
    or FAILED."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                example(
                    examples.DETAIL,
                    reference=examples.DETAIL["analysis_id"],
                    verdict=Judgement.PASS,
                    message=analysis_messages()[Outcome.COMPLETED],
                )
            ]
        }
    )

    data: StatementAnalysisDetail


# The statement's own verdict in the envelope's one vocabulary (docs/api.md#verdicts).
VERDICTS: dict[str, Judgement] = {
    "genuine": Judgement.PASS,
    "suspicious": Judgement.REVIEW,
    "tampered": Judgement.FAIL,
}


def analysis_outcome(state: str) -> Outcome:
    """The envelope's status of an analysis in ``state``."""
    if state == "completed":
        return Outcome.COMPLETED
    return Outcome.FAILED if state == "failed" else Outcome.PENDING

"""HTTP handlers of statement analysis (/v3/statements)."""

from __future__ import annotations

from fastapi import Depends, File, Form, Query, UploadFile

from hakiki.core.calls import Call
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest, page_params, parse_day
from hakiki.core.routing import EndpointRouter
from hakiki.statements import service
from hakiki.statements.endpoints import ANALYZE, LIST, READ
from hakiki.statements.schemas import (
    AnalysisStatus,
    StatementAnalysisList,
    StatementAnalysisResult,
    StatementAnalysisStarted,
    StatementType,
    Verdict,
)

router = EndpointRouter(tags=["Statements"])


@router.endpoint(ANALYZE, response_model=StatementAnalysisStarted)
async def analyze(
    call: Call,
    file: UploadFile = File(
        description="The statement: a PDF as issued (M-Pesa full statement, Airtel Money), or "
        "a CSV (UTF-8), XLSX, legacy XLS or HTML-table '.xls' export of a bank or mobile-money "
        "statement (columns found by their names; docs/api.md). At most "
        "HAKIKI_STATEMENT_MAX_BYTES (20 MB)."
    ),
    statement_type: StatementType = Form(
        "auto", description="mpesa, airtel_money, mtn_momo, bank or auto.", examples=["mpesa"]
    ),
    password: str | None = Form(
        None,
        max_length=64,
        description="A locked PDF's password (M-Pesa: the customer's ID number). Used once, "
        "never stored past the analysis.",
        examples=["12345678"],
    ),
    declared_name: str | None = Form(
        None,
        max_length=200,
        description="The applicant's name, checked against the header.",
        examples=["Jane Wanjiku Mwangi"],
    ),
    declared_phone: str | None = Form(
        None,
        max_length=20,
        description="The applicant's phone, checked against the header.",
        examples=["0722000111"],
    ),
    monthly_obligations: int = Form(
        0,
        ge=0,
        le=10**13,
        description="Declared monthly obligations in minor units, subtracted in affordability.",
        examples=[1500000],
    ),
    callback_url: str | None = Form(
        None,
        max_length=2000,
        description="Where statement_analysis.completed is also sent, signed with the "
        "callback_secret of the 202 (Standard Webhooks), retried and logged like any webhook "
        "delivery (docs/api.md#webhooks); your webhook endpoints get it too.",
        examples=["https://lender.example/hooks/statements"],
    ),
) -> bytes:
    """multipart/form-data. Checked at once: the format, the password of a locked PDF, a
    scanned (image-only) PDF, a sheet's limits: a 400 naming the field, nothing stored or
    charged. Otherwise 202 in the envelope, PENDING, `reference` the analysis's id and
    `data.state` `pending`; a job reads it (`processing`, with
    `progress`), then `completed` (or `failed`, uncharged) and `statement_analysis.completed`
    is sent. A file or statement analysed before is flagged with `duplicate_of`. Live: the
    price is reserved now (402) and charged once when the analysis completes. Sandbox: the
    same engine, free (test values in docs/sandbox.md)."""
    limit = call.runtime.settings.statement_max_bytes
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise ApiError(
            400,
            "invalid_request",
            f"file: larger than the {limit:,}-byte limit.",
            details=[{"field": "file", "problem": "too large"}],
        )
    form = {
        "statement_type": statement_type,
        "password": password or None,
        "declared_name": declared_name or None,
        "declared_phone": declared_phone or None,
        "monthly_obligations": monthly_obligations,
        "callback_url": callback_url or None,
    }
    return await service.upload(call, data, form)


@router.endpoint(LIST, response_model=StatementAnalysisList)
async def list_analyses(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: AnalysisStatus | None = Query(None),
    verdict: Verdict | None = Query(None),
    created_from: str | None = Query(None, max_length=40, description="ISO 8601, inclusive."),
    created_to: str | None = Query(None, max_length=40, description="ISO 8601, exclusive."),
) -> StatementAnalysisList:
    """Your organisation's analyses of this environment, newest first, paginated, each with
    its status, layout and verdict but not its result (GET /v3/statements/{analysis_id} has
    it); filters `status`, `verdict`, `created_from`, `created_to` (ISO 8601). Free. Sandbox:
    the analyses uploaded with sandbox keys."""
    filters = {
        "status": status,
        "verdict": verdict,
        "created_from": parse_day(created_from, "created_from"),
        "created_to": parse_day(created_to, "created_to"),
    }
    return await service.list_analyses(call.runtime, call.principal.owner, page, filters)


@router.endpoint(READ, response_model=StatementAnalysisResult)
async def get_analysis(
    analysis_id: str,
    call: Call,
    page: PageRequest = Depends(page_params),
) -> StatementAnalysisResult:
    """The analysis in the envelope (PENDING while it runs, then COMPLETED with `verdict`
    PASS, REVIEW or FAIL from `data.verdict` genuine, suspicious or tampered, or FAILED); in
    `data`, its state and progress; once completed, the holder, the statement's summary, metrics,
    cash-flow score, signals with their evidence and verdict, and a page of the transactions
    (oldest first). Another organisation's analysis, or one of the other environment, is 404.
    Free. Sandbox: the analyses uploaded with sandbox keys."""
    return await service.get_analysis(call, analysis_id, page)

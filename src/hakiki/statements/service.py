"""Statement analyses: the upload (checked before anything is stored or reserved), the
result, the credit decision's view of it, and the deletion of files past their retention.
The analysis itself is the job in ``tasks``."""

from __future__ import annotations

import asyncio
import hashlib
import zlib
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.core.envelope import Outcome, enveloped, rendered
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.engines.statements import Refused
from hakiki.engines.statements.tabular import Limits
from hakiki.statements import confined, repository
from hakiki.statements.schemas import (
    VERDICTS,
    Holder,
    Signal,
    StatementAnalysis,
    StatementAnalysisAccepted,
    StatementAnalysisDetail,
    StatementAnalysisList,
    StatementAnalysisResult,
    StatementAnalysisStarted,
    StatementTransaction,
    analysis_messages,
    analysis_outcome,
)
from hakiki.webhooks.service import add_callback
from hakiki.webhooks.signing import new_secret
from hakiki.webhooks.urls import UrlRefused, check_url

COMPLETED_EVENT = "statement_analysis.completed"

ANALYSE_TASK = "statements.analyse"
PRICE_KEY = "statements.analysis"


def limits(runtime: Runtime) -> Limits:
    return Limits(max_rows=runtime.settings.statement_max_rows)


def refused_error(refused: Refused) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        refused.message,
        details=[{"field": refused.field, "problem": refused.code}],
    )


def seal_result(vault: Vault, result: dict[str, Any]) -> bytes:
    return vault.seal(zlib.compress(orjson.dumps(result), 6))


def open_result(vault: Vault, sealed: bytes) -> dict[str, Any]:
    result: dict[str, Any] = orjson.loads(zlib.decompress(vault.unseal(sealed)))
    return result


def analysis_model(row: dict[str, Any]) -> StatementAnalysis:
    return StatementAnalysis(
        analysis_id=row["id"],
        live=row["environment"] == "live",
        state=row["status"],
        progress=row["progress"],
        statement_type=row["statement_type"],
        file_format=row["file_format"],
        duplicate_of=row["duplicate_of"],
        layout=row["layout"],
        verdict=row["verdict"],
        price=row["price"],
        charged_amount=row["charged_amount"],
        currency=row["currency"],
        failure_code=row["failure_code"],
        failure_reason=row["failure_reason"],
        file_deleted=row["file_deleted_at"] is not None,
        created_at=row["created_at"],
        started_at=row["started_at"],
        completed_at=row["completed_at"],
    )


async def _check_callback(call: Call, url: str | None) -> None:
    if url is None:
        return
    try:
        await check_url(
            url,
            live=call.principal.live,
            allow_private=call.runtime.settings.webhooks_allow_private,
        )
    except UrlRefused as refused:
        raise ApiError(
            400,
            "invalid_request",
            f"callback_url: {refused}.",
            details=[{"field": "callback_url", "problem": str(refused)}],
        ) from None


async def upload(call: Call, data: bytes, form: dict[str, Any]) -> bytes:
    runtime, principal = call.runtime, call.principal
    await _check_callback(call, form.get("callback_url"))
    statement_type = form["statement_type"]
    try:  # opening a PDF or reading a sheet: in a child process, under limits
        file_format = await confined.check(
            runtime.settings, data, statement_type, form.get("password"), limits(runtime)
        )
    except Refused as refused:
        raise refused_error(refused) from None
    vault = runtime.vault
    file_hash = vault.lookup_hash("statement-file", hashlib.sha256(data).hexdigest())
    price = runtime.price(PRICE_KEY) if principal.live else 0
    now = utcnow()
    request = {
        key: form.get(key)
        for key in ("password", "declared_name", "declared_phone", "monthly_obligations")
    }
    record: dict[str, Any] = {
        "id": new_id("sta"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "api_key_id": principal.key_id,
        "request_id": call.request_id,
        "status": "pending",
        "progress": 0,
        "statement_type": statement_type,
        "file_format": file_format,
        "file_size": len(data),
        "file_hash": file_hash,
        "statement_hash": None,
        "duplicate_of": None,
        "file_sealed": await asyncio.to_thread(vault.seal, data),
        "request_encrypted": vault.encrypt(orjson.dumps(request).decode()),
        "callback_url": form.get("callback_url"),
        "layout": None,
        "verdict": None,
        "transaction_count": None,
        "result_sealed": None,
        "price": price,
        "charged_amount": 0,
        "currency": principal.currency,
        "hold_id": None,
        "transaction_id": None,
        "failure_code": None,
        "failure_reason": None,
        "created_at": now,
        "started_at": None,
        "completed_at": None,
        "file_deleted_at": None,
        "updated_at": now,
    }

    callback_url = form.get("callback_url")
    callback_secret = new_secret() if callback_url else None

    async def write(conn: AsyncConnection) -> None:
        record["duplicate_of"] = await repository.earlier_with(
            conn, principal.org_id, principal.environment, "file_hash", file_hash, record["id"]
        )
        if price > 0:  # 402 now; charged once the analysis completes, released if it fails
            hold = await billing.reserve(
                conn,
                principal,
                price,
                call.request_id,
                int(runtime.settings.statement_hold_hours * 3600),
            )
            record["hold_id"] = hold.id
        await repository.insert_analysis(conn, record)
        if callback_url and callback_secret:
            await add_callback(
                conn,
                vault,
                org_id=principal.org_id,
                environment=principal.environment,
                url=callback_url,
                secret=callback_secret,
                resource_id=record["id"],
                event_types=[COMPLETED_EVENT],
            )
        await enqueue(conn, ANALYSE_TASK, {"analysis_id": record["id"]})

    def render(charge: Charge | None) -> bytes:
        accepted = StatementAnalysisAccepted(
            **analysis_model(record).model_dump(), callback_secret=callback_secret
        )
        return rendered(
            StatementAnalysisStarted,
            call,
            charge,
            reference=record["id"],
            data=accepted,
            outcome=Outcome.PENDING,
            message=analysis_messages()[Outcome.PENDING],
        )

    return await finish_call(
        call,
        billable=False,  # the job charges the completed analysis
        response_code=None,
        subject=None,
        render=render,
        description="Statement analysis upload",
        status_code=202,
        write=write,
    )


def _not_found(analysis_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No statement analysis {analysis_id} in this environment.")


async def analysis_detail(
    runtime: Runtime, owner: tuple[str, str], analysis_id: str, page: PageRequest
) -> StatementAnalysisDetail:
    """The analysis with its result and a page of its transactions."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        row = await repository.get_owned(conn, org_id, environment, analysis_id)
    if row is None:
        raise _not_found(analysis_id)
    result: dict[str, Any] = {}
    if row["result_sealed"] is not None:
        result = await asyncio.to_thread(open_result, runtime.vault, row["result_sealed"])
    transactions = result.get("transactions", [])
    shown = transactions[page.offset : page.offset + page.page_size]
    holder = result.get("holder")
    return StatementAnalysisDetail(
        **analysis_model(row).model_dump(),
        holder=Holder.model_validate(holder) if holder else None,
        summary=result.get("summary"),
        metrics=result.get("metrics"),
        score=result.get("score"),
        signals=[Signal.model_validate(s) for s in result.get("signals", [])],
        transactions=[StatementTransaction.model_validate(t) for t in shown],
        pagination=page.describe(len(transactions)),
    )


async def get_analysis(call: Call, analysis_id: str, page: PageRequest) -> StatementAnalysisResult:
    """The analysis in the envelope: PENDING while it runs, then COMPLETED or FAILED."""
    detail = await analysis_detail(call.runtime, call.principal.owner, analysis_id, page)
    outcome = analysis_outcome(detail.state)
    return enveloped(
        StatementAnalysisResult,
        call,
        None,
        reference=analysis_id,
        data=detail,
        outcome=outcome,
        verdict=VERDICTS.get(detail.verdict or ""),
        message=analysis_messages(detail.failure_reason)[outcome],
    )


async def list_analyses(
    runtime: Runtime, owner: tuple[str, str], page: PageRequest, filters: dict[str, Any]
) -> StatementAnalysisList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_owned(conn, org_id, environment, filters)
        rows = await repository.list_owned(
            conn, org_id, environment, filters, offset=page.offset, limit=page.page_size
        )
    return StatementAnalysisList(
        data=[analysis_model(row) for row in rows], pagination=page.describe(total)
    )


async def metrics_for(
    runtime: Runtime, org_id: str, environment: str, analysis_id: str
) -> dict[str, Any] | None:
    """For the credit decision: a completed analysis of this organisation's (in this
    environment) as ``{"analysis_id", "verdict", "metrics", "score", "signals"}``; None when
    there is no such analysis or it has not completed."""
    return await metrics_in(runtime.db, runtime.vault, org_id, environment, analysis_id)


async def metrics_in(
    db: Database, vault: Vault, org_id: str, environment: str, analysis_id: str
) -> dict[str, Any] | None:
    """``metrics_for`` with the database and vault alone (the command line has no runtime)."""
    async with read(db) as conn:
        row = await repository.get_owned(conn, org_id, environment, analysis_id)
    if row is None or row["status"] != "completed" or row["result_sealed"] is None:
        return None
    result = await asyncio.to_thread(open_result, vault, row["result_sealed"])
    return {
        "analysis_id": analysis_id,
        "verdict": row["verdict"],
        "metrics": result["metrics"],
        "score": result["score"],
        "signals": result["signals"],
    }


async def status_of(
    runtime: Runtime, org_id: str, environment: str, analysis_id: str
) -> str | None:
    """The status of an analysis of this organisation's (in this environment), None when there
    is none: tells a caller of ``metrics_for`` an unknown id from one not completed yet."""
    async with read(runtime.db) as conn:
        row = await repository.get_owned(conn, org_id, environment, analysis_id)
    return None if row is None else str(row["status"])


async def completed_metrics(
    runtime: Runtime, org_id: str, environment: str, analysis_id: str, field: str
) -> dict[str, Any]:
    """``metrics_for`` for a request naming the analysis in ``field``: 404 when this
    organisation has no such analysis in this environment, 409 ``conflict`` while it is pending
    or running, or when it failed (before the caller charges anything)."""
    found = await metrics_for(runtime, org_id, environment, analysis_id)
    if found is not None:
        return found
    status = await status_of(runtime, org_id, environment, analysis_id)
    if status is None:
        raise ApiError(
            404,
            "not_found",
            f"No statement analysis {analysis_id} in this environment.",
            details=[{"field": field, "problem": "unknown analysis"}],
        )
    state = (
        "failed: upload the statement again"
        if status == "failed"
        else f"is {status}, not completed yet: retry once GET /v3/statements/{analysis_id} says so"
    )
    raise ApiError(
        409,
        "conflict",
        f"Statement analysis {analysis_id} {state}. Nothing was charged.",
        details=[{"field": field, "problem": f"analysis {status}"}],
    )


async def purge_files(db: Database, retention_days: float) -> int:
    """Delete the uploaded files of ended analyses older than the retention (housekeeping)."""
    now = utcnow()
    async with read(db) as conn:
        due = await repository.files_to_delete(conn, now - timedelta(days=retention_days))
    for analysis_id in due:
        async with transaction(db) as conn:
            await repository.delete_file(conn, analysis_id, now)
    return len(due)

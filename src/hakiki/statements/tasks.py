"""The analysis job: the stored file read by the engine (off the event loop, its progress
written as pages are read), then one transaction that ends the analysis once, charges it
once (live; its unit reference is the analysis), releases the reservation and sends
``statement_analysis.completed``. A worker killed midway leaves the analysis processing; the
next attempt reads the file again and ends it: nothing is recorded or charged twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.billing import Charge
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.core.runtime import Runtime
from hakiki.engines.statements import Analysis, Declared, Refused
from hakiki.engines.statements.categories import categorise
from hakiki.statements import confined, repository
from hakiki.statements.service import ANALYSE_TASK, PRICE_KEY, limits, seal_result
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.statements")
PROGRESS_SECONDS = 0.5


async def _give_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    await _fail(
        conn, runtime, str(payload["analysis_id"]), "stopped", f"the analysis stopped: {error}"
    )


@task(ANALYSE_TASK, max_attempts=4, backoff=(5, 30, 120), on_give_up=_give_up)
async def run_analysis(context: JobContext, payload: dict[str, Any]) -> None:
    await analyse_stored(context.runtime, str(payload["analysis_id"]))


def _declared(request: dict[str, Any]) -> Declared:
    return Declared(
        name=request.get("declared_name"),
        phone=request.get("declared_phone"),
        monthly_obligations=int(request.get("monthly_obligations") or 0),
    )


async def analyse_stored(runtime: Runtime, analysis_id: str) -> None:
    async with read(runtime.db) as conn:
        row = await repository.get(conn, analysis_id)
    if row is None:
        raise PermanentError(f"no statement analysis {analysis_id}")
    if row["status"] in repository.FINAL_STATES:
        return
    async with transaction(runtime.db) as conn:
        await repository.start(conn, analysis_id, utcnow())
    if row["file_sealed"] is None:
        async with transaction(runtime.db) as conn:
            await _fail(conn, runtime, analysis_id, "file_deleted", "the file was deleted.")
        return
    vault = runtime.vault
    data = vault.unseal(row["file_sealed"])
    request: dict[str, Any] = orjson.loads(vault.decrypt(row["request_encrypted"]))
    done = {"pages": 0, "total": 1}

    def progress(pages: int, total: int) -> None:
        done["pages"], done["total"] = pages, total

    work = asyncio.ensure_future(
        confined.analysis(
            runtime.settings,
            data,
            statement_type=row["statement_type"],
            password=request.get("password"),
            declared=_declared(request),
            limits=limits(runtime),
            progress=progress,
        )
    )
    reporter = asyncio.ensure_future(_report(runtime, analysis_id, done))
    try:
        analysis = await work
    except Refused as refused:
        async with transaction(runtime.db) as conn:
            await _fail(conn, runtime, analysis_id, refused.code, refused.message)
        return
    finally:
        reporter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reporter
    request.pop("password", None)  # read once; never kept past the analysis
    async with transaction(runtime.db) as conn:
        await _complete(conn, runtime, row, analysis, request)


async def _report(runtime: Runtime, analysis_id: str, done: dict[str, int]) -> None:
    while True:
        await asyncio.sleep(PROGRESS_SECONDS)
        percent = 5 + int(85 * done["pages"] / max(done["total"], 1))
        async with transaction(runtime.db) as conn:
            await repository.set_progress(conn, analysis_id, percent, utcnow())


def _result(analysis: Analysis, duplicate: dict[str, Any] | None) -> dict[str, Any]:
    statement = analysis.statement
    header = statement.header
    signals = [s.as_dict() for s in analysis.signals]
    if duplicate:
        signals.append(
            {
                "code": "duplicate_upload",
                "severity": "info",
                "message": "The same file or statement was analysed before.",
                "evidence": duplicate,
            }
        )
    return {
        "holder": {
            "name": header.name,
            "phone": header.phone,
            "period_start": header.period_start.isoformat() if header.period_start else None,
            "period_end": header.period_end.isoformat() if header.period_end else None,
        },
        "summary": {
            kind: {"paid_in": paid_in, "paid_out": paid_out}
            for kind, (paid_in, paid_out) in statement.summary.items()
        }
        or None,
        "metrics": analysis.metrics,
        "score": analysis.score,
        "signals": signals,
        "transactions": [
            {
                "receipt": t.receipt,
                "time": t.time.isoformat(),
                "details": t.details,
                "status": t.status,
                "paid_in": t.paid_in,
                "withdrawn": t.withdrawn,
                "balance": t.balance,
                "category": categorise(t.details, t.paid_in > 0),
                "page": t.page,
            }
            for t in statement.transactions
        ],
    }


async def _complete(
    conn: AsyncConnection,
    runtime: Runtime,
    row: dict[str, Any],
    analysis: Analysis,
    request: dict[str, Any],
) -> None:
    vault = runtime.vault
    analysis_id = row["id"]
    statement_hash = vault.lookup_hash("statement", analysis.statement_key)
    duplicate = None
    if row["duplicate_of"]:
        duplicate = {"analysis_id": row["duplicate_of"], "same": "file"}
    else:
        earlier = await repository.earlier_with(
            conn, row["org_id"], row["environment"], "statement_hash", statement_hash, analysis_id
        )
        if earlier:
            duplicate = {"analysis_id": earlier, "same": "statement"}
    now = utcnow()
    ended = await repository.finish(
        conn,
        analysis_id,
        {
            "status": "completed",
            "progress": 100,
            "statement_hash": statement_hash,
            "duplicate_of": duplicate["analysis_id"] if duplicate else None,
            "layout": analysis.statement.layout,
            "verdict": analysis.verdict,
            "transaction_count": len(analysis.statement.transactions),
            "result_sealed": seal_result(vault, _result(analysis, duplicate)),
            "request_encrypted": vault.encrypt(orjson.dumps(request).decode()),
            "completed_at": now,
            "updated_at": now,
        },
    )
    if not ended:  # another attempt ended it first
        return
    charge = await _charge(conn, row)
    if charge is not None:
        await repository.finish_charge(conn, analysis_id, charge.amount, charge.transaction_id)
    await billing.close(conn, row["hold_id"], row["org_id"])
    await _emit(conn, row, "completed", analysis.verdict)


async def _charge(conn: AsyncConnection, row: dict[str, Any]) -> Charge | None:
    price = int(row["price"])
    if price <= 0 or row["environment"] != "live":
        return None
    [outcome] = await billing.charge_units(
        conn,
        org_id=row["org_id"],
        currency=row["currency"],
        hold_id=row["hold_id"],
        price_key=PRICE_KEY,
        price=price,
        units=[billing.Unit(f"{row['id']}:analysis", f"Statement analysis {row['id']}")],
        finished=1,
    )
    return outcome if isinstance(outcome, Charge) else None


async def _emit(
    conn: AsyncConnection, row: dict[str, Any], status: str, verdict: str | None
) -> None:
    await emit(
        conn,
        org_id=row["org_id"],
        environment=row["environment"],
        event_type="statement_analysis.completed",
        resource_id=row["id"],
        data={"analysis_id": row["id"], "status": status, "verdict": verdict},
    )


async def _fail(
    conn: AsyncConnection, runtime: Runtime, analysis_id: str, code: str, reason: str
) -> None:
    """End the analysis failed, uncharged, its reservation released, once."""
    row = await repository.get(conn, analysis_id)
    now = utcnow()
    values = {
        "status": "failed",
        "failure_code": code,
        "failure_reason": reason,
        "completed_at": now,
        "updated_at": now,
    }
    if row is not None:  # the password is never kept past the analysis
        request = orjson.loads(runtime.vault.decrypt(row["request_encrypted"]))
        request.pop("password", None)
        values["request_encrypted"] = runtime.vault.encrypt(orjson.dumps(request).decode())
    if row is None or not await repository.finish(conn, analysis_id, values):
        return
    await billing.close(conn, row["hold_id"], row["org_id"])
    await _emit(conn, row, "failed", None)
    logger.warning("statement analysis %s failed: %s", analysis_id, code)

"""Bulk scans: the upload (checked whole before anything is stored), status with results, the
listing. The scanning itself is the job in ``runner``."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import Outcome, enveloped, rendered
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.fraud.bulk import repository
from hakiki.fraud.bulk.columns import validate_rows
from hakiki.fraud.bulk.files import SheetError, read_sheet
from hakiki.fraud.bulk.runner import BULK_TASK, encode_rows, price_key
from hakiki.fraud.bulk.schemas import (
    BulkRowResult,
    BulkScan,
    BulkScanAccepted,
    BulkScanDetail,
    BulkScanList,
    BulkScanResult,
    RowError,
    bulk_messages,
    bulk_outcome,
)
from hakiki.fraud.scan_schemas import RiskAssessment

ECHOED = ("row", "reference", "input", "risk", "error")
# Uploads are read and checked off the event loop, two at a time at most, in threads of their
# own: a slow file waits for a reader, it does not hold the default pool the rest of the app
# uses, and each read is bounded by HAKIKI_BULK_PARSE_SECONDS.
_READERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bulk-upload")


def sheet_error(error: SheetError) -> ApiError:
    problems = error.problems
    more = f" ({len(problems)} problems; details lists them)" if len(problems) > 1 else ""
    return ApiError(
        400,
        "invalid_request",
        f"file: {problems[0].text()}{more}",
        details=[problem.detail() for problem in problems],
    )


def _checked_rows(
    data: bytes, scan_type: str, defaults: dict[str, str], max_rows: int, seconds: float
) -> tuple[str, list[dict[str, Any]]]:
    sheet = read_sheet(data, max_rows=max_rows, seconds=seconds)
    return sheet.file_format, validate_rows(sheet, scan_type, defaults)


def _file_name(name: str) -> str:
    """The upload's name as stored: no control characters (PostgreSQL refuses NUL) and no
    unpaired surrogates, at most 255 characters."""
    kept = "".join(
        "_" if ord(char) < 32 or ord(char) == 127 or 0xD800 <= ord(char) <= 0xDFFF else char
        for char in name[:255]
    )
    return kept.strip() or "upload"


def bulk_model(row: dict[str, Any]) -> BulkScan:
    return BulkScan(
        bulk_id=row["id"],
        live=row["environment"] == "live",
        scan_type=row["scan_type"],
        state=row["status"],
        file_name=row["file_name"],
        file_format=row["file_format"],
        total_records=row["total_records"],
        processed_records=row["processed_records"],
        success_count=row["success_count"],
        error_count=row["error_count"],
        price_per_row=row["price"],
        charged_amount=row["charged_amount"],
        currency=row["currency"],
        failure_reason=row["failure_reason"],
        results_file=f"/v3/fraud/bulk-scan/{row['id']}?format=csv",
        created_at=row["created_at"],
        started_at=row["started_at"],
        completed_at=row["completed_at"],
    )


async def upload(
    call: Call, data: bytes, file_name: str, scan_type: str, defaults: dict[str, str]
) -> bytes:
    runtime, principal = call.runtime, call.principal
    settings = runtime.settings
    check = partial(
        _checked_rows,
        data,
        scan_type,
        defaults,
        settings.bulk_max_rows,
        settings.bulk_parse_seconds,
    )
    try:  # reading 100,000 rows takes seconds: not on the event loop
        file_format, rows = await asyncio.get_running_loop().run_in_executor(_READERS, check)
    except SheetError as error:
        raise sheet_error(error) from error
    price = runtime.price(price_key(scan_type)) if principal.live else 0
    now = utcnow()
    record: dict[str, Any] = {
        "id": new_id("bsc"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "api_key_id": principal.key_id,
        "request_id": call.request_id,
        "scan_type": scan_type,
        "status": "pending",
        "file_name": _file_name(file_name),
        "file_format": file_format,
        "total_records": len(rows),
        "processed_records": 0,
        "success_count": 0,
        "error_count": 0,
        "price": price,
        "charged_amount": 0,
        "currency": principal.currency,
        "hold_id": None,
        "input_encrypted": await asyncio.to_thread(encode_rows, runtime.vault, rows),
        "failure_reason": None,
        "created_at": now,
        "started_at": None,
        "completed_at": None,
        "updated_at": now,
    }

    async def write(conn: AsyncConnection) -> None:
        if price > 0:  # the whole file's price is reserved: 402 now, not halfway through
            hold = await billing.reserve(
                conn,
                principal,
                price * len(rows),
                call.request_id,
                int(runtime.settings.bulk_hold_hours * 3600),
            )
            record["hold_id"] = hold.id
        await repository.insert_scan(conn, record)
        await enqueue(conn, BULK_TASK, {"bulk_id": record["id"]})

    def render(charge: Charge | None) -> bytes:
        return rendered(
            BulkScanAccepted,
            call,
            charge,
            reference=record["id"],
            data=bulk_model(record),
            outcome=Outcome.PENDING,
            message=bulk_messages()[Outcome.PENDING],
        )

    return await finish_call(
        call,
        billable=False,  # each scanned row is charged by the job
        response_code=None,
        subject=None,
        render=render,
        description=f"Bulk {scan_type} scan upload",
        status_code=202,
        write=write,
    )


def _not_found(bulk_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No bulk scan {bulk_id} in this environment.")


def row_result(runtime: Runtime, row: dict[str, Any]) -> BulkRowResult:
    body: dict[str, Any] = orjson.loads(runtime.vault.decrypt(row["body_encrypted"]))
    findings = {k: v for k, v in body.items() if k not in ECHOED}
    error = None
    if row["error_code"]:
        error = RowError(code=row["error_code"], message=body.get("error", row["error_code"]))
    risk = body.get("risk")
    return BulkRowResult(
        row=row["row_number"],
        reference=body.get("reference"),
        status=row["status"],
        input=body.get("input", {}),
        risk=RiskAssessment.model_validate(risk) if risk and not error else None,
        findings=findings if not error else None,
        error=error,
        transaction_id=row["transaction_id"],
    )


async def scan_detail(
    runtime: Runtime,
    owner: tuple[str, str],
    bulk_id: str,
    page: PageRequest,
    status: str | None,
) -> BulkScanDetail:
    """The scan with a page of its rows (``status``: only rows of that status)."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        found = await repository.get_owned(conn, org_id, environment, bulk_id)
        if found is None:
            raise _not_found(bulk_id)
        total = await repository.count_results(conn, bulk_id, status)
        rows = await repository.page_results(
            conn, bulk_id, status, offset=page.offset, limit=page.page_size
        )
    return BulkScanDetail(
        **bulk_model(found).model_dump(),
        results=[row_result(runtime, row) for row in rows],
        pagination=page.describe(total),
    )


async def get_scan(
    call: Call, bulk_id: str, page: PageRequest, status: str | None
) -> BulkScanResult:
    """The scan in the envelope: PENDING while it runs, then COMPLETED or FAILED."""
    detail = await scan_detail(call.runtime, call.principal.owner, bulk_id, page, status)
    outcome = bulk_outcome(detail.state)
    return enveloped(
        BulkScanResult,
        call,
        None,
        reference=bulk_id,
        data=detail,
        outcome=outcome,
        verdict=None,
        message=bulk_messages(detail.failure_reason)[outcome],
    )


async def risk_levels(runtime: Runtime, owner: tuple[str, str], bulk_id: str) -> dict[str, int]:
    """The scan's rows counted by risk level (LOW ... CRITICAL, and error), for the console's
    page of one scan; 404 for another organisation's or environment's scan."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        if await repository.get_owned(conn, org_id, environment, bulk_id) is None:
            raise _not_found(bulk_id)
        return await repository.counts_by_level(conn, bulk_id)


async def find_owned(runtime: Runtime, owner: tuple[str, str], bulk_id: str) -> dict[str, Any]:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        found = await repository.get_owned(conn, org_id, environment, bulk_id)
    if found is None:
        raise _not_found(bulk_id)
    return found


async def list_scans(
    runtime: Runtime,
    owner: tuple[str, str],
    page: PageRequest,
    filters: dict[str, str | None],
) -> BulkScanList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_owned(conn, org_id, environment, filters)
        rows = await repository.list_owned(
            conn, org_id, environment, filters, offset=page.offset, limit=page.page_size
        )
    return BulkScanList(data=[bulk_model(row) for row in rows], pagination=page.describe(total))

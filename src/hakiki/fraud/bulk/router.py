"""HTTP handlers of bulk scans (/v3/fraud/bulk-scan)."""

from __future__ import annotations

from typing import Literal

from fastapi import Depends, File, Form, Query, UploadFile
from fastapi.responses import Response, StreamingResponse

from hakiki.core.calls import Call
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.fraud.bulk import export, service
from hakiki.fraud.bulk.schemas import (
    BulkScanAccepted,
    BulkScanList,
    BulkScanResult,
    BulkStatus,
    ScanType,
)
from hakiki.fraud.endpoints import BULK_LIST, BULK_READ, BULK_UPLOAD

router = EndpointRouter(tags=["Fraud"])


@router.endpoint(BULK_UPLOAD, response_model=BulkScanAccepted)
async def upload(
    call: Call,
    file: UploadFile = File(
        description="A file part: CSV (UTF-8, comma or semicolon; text/csv) or XLSX (its first "
        "sheet). The first row is the header, naming the columns of `scan_type` (docs/api.md), "
        "e.g. for id: `reference,number,channel` then `loan-0,22222222200,bvn`."
    ),
    scan_type: ScanType = Form(description="id, phone or face.", examples=["id"]),
    channel: str | None = Form(
        None,
        max_length=20,
        description="id: the channel of every row without a channel column.",
        examples=["bvn"],
    ),
    country_code: str | None = Form(
        None,
        pattern=r"^[A-Za-z]{2}$",
        description="id/phone: the country (KE, NG, TZ or UG) of every row without one.",
        examples=["NG"],
    ),
) -> bytes:
    """multipart/form-data. The whole file is checked first: a bad header, a bad value or a file
    over the limits is a 400 whose `details` give each problem's row (the header is row 1) and
    column; nothing is stored or reserved then. Otherwise 202 in the envelope, PENDING,
    `reference` the scan's id and `data.state` `pending`; a job scans it (`processing`), then
    `completed` (COMPLETED; or `failed`, FAILED) and `bulk_scan.completed` is sent to your
    webhooks. Live: the whole file's price is reserved at once (402 if the wallet cannot cover
    it); each scanned row is then one wallet debit, rows that end in an error are not charged
    and their reservation is released. Sandbox: the same checks and job, the single scans'
    sandbox rules per row, nothing reserved or charged. Columns per type in docs/api.md."""
    limit = call.runtime.settings.bulk_max_bytes
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise ApiError(
            400,
            "invalid_request",
            f"file: larger than the {limit:,}-byte limit; split it.",
            details=[{"field": "file", "problem": "too large"}],
        )
    defaults = {k: v for k, v in {"channel": channel, "country_code": country_code}.items() if v}
    return await service.upload(call, data, file.filename or "upload", scan_type, defaults)


@router.endpoint(BULK_LIST, response_model=BulkScanList)
async def list_scans(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: BulkStatus | None = Query(None),
    scan_type: ScanType | None = Query(None),
) -> BulkScanList:
    """Your organisation's bulk scans of this environment, newest first, paginated, each with
    its status and progress but not its rows (GET /v3/fraud/bulk-scan/{bulk_id} pages
    through them); filters `status` and `scan_type`. Free. Sandbox: the scans uploaded with
    sandbox keys."""
    filters: dict[str, str | None] = {"status": status, "scan_type": scan_type}
    return await service.list_scans(call.runtime, call.principal.owner, page, filters)


@router.endpoint(BULK_READ, response_model=BulkScanResult)
async def get_scan(
    bulk_id: str,
    call: Call,
    page: PageRequest = Depends(page_params),
    row_status: Literal["success", "error"] | None = Query(
        None, description="Only the rows scanned (success) or not (error)."
    ),
    format: Literal["json", "csv", "xlsx"] = Query(
        "json", description="csv or xlsx: the results file, every row, to download."
    ),
) -> Response | BulkScanResult:
    """The scan in the envelope (PENDING while it runs, then COMPLETED or FAILED); in `data`,
    progress (`processed_records` of `total_records`, `success_count`, `error_count`) and a
    page of row results with their errors. `?format=csv` (or `xlsx`) downloads every row's
    result as a file: what has been scanned so far while the scan runs. Another
    organisation's scan, or one of the other environment, is 404. Free. Sandbox: the scans
    uploaded with sandbox keys."""
    runtime, owner = call.runtime, call.principal.owner
    if format == "json":
        return await service.get_scan(call, bulk_id, page, row_status)
    scan = await service.find_owned(runtime, owner, bulk_id)
    disposition = {"Content-Disposition": f'attachment; filename="{bulk_id}-results.{format}"'}
    if format == "csv":
        return StreamingResponse(
            export.csv_stream(runtime, scan), media_type="text/csv", headers=disposition
        )
    return Response(
        await export.xlsx_bytes(runtime, scan),
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers=disposition,
    )

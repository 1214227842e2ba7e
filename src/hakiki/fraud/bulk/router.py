"""HTTP handlers of bulk scans (/v3/fraud/bulk-scan)."""

from __future__ import annotations

import hashlib
from typing import Literal

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi.responses import Response, StreamingResponse

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response, runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.core.pagination import PageRequest, page_params
from hakiki.fraud.bulk import export, service
from hakiki.fraud.bulk.schemas import BulkScan, BulkScanDetail, BulkScanList, BulkStatus, ScanType

router = APIRouter(prefix="/v3/fraud/bulk-scan", tags=["Fraud"])


@router.post(
    "/upload",
    status_code=202,
    response_model=BulkScan,
    summary="Start a bulk fraud scan of a CSV or XLSX file",
    responses=error_responses(*AUTHENTICATED, 400, 402, 409),
)
async def upload(
    request: Request,
    file: UploadFile = File(description="CSV (UTF-8, comma or semicolon) or XLSX, first sheet."),
    scan_type: ScanType = Form(description="id, phone or face."),
    channel: str | None = Form(None, max_length=20, description="id: channel for every row."),
    country_code: str | None = Form(
        None, pattern=r"^[A-Za-z]{2}$", description="id/phone: country for every row."
    ),
    principal: Principal = Depends(require_scope("fraud:read")),
) -> Response:
    """multipart/form-data. The whole file is checked first: a bad header, a bad value or a
    file over the limits is a 400 whose `details` give each problem's row (the header is row 1)
    and column; nothing is stored or reserved then. Otherwise 202 with the scan `pending`; a
    job scans it (`processing`), then `completed` (or `failed`) and `bulk_scan.completed` is
    sent to your webhooks. Live: the whole file's price is reserved at once (402 if the wallet
    cannot cover it); each scanned row is then one wallet debit, rows that end in an error are
    not charged and their reservation is released. Columns per type in docs/api.md."""
    runtime = runtime_of(request)
    limit = runtime.settings.bulk_max_bytes
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise ApiError(
            400,
            "invalid_request",
            f"file: larger than the {limit:,}-byte limit; split it.",
            details=[{"field": "file", "problem": "too large"}],
        )
    defaults = {k: v for k, v in {"channel": channel, "country_code": country_code}.items() if v}
    payload = {
        "file_sha256": hashlib.sha256(data).hexdigest(),
        "scan_type": scan_type,
        **defaults,
    }
    call = await begin_call(request, principal, service.ENDPOINT, payload)
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        name = file.filename or "upload"
        content = await service.upload(call, data, name, scan_type, defaults)
    return Response(content, status_code=202, media_type="application/json")


@router.get(
    "",
    response_model=BulkScanList,
    summary="Your bulk scans, newest first",
    responses=error_responses(*AUTHENTICATED, 400),
)
async def list_scans(
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
    page: PageRequest = Depends(page_params),
    status: BulkStatus | None = Query(None),
    scan_type: ScanType | None = Query(None),
) -> BulkScanList:
    filters: dict[str, str | None] = {"status": status, "scan_type": scan_type}
    return await service.list_scans(runtime_of(request), principal.owner, page, filters)


@router.get(
    "/{bulk_id}",
    response_model=BulkScanDetail,
    summary="Status, progress and results of a bulk scan",
    responses=error_responses(*AUTHENTICATED, 400, 404),
)
async def get_scan(
    bulk_id: str,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
    page: PageRequest = Depends(page_params),
    row_status: Literal["success", "error"] | None = Query(
        None, description="Only the rows scanned (success) or not (error)."
    ),
    format: Literal["json", "csv", "xlsx"] = Query(
        "json", description="csv or xlsx: the results file, every row, to download."
    ),
) -> Response | BulkScanDetail:
    """Progress (`processed_records` of `total_records`, `success_count`, `error_count`) and a
    page of row results with their errors. `?format=csv` (or `xlsx`) downloads every row's
    result as a file: what has been scanned so far while the scan runs."""
    runtime = runtime_of(request)
    if format == "json":
        return await service.get_scan(runtime, principal.owner, bulk_id, page, row_status)
    scan = await service.find_owned(runtime, principal.owner, bulk_id)
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

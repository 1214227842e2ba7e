"""HTTP handlers of the shared fraud database (/v3/fraud/reports)."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from hakiki.core.auth import Principal, require_scope
from hakiki.core.calls import begin_call, guarded, replay_response, runtime_of
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, error_responses
from hakiki.core.pagination import PageRequest, page_params
from hakiki.fraud import service
from hakiki.fraud.schemas import Category, FraudReport, FraudReportList, FraudReportRequest, Status

router = APIRouter(prefix="/v3/fraud/reports", tags=["Fraud"])


@router.post(
    "",
    status_code=201,
    response_model=FraudReport,
    summary="Submit a fraud report to the shared fraud database",
    responses=error_responses(*AUTHENTICATED, 400, 409),
)
async def submit_report(
    body: FraudReportRequest,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:write")),
) -> Response:
    """Every organisation's fraud scans count the report's identifiers, phones and e-mails
    (in the same environment); only your organisation can list or read it, and the reporter is
    never shown to others. Stored encrypted; free of charge."""
    call = await begin_call(request, principal, service.ENDPOINT, body.model_dump(mode="json"))
    if isinstance(call, Replay):
        return replay_response(call)
    async with guarded(call):
        content = await service.submit_report(call, body)
    return Response(content, status_code=201, media_type="application/json")


@router.get(
    "",
    response_model=FraudReportList,
    summary="Your organisation's fraud reports, newest first",
    responses=error_responses(*AUTHENTICATED, 400),
)
async def list_reports(
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
    page: PageRequest = Depends(page_params),
    category: Category | None = Query(None),
    status: Status | None = Query(None),
    identifier: str | None = Query(None, max_length=64, description="An identity number."),
    incident_from: date | None = Query(None, description="Incidents on or after this date."),
    incident_to: date | None = Query(None, description="Incidents on or before this date."),
) -> FraudReportList:
    return await service.list_reports(
        runtime_of(request),
        principal,
        page,
        category=category,
        status=status,
        identifier=identifier,
        since=incident_from,
        until=incident_to,
    )


@router.get(
    "/{report_id}",
    response_model=FraudReport,
    summary="One of your organisation's fraud reports",
    responses=error_responses(*AUTHENTICATED, 404),
)
async def get_report(
    report_id: str,
    request: Request,
    principal: Principal = Depends(require_scope("fraud:read")),
) -> FraudReport:
    return await service.get_report(runtime_of(request), principal, report_id)

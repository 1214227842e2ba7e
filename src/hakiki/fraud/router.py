"""HTTP handlers of the shared fraud database (/v3/fraud/reports)."""

from __future__ import annotations

from datetime import date

from fastapi import Depends, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.fraud import service
from hakiki.fraud.endpoints import REPORT, REPORT_READ, REPORTS
from hakiki.fraud.schemas import Category, FraudReport, FraudReportList, FraudReportRequest, Status

router = EndpointRouter(tags=["Fraud"])


@router.endpoint(REPORT, response_model=FraudReport)
async def submit_report(body: FraudReportRequest, call: Call) -> bytes:
    """Every organisation's fraud scans count the report's identifiers, phones and e-mails
    (in the same environment); only your organisation can list or read it, and the reporter is
    never shown to others. Stored encrypted; free of charge."""
    return await service.submit_report(call, body)


@router.endpoint(REPORTS, response_model=FraudReportList)
async def list_reports(
    call: Call,
    page: PageRequest = Depends(page_params),
    category: Category | None = Query(None),
    status: Status | None = Query(None),
    identifier: str | None = Query(None, max_length=64, description="An identity number."),
    incident_from: date | None = Query(None, description="Incidents on or after this date."),
    incident_to: date | None = Query(None, description="Incidents on or before this date."),
) -> FraudReportList:
    return await service.list_reports(
        call.runtime,
        call.principal,
        page,
        category=category,
        status=status,
        identifier=identifier,
        since=incident_from,
        until=incident_to,
    )


@router.endpoint(REPORT_READ, response_model=FraudReport)
async def get_report(report_id: str, call: Call) -> FraudReport:
    return await service.get_report(call.runtime, call.principal, report_id)

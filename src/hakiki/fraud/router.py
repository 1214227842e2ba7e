"""HTTP handlers of the shared fraud database (/v3/fraud/reports)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from fastapi import Depends, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.core.strict import IsoDate
from hakiki.fraud import service
from hakiki.fraud.endpoints import REPORT, REPORT_READ, REPORTS
from hakiki.fraud.schemas import (
    Category,
    FraudReportList,
    FraudReportRequest,
    FraudReportResult,
    Status,
)

router = EndpointRouter(tags=["Fraud"])


@dataclass(frozen=True)
class IncidentDates:
    since: date | None
    until: date | None


def incident_dates(
    incident_from: IsoDate | None = Query(None, description="Incidents on or after this date."),
    incident_to: IsoDate | None = Query(None, description="Incidents on or before this date."),
) -> IncidentDates:
    """A dependency, not handler parameters: the route mechanism reads a handler's hints
    without their ``Annotated`` metadata, which holds IsoDate's check (``?incident_from=0`` is a
    400, not 1970-01-01)."""
    return IncidentDates(incident_from, incident_to)


@router.endpoint(REPORT, response_model=FraudReportResult)
async def submit_report(body: FraudReportRequest, call: Call) -> bytes:
    """Stores a report of a fraud incident: its `subject` (names, identifiers, phones,
    e-mails, address, optionally a face photo; at least one identifier, phone, e-mail or last
    name) and the `incident` (category, date, description, loss). Answers 201 with the report,
    its `id` and `status`. Every organisation's fraud scans count the report's identifiers,
    phones and e-mails (in the same environment); only your organisation can list or read it,
    and the reporter is never shown to others. Stored encrypted; free of charge. Sandbox
    reports count only in sandbox scans, which answer from their test values."""
    return await service.submit_report(call, body)


@router.endpoint(REPORTS, response_model=FraudReportList)
async def list_reports(
    call: Call,
    page: PageRequest = Depends(page_params),
    category: Category | None = Query(None),
    status: Status | None = Query(None),
    identifier: str | None = Query(None, max_length=64, description="An identity number."),
    incidents: IncidentDates = Depends(incident_dates),
) -> FraudReportList:
    """The reports your organisation submitted with keys of this environment, newest first,
    paginated; filters `category`, `status`, `identifier` (an identity number, any
    punctuation) and the incident dates `incident_from` and `incident_to` (inclusive). Other
    organisations' reports are never listed (their identifiers count in fraud scans). Free.
    Sandbox: the sandbox's own reports (a new organisation has none)."""
    return await service.list_reports(
        call.runtime,
        call.principal,
        page,
        category=category,
        status=status,
        identifier=identifier,
        since=incidents.since,
        until=incidents.until,
    )


@router.endpoint(REPORT_READ, response_model=FraudReportResult)
async def get_report(report_id: str, call: Call) -> FraudReportResult:
    """One report your organisation submitted, as it was stored (decrypted for you alone):
    the subject, the incident, your evidence references and `face_enrolled`. Another
    organisation's id, or one of the other environment, is 404. Free. Sandbox: the same, on
    the reports sandbox keys submitted."""
    return await service.get_report(call, report_id)

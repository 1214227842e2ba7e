"""Fraud reports: submitted by one organisation, counted by every organisation's scans, read
only by the one that submitted them."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.fraud import observations, repository
from hakiki.fraud.keys import identifier_key, subject_keys
from hakiki.fraud.observations import person_values
from hakiki.fraud.schemas import FraudReport, FraudReportList, FraudReportRequest

ENDPOINT = "fraud.report"


async def submit_report(call: Call, body: FraudReportRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    report = FraudReport(
        id=new_id("frp"), status="submitted", created_at=utcnow(), **body.model_dump()
    )
    row = {
        "id": report.id,
        "org_id": principal.org_id,
        "environment": principal.environment,
        "api_key_id": principal.key_id,
        "category": body.incident.category,
        "status": report.status,
        "incident_date": body.incident.date,
        "body_encrypted": runtime.vault.encrypt(report.model_dump_json()),
        "created_at": report.created_at,
    }
    report_keys = subject_keys(runtime.vault, body.subject)
    subject = body.subject
    seen_with = person_values(
        runtime.vault,
        names=(subject.first_name, subject.middle_name, subject.last_name),
        birth_date=subject.date_of_birth,
        phones=subject.phones,
        country=subject.country,
    )
    numbers = [key for kind, key in report_keys if kind == "identifier"]

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_report(conn, row, report_keys)
        await observations.record(conn, principal.environment, principal.org_id, numbers, seen_with)

    return await finish_call(
        call,
        billable=False,
        response_code=None,
        subject=None,
        render=lambda _charge: report.model_dump_json().encode(),
        description="Fraud report",
        status_code=201,
        write=write,
    )


def _decrypted(runtime: Runtime, row: dict[str, Any]) -> FraudReport:
    return FraudReport.model_validate_json(runtime.vault.decrypt(row["body_encrypted"]))


async def list_reports(
    runtime: Runtime,
    principal: Principal,
    page: PageRequest,
    *,
    category: str | None,
    status: str | None,
    identifier: str | None,
    since: date | None,
    until: date | None,
) -> FraudReportList:
    if since and until and since > until:
        raise ApiError(
            400,
            "invalid_request",
            "incident_from is after incident_to.",
            details=[{"field": "incident_from", "problem": "after incident_to"}],
        )
    key = identifier_key(runtime.vault, identifier) if identifier else None
    scope = (
        principal.org_id,
        principal.environment,
        {"category": category, "status": status},
        since,
        until,
        key,
    )
    async with read(runtime.db) as conn:
        total = await repository.count_reports(conn, *scope)
        rows = await repository.list_reports(conn, *scope, offset=page.offset, limit=page.page_size)
    return FraudReportList(
        data=[_decrypted(runtime, row) for row in rows], pagination=page.describe(total)
    )


async def get_report(runtime: Runtime, principal: Principal, report_id: str) -> FraudReport:
    async with read(runtime.db) as conn:
        row = await repository.get_report(conn, principal.org_id, principal.environment, report_id)
    if row is None:  # another organisation's report is as unknown as a missing one
        raise ApiError(404, "not_found", f"No fraud report {report_id}.")
    return _decrypted(runtime, row)

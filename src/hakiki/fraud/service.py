"""Fraud reports: submitted by one organisation, counted by every organisation's scans, read
only by the one that submitted them."""

from __future__ import annotations

import base64
import binascii
from datetime import date
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import enveloped, rendered
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.fraud import observations, repository
from hakiki.fraud.face_bank import FaceBank, insert_prints
from hakiki.fraud.face_scan import embed, print_rows
from hakiki.fraud.keys import identifier_key, subject_keys
from hakiki.fraud.observations import person_values
from hakiki.fraud.schemas import FraudReport, FraudReportList, FraudReportRequest, FraudReportResult


async def _face_rows(
    call: Call, image_base64: str, report: FraudReport, identifier_keys: list[str]
) -> list[dict[str, object]]:
    try:
        image = base64.b64decode(image_base64, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(
            400,
            "invalid_request",
            "subject.face_image_base64 is not base64.",
            details=[{"field": "subject.face_image_base64", "problem": "not base64"}],
        ) from None
    face = await embed(call, image, field="subject.face_image_base64")
    matches = call.runtime.part(FaceBank).nearest(call.principal.environment, face.vector)
    keys: list[str | None] = [*identifier_keys] or [None]
    return print_rows(
        call.principal.owner, face, matches, keys, (report.id, report.incident.category)
    )


STORED = "The fraud report is stored; every organisation's fraud scans count it."


async def submit_report(call: Call, body: FraudReportRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    image = body.subject.face_image_base64
    body = body.model_copy(
        update={"subject": body.subject.model_copy(update={"face_image_base64": None})}
    )
    report = FraudReport(
        id=new_id("frp"),
        status="submitted",
        face_enrolled=image is not None,
        created_at=utcnow(),
        **body.model_dump(exclude={"consent"}),  # the consent is its own record
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
    faces = await _face_rows(call, image, report, numbers) if image else []

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_report(conn, row, report_keys)
        await observations.record(
            conn, principal.environment, principal.org_id, numbers, seen_with, from_report=True
        )
        await insert_prints(conn, faces)

    content = await finish_call(
        call,
        billable=False,
        response_code=None,
        subject=None,
        render=lambda charge: rendered(
            FraudReportResult, call, charge, reference=report.id, data=report, message=STORED
        ),
        description="Fraud report",
        status_code=201,
        write=write,
    )
    for face_row in faces:
        runtime.part(FaceBank).add(principal.environment, face_row)
    return content


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


async def get_report(call: Call, report_id: str) -> FraudReportResult:
    runtime, principal = call.runtime, call.principal
    async with read(runtime.db) as conn:
        row = await repository.get_report(conn, principal.org_id, principal.environment, report_id)
    if row is None:  # another organisation's report is as unknown as a missing one
        raise ApiError(404, "not_found", f"No fraud report {report_id}.")
    return enveloped(
        FraudReportResult,
        call,
        None,
        reference=report_id,
        data=_decrypted(runtime, row),
        message=STORED,
    )

"""Subject requests (accepted here, run by the job in ``tasks``) and retention policies."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import MAX_PAGE_SIZE, PageRequest
from hakiki.core.runtime import Runtime
from hakiki.privacy import repository, retention
from hakiki.privacy.schemas import (
    CategoryReceipt,
    PurgeRun,
    PurgeRunList,
    RetentionChange,
    RetentionPolicies,
    RetentionPolicy,
    SubjectExport,
    SubjectRequest,
    SubjectRequestBody,
)

TASK = "privacy.subject_request"


def _check(body: SubjectRequestBody) -> None:
    s = body.subject
    names = [s.first_name, s.last_name]
    if any(names) and not (all(names) and s.date_of_birth):
        raise invalid_request(
            "subject: a name needs first_name, last_name and date_of_birth together (a name "
            "alone is many people).",
            field="subject.date_of_birth",
            problem="required with a name",
        )
    if not (s.reference or s.id_numbers or s.phones or s.emails or s.first_name):
        raise invalid_request(
            "subject: give reference, id_numbers, phones, emails or first_name, last_name and "
            "date_of_birth.",
            field="subject",
            problem="no identifier",
        )
    for field, values in (("id_numbers", s.id_numbers), ("phones", s.phones)):
        for value in values:
            if sum(ch.isalnum() for ch in value) < 5:
                raise invalid_request(
                    f"subject.{field}: {len(value)}-character value is too short to name one "
                    "person; give at least 5 letters or digits.",
                    field=f"subject.{field}",
                    problem="too short",
                )
    for email in s.emails:
        if "@" not in email:
            raise invalid_request(
                "subject.emails: not an e-mail address.", field="subject.emails", problem="no @"
            )


def _view(row: dict[str, Any]) -> SubjectRequest:
    receipt = row["receipt"]
    return SubjectRequest(
        id=row["id"],
        type=row["kind"],
        status=row["status"],
        receipt=[CategoryReceipt(category=k, **v) for k, v in receipt.items()] if receipt else None,
        export_available=row["export_sealed"] is not None,
        failure_reason=row["failure_reason"],
        created_at=row["created_at"],
        completed_at=row["completed_at"],
    )


async def create(call: Call, body: SubjectRequestBody) -> bytes:
    _check(body)
    principal = call.principal
    row: dict[str, Any] = {
        "id": new_id("dsr"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "api_key_id": principal.key_id,
        "kind": body.type,
        "status": "queued",
        "subject_encrypted": call.runtime.vault.encrypt(body.subject.model_dump_json()),
        "receipt": None,
        "export_sealed": None,
        "failure_reason": None,
        "created_at": utcnow(),
        "completed_at": None,
    }

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_request(conn, row)
        await enqueue(conn, TASK, {"request_id": row["id"]})

    return await finish_write(
        call,
        write,
        lambda: orjson.dumps(_view(row).model_dump(mode="json")),
        description="Subject request accepted",
        status_code=202,
    )


async def _owned(runtime: Runtime, principal: Principal, request_id: str) -> dict[str, Any]:
    async with read(runtime.db) as conn:
        row = await repository.get_request(
            conn, principal.org_id, principal.environment, request_id
        )
    if row is None:
        raise ApiError(404, "not_found", f"No subject request {request_id} in this environment.")
    return row


async def get(runtime: Runtime, principal: Principal, request_id: str) -> SubjectRequest:
    return _view(await _owned(runtime, principal, request_id))


async def export(runtime: Runtime, principal: Principal, request_id: str) -> SubjectExport:
    row = await _owned(runtime, principal, request_id)
    if row["kind"] != "access" or row["status"] != "completed" or row["export_sealed"] is None:
        raise ApiError(
            409,
            "conflict",
            f"Subject request {request_id} has no export: it is {row['status']}, of type "
            f"{row['kind']}, or its export was deleted {retention.EXPORT_DAYS} days after it "
            "completed. Ask again with type access.",
        )
    categories = orjson.loads(runtime.vault.unseal(bytes(row["export_sealed"])))
    return SubjectExport(id=row["id"], created_at=row["created_at"], categories=categories)


async def policies(
    runtime: Runtime, principal: Principal, page: PageRequest | None = None
) -> RetentionPolicies:
    """Every category's policy, a page of them (all on one page after a change)."""
    rows = await retention.effective(runtime.db, runtime.settings, principal.org_id)
    listed = [RetentionPolicy(**r) for r in rows]
    data, pagination = (page or PageRequest(1, MAX_PAGE_SIZE)).slice(listed)
    return RetentionPolicies(data=data, pagination=pagination)


async def set_policies(
    runtime: Runtime, principal: Principal, body: RetentionChange
) -> RetentionPolicies:
    now = utcnow()
    for name, days in body.policies.items():
        category = retention.CATEGORIES.get(name)
        if category is None:
            raise invalid_request(
                f"policies: unknown category {name!r}; one of {', '.join(retention.CATEGORIES)}.",
                field=f"policies.{name}",
                problem="unknown category",
            )
        if days is not None and not category.min_days <= days <= category.max_days:
            raise invalid_request(
                f"policies.{name}: {days} days is outside {category.min_days}-"
                f"{category.max_days} ({category.reason}).",
                field=f"policies.{name}",
                problem=f"must be from {category.min_days} to {category.max_days}",
            )
    async with transaction(runtime.db) as conn:
        for name, days in body.policies.items():
            if days is None:
                await repository.delete_policy(conn, principal.org_id, name)
            else:
                await repository.upsert_policy(
                    conn,
                    {"org_id": principal.org_id, "category": name, "days": days, "updated_at": now},
                )
    return await policies(runtime, principal)


async def runs(runtime: Runtime, principal: Principal, page: PageRequest) -> PurgeRunList:
    return await runs_of_org(runtime, principal.org_id, page)


async def runs_of_org(runtime: Runtime, org_id: str, page: PageRequest) -> PurgeRunList:
    async with read(runtime.db) as conn:
        total, rows, counts = await repository.runs_of(
            conn, org_id, offset=page.offset, limit=page.page_size
        )
    purged: dict[str, dict[str, int]] = {}
    for count in counts:
        purged.setdefault(count["run_id"], {})[count["category"]] = count["rows"]
    data = [
        PurgeRun(
            id=r["id"],
            started_at=r["started_at"],
            finished_at=r["finished_at"],
            purged=purged.get(r["id"], {}),
        )
        for r in rows
    ]
    return PurgeRunList(data=data, pagination=page.describe(total))

"""The analysts' queue (/v3/screening/alerts): list and read alerts, assign them, comment on
them and resolve them. Every action appends to the alert's history with the caller as its
actor; only the alert's current state columns change. Resolving also records the decision as
a screening review, so later screenings (apply_reviews) and raise_alerts both honour it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import orjson
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.auth_repository import find_key_with_org
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.screening import alerts_repository as alerts
from hakiki.screening import repository as reviews
from hakiki.screening.alerts_schemas import (
    Alert,
    AlertEvent,
    AlertList,
    AlertSubjectView,
    AlertWithHistory,
    AssignRequest,
    CommentRequest,
    ResolveRequest,
)
from hakiki.screening.alerts_service import event_row, reference_hash
from hakiki.screening.review_service import ReviewPresence
from hakiki.screening.schemas import AmlHit


def _opened(vault: Vault, token: str | None) -> str | None:
    return vault.decrypt(token) if token else None


def alert_view(vault: Vault, row: dict[str, Any]) -> Alert:
    """A stored alert with its personal data decrypted, for its own organisation."""
    return Alert(
        id=row["id"],
        status=row["status"],
        origin=row["origin"],
        list_code=row["list_code"],
        entity_id=row["entity_id"],
        entity_fingerprint=row["entity_fingerprint"],
        score=row["score"],
        hit=AmlHit.model_validate_json(vault.decrypt(row["hit_encrypted"])),
        subject=AlertSubjectView(
            subject_key=row["subject_key"],
            monitored_subject_id=row["monitored_subject_id"],
            name=vault.decrypt(row["name_encrypted"]),
            reference=_opened(vault, row["reference_encrypted"]),
        ),
        assignee=_opened(vault, row["assignee_encrypted"]),
        decision=row["decision"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _event_view(vault: Vault, row: dict[str, Any]) -> AlertEvent:
    detail = _opened(vault, row["detail_encrypted"])
    return AlertEvent(
        id=row["id"],
        event=row["event"],
        actor=vault.decrypt(row["actor_encrypted"]),
        detail=orjson.loads(detail) if detail else {},
        created_at=row["created_at"],
    )


def _not_found(alert_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No alert {alert_id} in this environment.")


async def _with_history(
    conn: AsyncConnection, vault: Vault, principal: Principal, alert_id: str
) -> AlertWithHistory:
    row = await alerts.get_alert(conn, principal.org_id, principal.environment, alert_id)
    if row is None:
        raise _not_found(alert_id)
    trail = [_event_view(vault, event) for event in await alerts.history(conn, alert_id)]
    return AlertWithHistory(**alert_view(vault, row).model_dump(), history=trail)


async def list_alerts(
    runtime: Runtime, principal: Principal, filters: dict[str, Any], page: PageRequest
) -> AlertList:
    subject = filters.pop("subject", None)
    if subject:  # an id, a subject key, or the organisation's reference (by its keyed hash)
        filters["subject"] = {
            "id": subject,
            "reference_hash": reference_hash(runtime.vault, subject),
        }
    async with read(runtime.db) as conn:
        total = await alerts.count_alerts(conn, principal.org_id, principal.environment, filters)
        rows = await alerts.list_alerts(
            conn,
            principal.org_id,
            principal.environment,
            filters,
            offset=page.offset,
            limit=page.page_size,
        )
    return AlertList(
        data=[alert_view(runtime.vault, row) for row in rows], pagination=page.describe(total)
    )


async def get_alert(runtime: Runtime, principal: Principal, alert_id: str) -> AlertWithHistory:
    async with read(runtime.db) as conn:
        return await _with_history(conn, runtime.vault, principal, alert_id)


Change = Callable[[AsyncConnection, dict[str, Any], datetime], Awaitable[None]]


async def _act(
    call: Call, alert_id: str, event: str, detail: dict[str, Any], change: Change
) -> bytes:
    """Apply ``change`` to the alert (owned by the caller, else 404), append the history row
    with the caller as actor, all with the call's request record; answer the alert and its
    history."""
    principal, vault = call.principal, call.runtime.vault
    answered: list[BaseModel] = []

    async def write(conn: AsyncConnection) -> None:
        row = await alerts.get_alert(conn, principal.org_id, principal.environment, alert_id)
        if row is None:
            raise _not_found(alert_id)
        now = utcnow()
        await change(conn, row, now)
        history = event_row(
            vault,
            alert_id,
            event,
            now,
            actor=principal.actor,
            api_key_id=principal.key_id,
            detail=detail,
        )
        await alerts.insert_events(conn, [history])
        answered.append(await _with_history(conn, vault, principal, alert_id))

    return await finish_write(
        call,
        write,
        lambda: orjson.dumps(answered[0].model_dump(mode="json")),
        description=f"Screening alert {event}",
    )


async def _assignee(runtime: Runtime, principal: Principal, name: str) -> str:
    """The id of the console user (by e-mail) or API key (by client id, this environment) of
    the caller's organisation that ``name`` designates; 400 when there is none."""
    lookup = runtime.user_by_email
    user = await lookup(runtime.db, runtime.vault, name) if lookup is not None else None
    if user is not None and user["org_id"] == principal.org_id and user["disabled_at"] is None:
        return str(user["id"])
    async with read(runtime.db) as conn:
        key = await find_key_with_org(conn, name.strip())
    if (
        key is not None
        and key["org_id"] == principal.org_id
        and key["environment"] == principal.environment
        and key["revoked_at"] is None
    ):
        return str(key["key_id"])
    raise invalid_request(
        "assignee: no console user of your organisation has this e-mail address, and no "
        "API key of this environment has this client id.",
        field="assignee",
        problem="not a user or key of your organisation",
    )


async def assign(call: Call, alert_id: str, body: AssignRequest) -> bytes:
    name = body.assignee.strip() if body.assignee else None
    assignee_id = await _assignee(call.runtime, call.principal, name) if name else None
    vault = call.runtime.vault

    async def change(conn: AsyncConnection, row: dict[str, Any], now: datetime) -> None:
        values = {
            "assignee_id": assignee_id,
            "assignee_encrypted": vault.encrypt(name) if name else None,
            "updated_at": now,
        }
        await alerts.update_alert(conn, row["id"], values)

    return await _act(call, alert_id, "assigned", {"assignee": name}, change)


async def comment(call: Call, alert_id: str, body: CommentRequest) -> bytes:
    async def change(conn: AsyncConnection, row: dict[str, Any], now: datetime) -> None:
        await alerts.update_alert(conn, row["id"], {"updated_at": now})

    return await _act(call, alert_id, "commented", {"comment": body.comment}, change)


async def resolve(call: Call, alert_id: str, body: ResolveRequest) -> bytes:
    """Only an open alert; the decision is also a screening review of the hit, so a false
    positive stays suppressed for this subject until the list entry changes."""
    principal, vault = call.principal, call.runtime.vault

    async def change(conn: AsyncConnection, row: dict[str, Any], now: datetime) -> None:
        values = {"status": "resolved", "decision": body.decision, "updated_at": now}
        if not await alerts.update_alert(conn, row["id"], values, status="open"):
            raise ApiError(
                409,
                "conflict",
                f"Alert {alert_id} is {row['status']}, not open: only an open alert is resolved.",
            )
        await reviews.insert_review(
            conn,
            {
                "id": new_id("rev"),
                "org_id": principal.org_id,
                "environment": principal.environment,
                "subject_key": row["subject_key"],
                "list_code": row["list_code"],
                "entity_id": row["entity_id"],
                "entity_fingerprint": row["entity_fingerprint"],
                "decision": body.decision,
                "reason_encrypted": vault.encrypt(body.reason),
                "reviewer_encrypted": vault.encrypt(principal.actor),
                "api_key_id": principal.key_id,
                "created_at": now,
            },
        )

    detail = {"decision": body.decision, "reason": body.reason}
    answer = await _act(call, alert_id, "resolved", detail, change)
    call.runtime.part(ReviewPresence).mark(principal)
    return answer


async def recent_history(
    runtime: Runtime, principal: Principal, limit: int = 20
) -> list[tuple[AlertEvent, Alert]]:
    """The newest actions on the caller's alerts, each with its alert (decrypted for the
    caller's organisation): who did what to which subject and list entry."""
    async with read(runtime.db) as conn:
        rows = await alerts.recent_events(
            conn, principal.org_id, principal.environment, limit=limit
        )
    vault = runtime.vault
    return [(_event_view(vault, event), alert_view(vault, alert)) for event, alert in rows]


async def count(runtime: Runtime, principal: Principal, filters: dict[str, Any]) -> int:
    async with read(runtime.db) as conn:
        return await alerts.count_alerts(conn, principal.org_id, principal.environment, filters)

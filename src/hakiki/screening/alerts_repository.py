"""Queries of the alert queue (``screening_alerts``) and its history
(``screening_alert_events``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.screening.tables import OPEN_ALERTS
from hakiki.screening.tables import screening_alert_events as events
from hakiki.screening.tables import screening_alerts as t

CHUNK = 500  # entity ids per IN (...) when closing alerts


async def alerts_for_subject(
    conn: AsyncConnection, org_id: str, environment: str, subject_key: str
) -> list[dict[str, Any]]:
    """Every alert of the subject, oldest first."""
    rows = await conn.execute(
        select(t)
        .where(t.c.org_id == org_id, t.c.environment == environment, t.c.subject_key == subject_key)
        .order_by(t.c.created_at, t.c.id)
    )
    return [dict(r._mapping) for r in rows]


async def open_alert_ids(
    conn: AsyncConnection, org_id: str, environment: str, subject_keys: Sequence[str]
) -> dict[str, list[str]]:
    """Per subject key, the ids of its open alerts, oldest first."""
    found: dict[str, list[str]] = {key: [] for key in subject_keys}
    keys = list(found)
    for start in range(0, len(keys), CHUNK):
        rows = await conn.execute(
            select(t.c.subject_key, t.c.id)
            .where(
                t.c.org_id == org_id,
                t.c.environment == environment,
                t.c.status == "open",
                t.c.subject_key.in_(keys[start : start + CHUNK]),
            )
            .order_by(t.c.created_at, t.c.id)
        )
        for row in rows:
            found[row.subject_key].append(row.id)
    return found


async def insert_open_alert(conn: AsyncConnection, values: dict[str, Any]) -> bool:
    """Insert an open alert unless another transaction has just opened one on the same subject
    and list entry (the partial unique index); return whether it was inserted."""
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = (
        dialect.insert(t)
        .values(**values)
        .on_conflict_do_nothing(
            index_elements=["org_id", "environment", "subject_key", "list_code", "entity_id"],
            index_where=OPEN_ALERTS,
        )
    )
    result = await conn.execute(statement)
    return bool(result.rowcount)


async def update_alert(
    conn: AsyncConnection, alert_id: str, values: dict[str, Any], *, status: str | None = None
) -> bool:
    """Change an alert's current state; with ``status``, only while it has that status (whoever
    changes it second changes nothing). Return whether it changed."""
    query = update(t).where(t.c.id == alert_id)
    if status is not None:
        query = query.where(t.c.status == status)
    result = await conn.execute(query.values(**values))
    return bool(result.rowcount)


async def insert_events(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(events), rows)


async def open_alerts_on_entities(
    conn: AsyncConnection,
    list_code: str,
    entity_ids: Sequence[str],
    *,
    environment: str,
    org_id: str | None = None,
) -> list[dict[str, Any]]:
    """The open alerts of the environment (of one organisation, when given) on these entries
    of the list: id, organisation, subject key and entry."""
    conditions = [t.c.list_code == list_code, t.c.status == "open", t.c.environment == environment]
    if org_id is not None:
        conditions.append(t.c.org_id == org_id)
    found: list[dict[str, Any]] = []
    for start in range(0, len(entity_ids), CHUNK):
        rows = await conn.execute(
            select(t.c.id, t.c.org_id, t.c.subject_key, t.c.list_code, t.c.entity_id)
            .where(*conditions, t.c.entity_id.in_(list(entity_ids[start : start + CHUNK])))
            .order_by(t.c.created_at, t.c.id)
        )
        found += [dict(row._mapping) for row in rows]
    return found


async def close_alerts(conn: AsyncConnection, alert_ids: Sequence[str], now: datetime) -> None:
    for start in range(0, len(alert_ids), CHUNK):
        await conn.execute(
            update(t)
            .where(t.c.id.in_(list(alert_ids[start : start + CHUNK])), t.c.status == "open")
            .values(status="closed", updated_at=now)
        )


async def get_alert(
    conn: AsyncConnection, org_id: str, environment: str, alert_id: str
) -> dict[str, Any] | None:
    query = select(t).where(
        t.c.id == alert_id, t.c.org_id == org_id, t.c.environment == environment
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def history(conn: AsyncConnection, alert_id: str) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(events)
        .where(events.c.alert_id == alert_id)
        .order_by(events.c.created_at, events.c.id)
    )
    return [dict(r._mapping) for r in rows]


def _conditions(org_id: str, environment: str, filters: dict[str, Any]) -> list[Any]:
    conditions: list[Any] = [t.c.org_id == org_id, t.c.environment == environment]
    if filters.get("status"):
        conditions.append(t.c.status == filters["status"])
    if filters.get("list_code"):
        conditions.append(t.c.list_code == filters["list_code"])
    if filters.get("created_from"):
        conditions.append(t.c.created_at >= filters["created_from"])
    if filters.get("created_to"):
        conditions.append(t.c.created_at <= filters["created_to"])
    assignee = filters.get("assignee_id")
    if assignee == "":  # the console's "unassigned"
        conditions.append(t.c.assignee_id.is_(None))
    elif assignee:
        conditions.append(t.c.assignee_id == assignee)
    subject = filters.get("subject")
    if subject:  # the monitored subject's id, the subject key or the reference's hash
        conditions.append(
            or_(
                t.c.monitored_subject_id == subject["id"],
                t.c.subject_key == subject["id"],
                t.c.reference_hash == subject["reference_hash"],
            )
        )
    return conditions


async def count_alerts(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, Any]
) -> int:
    query = select(func.count()).where(*_conditions(org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_alerts(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, Any],
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(t)
        .where(*_conditions(org_id, environment, filters))
        .order_by(t.c.created_at.desc(), t.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]


async def recent_events(
    conn: AsyncConnection, org_id: str, environment: str, *, limit: int
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The newest history rows of the organisation's alerts in this environment, each with its
    alert (the console's audit trail, naming the subject and the list entry)."""
    rows = await conn.execute(
        select(events, t)
        .join(t, t.c.id == events.c.alert_id)
        .where(t.c.org_id == org_id, t.c.environment == environment)
        .order_by(events.c.created_at.desc(), events.c.id.desc())
        .limit(limit)
    )
    event_keys = [c.key for c in events.columns]
    alert_keys = [c.key for c in t.columns]
    found = []
    for row in rows:
        values = tuple(row)
        event = dict(zip(event_keys, values[: len(event_keys)], strict=True))
        alert = dict(zip(alert_keys, values[len(event_keys) :], strict=True))
        found.append((event, alert))
    return found

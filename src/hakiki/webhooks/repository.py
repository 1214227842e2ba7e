"""Queries on the webhook tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.webhooks.tables import (
    webhook_attempts as attempts,
)
from hakiki.webhooks.tables import (
    webhook_deliveries as deliveries,
)
from hakiki.webhooks.tables import (
    webhook_endpoints as endpoints,
)
from hakiki.webhooks.tables import (
    webhook_events as events,
)
from hakiki.webhooks.tables import (
    webhook_sequences as sequences,
)


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in result]


def _first(result: Any) -> dict[str, Any] | None:
    row = result.first()
    return dict(row._mapping) if row else None


# Endpoints


async def insert_endpoint(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(endpoints).values(**values))


def _live_endpoints(org_id: str, environment: str) -> list[Any]:
    """The organisation's own endpoints (not a request's callback), not deleted."""
    return [
        endpoints.c.org_id == org_id,
        endpoints.c.environment == environment,
        endpoints.c.deleted_at.is_(None),
        endpoints.c.resource_id.is_(None),
    ]


async def get_endpoint(
    conn: AsyncConnection, org_id: str, environment: str, endpoint_id: str
) -> dict[str, Any] | None:
    query = select(endpoints).where(
        endpoints.c.id == endpoint_id, *_live_endpoints(org_id, environment)
    )
    return _first(await conn.execute(query))


async def count_endpoints(conn: AsyncConnection, org_id: str, environment: str) -> int:
    query = select(func.count()).where(*_live_endpoints(org_id, environment))
    return int((await conn.execute(query)).scalar_one())


async def list_endpoints(
    conn: AsyncConnection, org_id: str, environment: str, *, offset: int, limit: int
) -> list[dict[str, Any]]:
    query = (
        select(endpoints)
        .where(*_live_endpoints(org_id, environment))
        .order_by(endpoints.c.created_at.desc(), endpoints.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return _rows(await conn.execute(query))


async def all_endpoints(
    conn: AsyncConnection, org_id: str, environment: str, resource_id: str | None
) -> list[dict[str, Any]]:
    """The endpoints an event of ``resource_id`` goes to: the organisation's own, and the
    callbacks of that resource."""
    query = select(endpoints).where(
        endpoints.c.org_id == org_id,
        endpoints.c.environment == environment,
        endpoints.c.deleted_at.is_(None),
        or_(endpoints.c.resource_id.is_(None), endpoints.c.resource_id == resource_id),
    )
    return _rows(await conn.execute(query.order_by(endpoints.c.created_at, endpoints.c.id)))


async def get_any_endpoint(
    conn: AsyncConnection, org_id: str, environment: str, endpoint_id: str
) -> dict[str, Any] | None:
    """An endpoint not deleted, a callback included (a delivery to it can be resent)."""
    query = select(endpoints).where(
        endpoints.c.id == endpoint_id,
        endpoints.c.org_id == org_id,
        endpoints.c.environment == environment,
        endpoints.c.deleted_at.is_(None),
    )
    return _first(await conn.execute(query))


async def update_endpoint(
    conn: AsyncConnection, org_id: str, environment: str, endpoint_id: str, **values: Any
) -> bool:
    result = await conn.execute(
        update(endpoints)
        .where(endpoints.c.id == endpoint_id, *_live_endpoints(org_id, environment))
        .values(**values)
    )
    return result.rowcount == 1


async def subscriber_environments(conn: AsyncConnection) -> list[dict[str, Any]]:
    """Every (organisation, environment) with an endpoint, and the endpoints' event types."""
    query = select(endpoints.c.org_id, endpoints.c.environment, endpoints.c.event_types).where(
        endpoints.c.deleted_at.is_(None), endpoints.c.resource_id.is_(None)
    )
    return _rows(await conn.execute(query))


# Events


async def next_sequence(
    conn: AsyncConnection, org_id: str, environment: str, resource_key: str
) -> int:
    """Add one to the resource's counter (creating it at 1) and return it, atomically."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(sequences).values(
        org_id=org_id, environment=environment, resource_key=resource_key, last_sequence=1
    )
    statement = statement.on_conflict_do_update(
        index_elements=[sequences.c.org_id, sequences.c.environment, sequences.c.resource_key],
        set_={"last_sequence": sequences.c.last_sequence + 1},
    ).returning(sequences.c.last_sequence)
    return int((await conn.execute(statement)).scalar_one())


async def insert_event(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(events).values(**values))


# Deliveries


async def insert_delivery(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(deliveries).values(**values))


async def get_delivery(
    conn: AsyncConnection, org_id: str, environment: str, delivery_id: str
) -> dict[str, Any] | None:
    query = select(deliveries, events.c.type.label("event_type")).where(
        deliveries.c.id == delivery_id,
        deliveries.c.org_id == org_id,
        deliveries.c.environment == environment,
        deliveries.c.event_id == events.c.id,
    )
    return _first(await conn.execute(query))


async def delivery_target(conn: AsyncConnection, delivery_id: str) -> dict[str, Any] | None:
    """A delivery with what sending it needs: its event and its endpoint."""
    query = select(
        deliveries.c.id,
        deliveries.c.status,
        endpoints.c.url,
        endpoints.c.environment,
        endpoints.c.secret_encrypted,
        endpoints.c.previous_secret_encrypted,
        endpoints.c.previous_secret_expires_at,
        endpoints.c.deleted_at,
        events.c.id.label("event_id"),
        events.c.type,
        events.c.resource_id,
        events.c.sequence,
        events.c.occurred_at,
        events.c.data,
    ).where(
        deliveries.c.id == delivery_id,
        deliveries.c.endpoint_id == endpoints.c.id,
        deliveries.c.event_id == events.c.id,
    )
    return _first(await conn.execute(query))


async def update_delivery(conn: AsyncConnection, delivery_id: str, **values: Any) -> None:
    await conn.execute(update(deliveries).where(deliveries.c.id == delivery_id).values(**values))


async def fail_pending_delivery(conn: AsyncConnection, delivery_id: str, now: datetime) -> None:
    await conn.execute(
        update(deliveries)
        .where(deliveries.c.id == delivery_id, deliveries.c.status == "pending")
        .values(status="failed", updated_at=now)
    )


async def record_attempt(
    conn: AsyncConnection, values: dict[str, Any], delivery_values: dict[str, Any]
) -> None:
    """Log one attempt and count it on its delivery."""
    await conn.execute(insert(attempts).values(**values))
    await conn.execute(
        update(deliveries)
        .where(deliveries.c.id == values["delivery_id"])
        .values(attempt_count=deliveries.c.attempt_count + 1, **delivery_values)
    )


def _filtered_deliveries(
    org_id: str, environment: str, filters: dict[str, str | None]
) -> list[Any]:
    return [
        *owned_by(deliveries, org_id, environment, filters),
        deliveries.c.event_id == events.c.id,
    ]


async def count_deliveries(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, str | None]
) -> int:
    query = select(func.count()).where(*_filtered_deliveries(org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_deliveries(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, str | None],
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = (
        select(deliveries, events.c.type.label("event_type"))
        .where(*_filtered_deliveries(org_id, environment, filters))
        .order_by(deliveries.c.created_at.desc(), deliveries.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return _rows(await conn.execute(query))


async def attempts_of(conn: AsyncConnection, delivery_ids: list[str]) -> list[dict[str, Any]]:
    if not delivery_ids:
        return []
    query = (
        select(attempts)
        .where(attempts.c.delivery_id.in_(delivery_ids))
        .order_by(attempts.c.attempted_at, attempts.c.id)
    )
    return _rows(await conn.execute(query))

"""Queries for stored Idempotency-Key responses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import idempotency_keys as t


def _key(org_id: Any, environment: Any, key: Any) -> Any:
    return and_(t.c.org_id == org_id, t.c.environment == environment, t.c.key == key)


async def find(
    conn: AsyncConnection, org_id: str, environment: str, key: str
) -> dict[str, Any] | None:
    row = (await conn.execute(select(t).where(_key(org_id, environment, key)))).first()
    return dict(row._mapping) if row else None


async def insert_claim(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    key: str,
    request_hash: str,
    now: datetime,
    expires_at: datetime,
) -> None:
    await conn.execute(
        insert(t).values(
            org_id=org_id,
            environment=environment,
            key=key,
            request_hash=request_hash,
            state="in_progress",
            created_at=now,
            expires_at=expires_at,
        )
    )


async def remove(conn: AsyncConnection, org_id: str, environment: str, key: str) -> None:
    await conn.execute(delete(t).where(_key(org_id, environment, key)))


async def complete_many(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Store each response: rows of org_id, environment, key, status_code, body."""
    if rows:
        await conn.execute(
            update(t)
            .where(_key(bindparam("k_org"), bindparam("k_environment"), bindparam("k_key")))
            .values(
                state="complete",
                status_code=bindparam("k_status"),
                response_body=bindparam("k_body"),
            ),
            [{f"k_{name}": value for name, value in row.items()} for row in rows],
        )


async def purge_expired(conn: AsyncConnection, now: datetime) -> int:
    result = await conn.execute(delete(t).where(t.c.expires_at < now))
    return int(result.rowcount or 0)

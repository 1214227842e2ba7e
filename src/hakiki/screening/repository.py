"""Queries for screening-hit reviews."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.screening.tables import screening_reviews as t


async def insert_review(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(t).values(**values))


async def has_reviews(conn: AsyncConnection, org_id: str, environment: str) -> bool:
    query = select(t.c.id).where(t.c.org_id == org_id, t.c.environment == environment).limit(1)
    return (await conn.execute(query)).first() is not None


async def reviews_for_subject(
    conn: AsyncConnection, org_id: str, environment: str, subject_key: str
) -> list[dict[str, Any]]:
    """Every review of the subject, oldest first (so later rows override earlier ones)."""
    rows = await conn.execute(
        select(t)
        .where(t.c.org_id == org_id, t.c.environment == environment, t.c.subject_key == subject_key)
        .order_by(t.c.created_at, t.c.id)
    )
    return [dict(r._mapping) for r in rows]


async def count_reviews(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, str | None]
) -> int:
    query = select(func.count()).where(*owned_by(t, org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_reviews(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, str | None],
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(t)
        .where(*owned_by(t, org_id, environment, filters))
        .order_by(t.c.created_at.desc(), t.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]

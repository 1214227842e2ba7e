"""Queries of organisation watchlists."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.screening.watchlists.tables import screening_watchlists as t


async def insert_watchlist(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(t).values(**values))


async def get(conn: AsyncConnection, watchlist_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(t).where(t.c.id == watchlist_id))).first()
    return dict(row._mapping) if row else None


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, watchlist_id: str
) -> dict[str, Any] | None:
    query = select(t).where(*owned_by(t, org_id, environment, {}), t.c.id == watchlist_id)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def count_owned(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, str | None]
) -> int:
    query = select(func.count()).where(*owned_by(t, org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_owned(
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


async def ready_lists(conn: AsyncConnection, org_id: str, environment: str) -> list[dict[str, Any]]:
    """What building and screening the organisation's ready watchlists needs, oldest first."""
    columns = (t.c.id, t.c.org_id, t.c.name, t.c.list_type, t.c.encoding, t.c.created_at)
    rows = await conn.execute(
        select(*columns)
        .where(t.c.org_id == org_id, t.c.environment == environment, t.c.status == "ready")
        .order_by(t.c.created_at, t.c.id)
    )
    return [dict(r._mapping) for r in rows]


async def update_watchlist(
    conn: AsyncConnection, watchlist_id: str, *, only_if_status: tuple[str, ...], **values: Any
) -> bool:
    """Change the row while its status is one of ``only_if_status``; False if it is gone or
    in another state (deleted while its job ran, say)."""
    result = await conn.execute(
        update(t).where(t.c.id == watchlist_id, t.c.status.in_(only_if_status)).values(**values)
    )
    return result.rowcount == 1


async def delete_watchlist(conn: AsyncConnection, watchlist_id: str) -> bool:
    result = await conn.execute(delete(t).where(t.c.id == watchlist_id))
    return result.rowcount == 1

"""Every SQL query of the kept document verifications."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.documents.tables import document_verifications as results


async def insert_result(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(results).values(**row))


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(results).where(*owned_by(results, org_id, environment, {"id": reference}))
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def count_owned(conn: AsyncConnection, org_id: str, environment: str) -> int:
    query = select(func.count()).where(*owned_by(results, org_id, environment, {}))
    return int((await conn.execute(query)).scalar_one())


async def list_owned(
    conn: AsyncConnection, org_id: str, environment: str, *, offset: int, limit: int
) -> list[dict[str, Any]]:
    """The newest first, without the sealed result."""
    query = (
        select(*(c for c in results.c if c.name != "result_sealed"))
        .where(*owned_by(results, org_id, environment, {}))
        .order_by(results.c.created_at.desc(), results.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in await conn.execute(query)]

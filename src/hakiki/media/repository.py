"""Queries for ingested articles."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.media.tables import media_articles as t


async def existing_ids(conn: AsyncConnection, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = await conn.execute(select(t.c.id).where(t.c.id.in_(chunk)))
        found.update(r[0] for r in rows)
    return found


async def insert_articles(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(t), rows)


async def articles_since(conn: AsyncConnection, since: datetime | None) -> list[dict[str, Any]]:
    query = select(t).order_by(t.c.ingested_at, t.c.id)
    if since is not None:
        query = query.where(t.c.ingested_at > since)
    return [dict(r._mapping) for r in await conn.execute(query)]


async def summary(conn: AsyncConnection) -> dict[str, Any]:
    row = (
        await conn.execute(
            select(func.count(), func.max(t.c.ingested_at), func.count(t.c.source.distinct()))
        )
    ).one()
    return {"articles": int(row[0]), "last_ingested_at": row[1], "sources": int(row[2])}

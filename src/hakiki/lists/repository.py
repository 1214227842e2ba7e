"""Queries on ``list_versions``: one row per update attempt of one list."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import as_utc
from hakiki.core.ids import new_id
from hakiki.lists.tables import list_versions


async def record_attempt(
    conn: AsyncConnection,
    *,
    code: str,
    fetched_at: datetime,
    status: str,
    version: str | None = None,
    entity_count: int | None = None,
    sha256: str | None = None,
    error: str | None = None,
) -> str:
    row_id = new_id("lv")
    await conn.execute(
        insert(list_versions).values(
            id=row_id,
            code=code,
            version=version,
            fetched_at=fetched_at,
            entity_count=entity_count,
            sha256=sha256,
            status=status,
            error=error,
        )
    )
    return row_id


def _row(row: Any) -> dict[str, Any]:
    data = dict(row._mapping)
    data["fetched_at"] = as_utc(data["fetched_at"])
    return data


async def latest_attempts(conn: AsyncConnection) -> dict[str, dict[str, Any]]:
    """The newest attempt of every list code."""
    return await _latest(conn, None)


async def latest_failures(conn: AsyncConnection) -> dict[str, dict[str, Any]]:
    """The newest failed attempt of every list code."""
    return await _latest(conn, "failed")


async def _latest(conn: AsyncConnection, status: str | None) -> dict[str, dict[str, Any]]:
    newest = select(
        list_versions.c.code, func.max(list_versions.c.fetched_at).label("fetched_at")
    ).group_by(list_versions.c.code)
    if status is not None:
        newest = newest.where(list_versions.c.status == status)
    sub = newest.subquery()
    query = (
        select(list_versions)
        .join(
            sub,
            (list_versions.c.code == sub.c.code) & (list_versions.c.fetched_at == sub.c.fetched_at),
        )
        .order_by(list_versions.c.code, list_versions.c.id)
    )
    if status is not None:
        query = query.where(list_versions.c.status == status)
    result: dict[str, dict[str, Any]] = {}
    for row in await conn.execute(query):
        result[row.code] = _row(row)  # ids sort by time: the last one wins on a tie
    return result


async def history(conn: AsyncConnection, code: str, limit: int = 20) -> list[dict[str, Any]]:
    query = (
        select(list_versions)
        .where(list_versions.c.code == code)
        .order_by(list_versions.c.fetched_at.desc(), list_versions.c.id.desc())
        .limit(limit)
    )
    return [_row(row) for row in await conn.execute(query)]

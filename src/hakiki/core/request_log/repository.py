"""Queries for the request log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import request_logs


async def insert_many(conn: AsyncConnection, entries: list[dict[str, Any]]) -> None:
    if entries:
        await conn.execute(insert(request_logs), entries)


async def purge_older_than(conn: AsyncConnection, cutoff: datetime) -> int:
    result = await conn.execute(delete(request_logs).where(request_logs.c.created_at < cutoff))
    return int(result.rowcount or 0)

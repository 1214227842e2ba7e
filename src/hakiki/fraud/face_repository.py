"""Queries of ``face_prints``: the faces seen with numbers and reports."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.fraud.tables import face_prints as prints


async def prints_after(conn: AsyncConnection, last_id: str) -> list[dict[str, Any]]:
    """The prints with an id above ``last_id`` (written since), in id order."""
    rows = await conn.execute(select(prints).where(prints.c.id > last_id).order_by(prints.c.id))
    return [dict(row._mapping) for row in rows]


async def insert_prints(conn: AsyncConnection, rows: list[dict[str, object]]) -> None:
    if rows:
        await conn.execute(insert(prints), rows)

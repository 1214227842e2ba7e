"""SQL of the organisations' image-keeping setting and of the images kept (issue 37)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.verification.tables import verification_images as images
from hakiki.verification.tables import verification_settings as settings


async def get_settings(
    conn: AsyncConnection, org_id: str, environment: str
) -> dict[str, Any] | None:
    query = select(settings).where(
        settings.c.org_id == org_id, settings.c.environment == environment
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def put_settings(conn: AsyncConnection, row: dict[str, Any]) -> None:
    """Insert or replace the organisation's setting of one environment."""
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    changed = {k: v for k, v in row.items() if k not in ("org_id", "environment")}
    await conn.execute(
        dialect.insert(settings)
        .values(**row)
        .on_conflict_do_update(index_elements=["org_id", "environment"], set_=changed)
    )


async def insert_images(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(images), rows)


async def images_of(
    conn: AsyncConnection, org_id: str, environment: str, session_ids: list[str], now: datetime
) -> list[dict[str, Any]]:
    """The kept images of these sessions of the organisation, not yet due for deletion, in
    order (the document first, then the frames)."""
    if not session_ids:
        return []
    query = (
        select(images)
        .where(
            images.c.org_id == org_id,
            images.c.environment == environment,
            images.c.session_id.in_(session_ids),
            images.c.delete_after > now,
        )
        .order_by(images.c.session_id, images.c.kind, images.c.position)
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def purge_images(conn: AsyncConnection, now: datetime) -> int:
    result = await conn.execute(delete(images).where(images.c.delete_after <= now))
    return int(result.rowcount or 0)

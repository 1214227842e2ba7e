"""Queries of statement analyses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.statements.tables import statement_analyses as analyses

FINAL_STATES = ("completed", "failed")
# What a listing shows: neither the file, the request nor the result (sealed, and large)
LISTED = [
    c for c in analyses.c if c.name not in ("file_sealed", "result_sealed", "request_encrypted")
]


async def insert_analysis(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(analyses).values(**row))


async def get(conn: AsyncConnection, analysis_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(analyses).where(analyses.c.id == analysis_id))).first()
    return dict(row._mapping) if row else None


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, analysis_id: str
) -> dict[str, Any] | None:
    columns = [c for c in analyses.c if c.name != "file_sealed"]
    query = select(*columns).where(*owned_by(analyses, org_id, environment, {"id": analysis_id}))
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


def _listed(org_id: str, environment: str, filters: dict[str, Any]) -> list[Any]:
    conditions = owned_by(
        analyses,
        org_id,
        environment,
        {"status": filters.get("status"), "verdict": filters.get("verdict")},
    )
    if filters.get("created_from") is not None:
        conditions.append(analyses.c.created_at >= filters["created_from"])
    if filters.get("created_to") is not None:
        conditions.append(analyses.c.created_at < filters["created_to"])
    return conditions


async def count_owned(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, Any]
) -> int:
    query = select(func.count()).where(*_listed(org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_owned(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, Any],
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = (
        select(*LISTED)
        .where(*_listed(org_id, environment, filters))
        .order_by(analyses.c.created_at.desc(), analyses.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def earlier_with(
    conn: AsyncConnection, org_id: str, environment: str, column: str, value: str, before: str
) -> str | None:
    """The first earlier analysis of this organisation with the same file or statement."""
    query = (
        select(analyses.c.id)
        .where(
            analyses.c.org_id == org_id,
            analyses.c.environment == environment,
            analyses.c[column] == value,
            analyses.c.id != before,
        )
        .order_by(analyses.c.created_at, analyses.c.id)
        .limit(1)
    )
    return (await conn.execute(query)).scalar_one_or_none()


async def start(conn: AsyncConnection, analysis_id: str, now: datetime) -> None:
    await conn.execute(
        update(analyses)
        .where(analyses.c.id == analysis_id, analyses.c.status == "pending")
        .values(status="processing", progress=5, started_at=now, updated_at=now)
    )


async def set_progress(
    conn: AsyncConnection, analysis_id: str, progress: int, now: datetime
) -> None:
    await conn.execute(
        update(analyses)
        .where(analyses.c.id == analysis_id, analyses.c.status == "processing")
        .values(progress=progress, updated_at=now)
    )


async def finish(conn: AsyncConnection, analysis_id: str, values: dict[str, Any]) -> bool:
    """End the analysis once: false when another attempt has ended it already."""
    result = await conn.execute(
        update(analyses)
        .where(analyses.c.id == analysis_id, analyses.c.status.not_in(FINAL_STATES))
        .values(**values)
    )
    return bool(result.rowcount)


async def files_to_delete(conn: AsyncConnection, older_than: datetime) -> list[str]:
    query = select(analyses.c.id).where(
        analyses.c.file_sealed.is_not(None),
        analyses.c.created_at < older_than,
        analyses.c.status.in_(FINAL_STATES),
    )
    return list((await conn.execute(query)).scalars())


async def delete_file(conn: AsyncConnection, analysis_id: str, now: datetime) -> None:
    await conn.execute(
        update(analyses)
        .where(analyses.c.id == analysis_id)
        .values(file_sealed=None, file_deleted_at=now, updated_at=now)
    )


async def finish_charge(
    conn: AsyncConnection, analysis_id: str, amount: int, transaction_id: str
) -> None:
    await conn.execute(
        update(analyses)
        .where(analyses.c.id == analysis_id)
        .values(charged_amount=amount, transaction_id=transaction_id)
    )

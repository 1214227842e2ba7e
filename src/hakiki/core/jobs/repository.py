"""Queries of the embedded job queue. A claim is one conditional UPDATE: on PostgreSQL the
candidate row is locked with SKIP LOCKED so workers never wait on each other; on SQLite the
writer's BEGIN IMMEDIATE already makes claims one at a time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.jobs.tables import jobs

FINAL = ("succeeded", "failed")


async def insert(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(jobs.insert().values(**row))


async def claim(
    conn: AsyncConnection, now: datetime, lease_until: datetime, token: str
) -> dict[str, Any] | None:
    """Take the next due job (queued and due, or running with an expired lease)."""
    due = or_(
        and_(jobs.c.status == "queued", jobs.c.run_after <= now),
        and_(jobs.c.status == "running", jobs.c.lease_until < now),
    )
    candidate = (
        select(jobs.c.id)
        .where(due)
        .order_by(jobs.c.run_after)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    row = (
        await conn.execute(
            update(jobs)
            .where(jobs.c.id == candidate, due)
            .values(
                status="running",
                attempts=jobs.c.attempts + 1,
                lease_until=lease_until,
                lease_token=token,
                updated_at=now,
            )
            .returning(*jobs.c)
        )
    ).first()
    return dict(row._mapping) if row else None


async def extend_lease(
    conn: AsyncConnection, job_id: str, token: str, lease_until: datetime
) -> bool:
    result = await conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.lease_token == token, jobs.c.status == "running")
        .values(lease_until=lease_until)
    )
    return result.rowcount == 1


async def finish(
    conn: AsyncConnection, job_id: str, token: str, now: datetime, **values: Any
) -> bool:
    """Record an attempt's end, only if this claim still holds the job."""
    result = await conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.lease_token == token, jobs.c.status == "running")
        .values(lease_until=None, lease_token=None, updated_at=now, **values)
    )
    return result.rowcount == 1


async def give_back(conn: AsyncConnection, tokens: list[str], now: datetime) -> None:
    """Requeue jobs interrupted by a clean shutdown, not counting the cut attempt."""
    await conn.execute(
        update(jobs)
        .where(jobs.c.lease_token.in_(tokens), jobs.c.status == "running")
        .values(
            status="queued",
            attempts=jobs.c.attempts - 1,
            run_after=now,
            lease_until=None,
            lease_token=None,
            updated_at=now,
        )
    )


async def get(conn: AsyncConnection, job_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(jobs).where(jobs.c.id == job_id))).first()
    return dict(row._mapping) if row else None


async def list_jobs(
    conn: AsyncConnection, status: str | None, task: str | None, limit: int
) -> list[dict[str, Any]]:
    query = select(jobs).order_by(jobs.c.created_at.desc()).limit(limit)
    if status:
        query = query.where(jobs.c.status == status)
    if task:
        query = query.where(jobs.c.task == task)
    return [dict(r._mapping) for r in await conn.execute(query)]


async def retry(conn: AsyncConnection, job_id: str, now: datetime) -> bool:
    """Put a failed job back in the queue with a fresh set of attempts."""
    result = await conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.status == "failed")
        .values(status="queued", attempts=0, run_after=now, finished_at=None, updated_at=now)
    )
    return result.rowcount == 1


async def counts(conn: AsyncConnection) -> dict[str, int]:
    rows = await conn.execute(select(jobs.c.status, func.count()).group_by(jobs.c.status))
    return {str(status): int(count) for status, count in rows}

"""Queries on procrastinate's tables through the app's own SQLAlchemy connection, so that a job
is written in the caller's transaction. Writes go through procrastinate's SQL functions (its
stable interface, the same ones its job manager calls), never around them."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    cast,
    func,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncConnection

QUEUE = "default"

# procrastinate owns these tables (its schema, not Alembic's): a MetaData of their own.
_metadata = MetaData()
procrastinate_jobs = Table(
    "procrastinate_jobs",
    _metadata,
    Column("id", BigInteger, primary_key=True),
    Column("queue_name", String),
    Column("task_name", String),
    Column("status", String),  # an enum in PostgreSQL; compared as text
    Column("args", JSONB),
    Column("scheduled_at", DateTime(timezone=True)),
    Column("attempts", Integer),  # attempts that have ended
    Column("worker_id", BigInteger),
)
procrastinate_events = Table(
    "procrastinate_events",
    _metadata,
    Column("id", BigInteger, primary_key=True),
    Column("job_id", BigInteger),
    Column("type", String),
    Column("at", DateTime(timezone=True)),
)

_DEFER = text(
    """
    SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(
        CAST(:queue AS varchar), CAST(:task AS varchar), 0, NULL, NULL, CAST(:args AS jsonb),
        CASE WHEN CAST(:delay AS double precision) > 0
             THEN now() + make_interval(secs => CAST(:delay AS double precision)) END
    )::procrastinate_job_to_defer_v1]))
    """
)
_RETRY = text("SELECT procrastinate_retry_job_v2(:id, now(), NULL, NULL, NULL)")
_FAIL = text("SELECT procrastinate_finish_job_v1(:id, 'failed', false)")
_PRUNE_DEAD_WORKERS = text(
    "SELECT * FROM procrastinate_prune_stalled_workers_v1(CAST(:seconds AS float))"
)


async def defer(
    conn: AsyncConnection, task: str, payload: dict[str, Any], delay_seconds: float
) -> int:
    result = await conn.execute(
        _DEFER,
        {"queue": QUEUE, "task": task, "args": json.dumps(payload), "delay": delay_seconds},
    )
    return int(result.scalar_one())


def _events(*types: str) -> Any:
    return select(func.max(procrastinate_events.c.at)).where(
        procrastinate_events.c.job_id == procrastinate_jobs.c.id,
        cast(procrastinate_events.c.type, Text).in_(types),
    )


_JOBS = select(
    procrastinate_jobs.c.id,
    procrastinate_jobs.c.task_name,
    cast(procrastinate_jobs.c.status, Text).label("status"),
    procrastinate_jobs.c.args,
    procrastinate_jobs.c.attempts,
    procrastinate_jobs.c.scheduled_at,
    _events("deferred").scalar_subquery().label("created_at"),
    _events("succeeded", "failed", "aborted", "cancelled").scalar_subquery().label("finished_at"),
)


async def list_jobs(
    conn: AsyncConnection, status: str | None, task: str | None, limit: int
) -> list[dict[str, Any]]:
    query = _JOBS.order_by(procrastinate_jobs.c.id.desc()).limit(limit)
    if status:
        query = query.where(cast(procrastinate_jobs.c.status, Text) == status)
    if task:
        query = query.where(procrastinate_jobs.c.task_name == task)
    return [dict(row._mapping) for row in await conn.execute(query)]


async def get(conn: AsyncConnection, job_id: int, *, lock: bool = False) -> dict[str, Any] | None:
    query = _JOBS.where(procrastinate_jobs.c.id == job_id)
    if lock:
        query = query.with_for_update(of=procrastinate_jobs)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def retry_failed(conn: AsyncConnection, job_id: int) -> None:
    """Queue a failed job again, due now, with a fresh set of attempts (procrastinate's own
    retry keeps counting; the reset happens in the same transaction, before any worker can
    fetch the job)."""
    await conn.execute(_RETRY, {"id": job_id})
    await conn.execute(
        procrastinate_jobs.update().where(procrastinate_jobs.c.id == job_id).values(attempts=0)
    )


async def jobs_of_dead_workers(conn: AsyncConnection, seconds: float) -> list[dict[str, Any]]:
    """Forget workers silent for ``seconds`` (their running jobs lose their worker), then lock
    the running jobs without a worker. Locked and re-checked in this transaction: a job another
    worker has fetched again meanwhile has a worker, so it is never taken from it."""
    await conn.execute(_PRUNE_DEAD_WORKERS, {"seconds": seconds})
    query = (
        select(
            procrastinate_jobs.c.id,
            procrastinate_jobs.c.task_name,
            procrastinate_jobs.c.attempts,
            procrastinate_jobs.c.args,
        )
        .where(
            cast(procrastinate_jobs.c.status, Text) == "doing",
            procrastinate_jobs.c.worker_id.is_(None),
        )
        .with_for_update(skip_locked=True)
    )
    return [dict(row._mapping) for row in await conn.execute(query)]


async def requeue(conn: AsyncConnection, job_id: int) -> None:
    await conn.execute(_RETRY, {"id": job_id})


async def fail(conn: AsyncConnection, job_id: int) -> None:
    await conn.execute(_FAIL, {"id": job_id})

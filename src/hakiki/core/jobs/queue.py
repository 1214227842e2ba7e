"""Enqueue a job in the caller's transaction: it exists exactly when the business write does."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import jobs_backend
from hakiki.core.ids import new_id
from hakiki.core.jobs import repository
from hakiki.core.jobs.registry import TASKS
from hakiki.core.jobs.scaled import repository as scaled


async def enqueue(
    conn: AsyncConnection,
    task: str,
    payload: dict[str, Any],
    *,
    delay_seconds: float = 0,
) -> str:
    """Queue ``task`` with ``payload`` (JSON) inside the open transaction ``conn``; return the
    job id. The job runs after the transaction commits, at least once."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}")
    if jobs_backend(conn) == "procrastinate":
        return str(await scaled.defer(conn, task, payload, delay_seconds))
    now = utcnow()
    job_id = new_id("job")
    await repository.insert(
        conn,
        {
            "id": job_id,
            "task": task,
            "payload": payload,
            "status": "queued",
            "attempts": 0,
            "max_attempts": TASKS[task].max_attempts,
            "run_after": now + timedelta(seconds=delay_seconds),
            "created_at": now,
            "updated_at": now,
        },
    )
    return job_id

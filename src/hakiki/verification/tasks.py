"""The sessions' durable jobs: the link's expiry, and the end of a submission whose run was
interrupted (docs/jobs.md)."""

from __future__ import annotations

from typing import Any

from hakiki.core import clock
from hakiki.core.clock import as_utc
from hakiki.core.database import read, transaction
from hakiki.core.jobs.queue import enqueue
from hakiki.core.jobs.registry import JobContext, task
from hakiki.verification import repository, service


@task(service.EXPIRE_TASK, max_attempts=6)
async def expire_session(context: JobContext, payload: dict[str, Any]) -> None:
    """created | started -> expired at ``expires_at`` (a submitted session is left alone)."""
    runtime = context.runtime
    session_id = str(payload["session_id"])
    async with read(runtime.db) as conn:
        row = await repository.get(conn, session_id)
    if row is None or row["status"] not in ("created", "started"):
        return
    left = (as_utc(row["expires_at"]) - clock.utcnow()).total_seconds()
    async with transaction(runtime.db) as conn:
        if left > 0:  # woken early (a clock step): look again when it is due
            await enqueue(conn, service.EXPIRE_TASK, payload, delay_seconds=left)
            return
        await service.expire(runtime, conn, session_id)


@task(service.INTERRUPTED_TASK, max_attempts=6)
async def end_interrupted_session(context: JobContext, payload: dict[str, Any]) -> None:
    """submitted -> failed (decision review, no charge) when the submission's run died with
    its process; a session that finished meanwhile is left alone."""
    async with transaction(context.runtime.db) as conn:
        await service.fail_interrupted(context.runtime, conn, str(payload["session_id"]))

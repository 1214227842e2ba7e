"""Operator views of the queue: list jobs, retry failed ones."""

from __future__ import annotations

from typing import Any

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.jobs import repository

STATUSES = ("queued", "running", "succeeded", "failed")


async def list_jobs(
    db: Database, *, status: str | None = None, task: str | None = None, limit: int = 50
) -> list[dict[str, Any]]:
    async with read(db) as conn:
        return await repository.list_jobs(conn, status, task, limit)


async def retry_job(db: Database, job_id: str) -> dict[str, Any]:
    """Queue a failed job again with a fresh set of attempts."""
    async with transaction(db) as conn:
        if not await repository.retry(conn, job_id, utcnow()):
            job = await repository.get(conn, job_id)
            if job is None:
                raise ApiError(404, "not_found", f"No job {job_id}.")
            raise ApiError(409, "conflict", f"Job {job_id} is {job['status']}, not failed.")
        job = await repository.get(conn, job_id)
    assert job is not None
    return job

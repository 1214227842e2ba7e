"""Operator views of the queue (list jobs, retry failed ones) and the worker process, in both
modes. In scaled mode procrastinate's states are shown in Hakiki's words where they mean the
same (todo = queued, doing = running), as they are otherwise (cancelled, aborted)."""

from __future__ import annotations

from typing import Any

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.jobs import repository
from hakiki.core.jobs.registry import TASKS
from hakiki.core.jobs.scaled import repository as scaled

STATUSES = ("queued", "running", "succeeded", "failed", "cancelled", "aborted")
_FROM_PROCRASTINATE = {"todo": "queued", "doing": "running"}
_TO_PROCRASTINATE = {hakiki: theirs for theirs, hakiki in _FROM_PROCRASTINATE.items()}


async def list_jobs(
    db: Database, *, status: str | None = None, task: str | None = None, limit: int = 50
) -> list[dict[str, Any]]:
    async with read(db) as conn:
        if db.jobs_backend == "embedded":
            return await repository.list_jobs(conn, status, task, limit)
        theirs = _TO_PROCRASTINATE.get(status, status) if status else None
        return [_as_hakiki(row) for row in await scaled.list_jobs(conn, theirs, task, limit)]


async def get_job(db: Database, job_id: str) -> dict[str, Any] | None:
    async with read(db) as conn:
        if db.jobs_backend == "embedded":
            return await repository.get(conn, job_id)
        found = await scaled.get(conn, int(job_id)) if job_id.isdigit() else None
        return _as_hakiki(found) if found else None


async def retry_job(db: Database, job_id: str) -> dict[str, Any]:
    """Queue a failed job again with a fresh set of attempts."""
    if db.jobs_backend == "procrastinate":
        return await _retry_scaled(db, job_id)
    async with transaction(db) as conn:
        if not await repository.retry(conn, job_id, utcnow()):
            job = await repository.get(conn, job_id)
            if job is None:
                raise ApiError(404, "not_found", f"No job {job_id}.")
            raise ApiError(409, "conflict", f"Job {job_id} is {job['status']}, not failed.")
        job = await repository.get(conn, job_id)
    assert job is not None
    return job


async def _retry_scaled(db: Database, job_id: str) -> dict[str, Any]:
    async with transaction(db) as conn:
        found = await scaled.get(conn, int(job_id), lock=True) if job_id.isdigit() else None
        if found is None:
            raise ApiError(404, "not_found", f"No job {job_id}.")
        if found["status"] != "failed":
            status = _as_hakiki(found)["status"]
            raise ApiError(409, "conflict", f"Job {job_id} is {status}, not failed.")
        await scaled.retry_failed(conn, found["id"])
        found = await scaled.get(conn, found["id"])
    assert found is not None
    return _as_hakiki(found)


def _as_hakiki(row: dict[str, Any]) -> dict[str, Any]:
    task = TASKS.get(row["task_name"])
    running = row["status"] == "doing"
    return {
        "id": str(row["id"]),
        "task": row["task_name"],
        "payload": row["args"],
        "status": _FROM_PROCRASTINATE.get(row["status"], row["status"]),
        "attempts": row["attempts"] + running,  # like embedded mode: the running one counts
        "max_attempts": task.max_attempts if task else None,
        "run_after": row["scheduled_at"],
        "last_error": None,  # procrastinate keeps no error text: it is in the worker's log
        "created_at": row["created_at"],
        "finished_at": row["finished_at"],
    }

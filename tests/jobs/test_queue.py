"""The embedded queue on both databases: enqueue in the business transaction, retries with
backoff, final failure and operator retry, leases taken over after a crash."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.jobs import repository, service
from hakiki.core.jobs.queue import enqueue
from hakiki.core.jobs.worker import JobWorker
from hakiki.core.runtime import Runtime
from tests.jobs.sample_tasks import lines


@pytest.fixture
def worker(runtime: Runtime) -> JobWorker:
    """A worker the test drives by hand (``run_due``); the server's own worker also runs."""
    return JobWorker(runtime, lease_seconds=30)


async def job(db: Database, job_id: str) -> dict[str, Any]:
    async with read(db) as conn:
        found = await repository.get(conn, job_id)
    assert found is not None
    return found


async def queue(db: Database, task: str, payload: dict[str, Any]) -> str:
    async with transaction(db) as conn:
        return await enqueue(conn, task, payload)


async def wait_for(db: Database, job_id: str, status: str) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + 20
    while (found := await job(db, job_id))["status"] != status:
        assert asyncio.get_running_loop().time() < deadline, found
        await asyncio.sleep(0.05)
    return found


async def test_a_job_exists_only_if_its_transaction_commits(
    db: Database, runtime: Runtime, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    with pytest.raises(RuntimeError):
        async with transaction(db) as conn:
            rolled_back = await enqueue(conn, "test.record", {"log": str(log)})
            raise RuntimeError("the business write failed")
    async with read(db) as conn:
        assert await repository.get(conn, rolled_back) is None
    committed = await queue(db, "test.record", {"log": str(log)})
    done = await wait_for(db, committed, "succeeded")  # the server's worker ran it
    assert done["attempts"] == 1 and done["finished_at"] is not None
    assert lines(log) == [[committed, "1", "done"]]


async def test_unknown_tasks_are_refused_at_enqueue(db: Database) -> None:
    with pytest.raises(ValueError, match="unknown task"):
        await queue(db, "no.such.task", {})


async def test_failures_retry_with_backoff_then_succeed(db: Database, tmp_path: Path) -> None:
    log = tmp_path / "log"
    job_id = await queue(db, "test.flaky", {"log": str(log), "succeed_on": 3})
    await wait_for(db, job_id, "queued")  # attempt 1 failed, retried at once (backoff 0)
    second = await wait_for_attempts(db, job_id, 2)
    assert second["status"] == "queued" and "attempt 2 fails" in second["last_error"]
    assert as_utc(second["run_after"]) > utcnow() + timedelta(seconds=50)  # backoff 60 s
    async with transaction(db) as conn:  # let the clock "pass"
        await conn.execute(
            repository.jobs.update()
            .where(repository.jobs.c.id == job_id)
            .values(run_after=utcnow())
        )
    done = await wait_for(db, job_id, "succeeded")
    assert done["attempts"] == 3
    assert [line[2] for line in lines(log)] == ["failed", "failed", "done"]


async def wait_for_attempts(db: Database, job_id: str, attempts: int) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        found = await job(db, job_id)
        if found["attempts"] >= attempts and found["status"] != "running":
            return found
        assert asyncio.get_running_loop().time() < deadline, found
        await asyncio.sleep(0.05)


async def test_exhausted_and_permanent_failures_can_be_retried(
    db: Database, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    refused = await queue(db, "test.permanent", {"log": str(log)})
    failed = await wait_for(db, refused, "failed")
    assert failed["attempts"] == 1 and failed["last_error"] == "this can never work"
    assert [j["id"] for j in await service.list_jobs(db, status="failed", task="test.permanent")][
        :1
    ] == [refused]
    again = await service.retry_job(db, refused)
    assert again["status"] == "queued" and again["attempts"] == 0
    await wait_for(db, refused, "failed")
    assert len(lines(log)) == 2
    with pytest.raises(ApiError) as not_failed:
        await service.retry_job(db, await queue(db, "test.record", {"log": str(log)}))
    assert not_failed.value.status_code in (409,)
    with pytest.raises(ApiError) as missing:
        await service.retry_job(db, "job_nope")
    assert missing.value.status_code == 404


async def test_an_expired_lease_is_taken_over_and_the_stale_holder_cannot_finish(
    db: Database, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    # Claim by hand with a lease already expired, as a process that died mid-job leaves it.
    async with transaction(db) as conn:
        job_id = await enqueue(conn, "test.record", {"log": str(log)}, delay_seconds=3600)
        await conn.execute(
            repository.jobs.update()
            .where(repository.jobs.c.id == job_id)
            .values(
                status="running",
                attempts=1,
                lease_token="lease_dead",
                lease_until=utcnow() - timedelta(seconds=1),
            )
        )
    done = await wait_for(db, job_id, "succeeded")
    assert done["attempts"] == 2
    assert lines(log) == [[job_id, "2", "done"]]
    async with transaction(db) as conn:
        assert not await repository.finish(conn, job_id, "lease_dead", utcnow(), status="failed")
    assert (await job(db, job_id))["status"] == "succeeded"


async def test_many_jobs_each_run_exactly_once(
    db: Database, worker: JobWorker, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    async with transaction(db) as conn:
        ids = [await enqueue(conn, "test.record", {"log": str(log)}) for _ in range(40)]
    # The server's worker (4 loops) and this one race for the same jobs.
    await asyncio.gather(worker.run_due(), worker.run_due())
    for job_id in ids:
        await wait_for(db, job_id, "succeeded")
    ran = [line[0] for line in lines(log)]
    assert sorted(ran) == sorted(ids)

"""Scaled mode (HAKIKI_JOBS_BACKEND=procrastinate) on PostgreSQL, with a real `hakiki worker`
process: enqueue in the business transaction, retries with the task's backoff, failure after
the last attempt, the operator's list and retry. The fault tests are in test_faults.py."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from pydantic import ValidationError

from hakiki.core.database import create_database, read, transaction
from hakiki.core.jobs import repository, service
from hakiki.core.jobs.queue import enqueue
from hakiki.core.jobs.registry import TASKS, PermanentError
from hakiki.core.jobs.scaled.schema import ensure_schema
from hakiki.core.jobs.scaled.worker import Backoff
from hakiki.core.migrate import pending
from hakiki.core.settings import Settings
from hakiki.runtime import started
from tests.jobs.sample_tasks import lines
from tests.support.databases import isolated_settings
from tests.support.job_processes import (
    output_at_exit,
    queue,
    run,
    start,
    stop,
    wait_for_line,
    wait_for_status,
)

pytestmark = pytest.mark.processes


@pytest_asyncio.fixture(scope="module")
async def scaled(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Settings]:
    """A database of the module's own in procrastinate mode, with one worker running."""
    settings = await isolated_settings(
        "postgresql",
        tmp_path_factory.mktemp("procrastinate"),
        "procrastinate",
        jobs_backend="procrastinate",
    )
    worker = start(settings, "worker")
    try:
        wait_for_line(worker, "worker started")
        yield settings
    finally:
        stop(worker, signal.SIGTERM)
    assert worker.returncode == 0


async def job(settings: Settings, job_id: str) -> dict[str, object] | None:
    db = create_database(settings)
    try:
        return await service.get_job(db, job_id)
    finally:
        await db.dispose()


def test_procrastinate_is_refused_on_sqlite(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="procrastinate needs PostgreSQL"):
        Settings(data_dir=tmp_path, jobs_backend="procrastinate")
    embedded = Settings(data_dir=tmp_path)
    worker = start(embedded, "worker", HAKIKI_JOBS_BACKEND="procrastinate")
    output = output_at_exit(worker)
    assert worker.returncode == 1
    assert "HAKIKI_JOBS_BACKEND=procrastinate needs PostgreSQL" in output


def test_the_retry_policy_follows_the_task() -> None:
    from procrastinate.jobs import Job

    policy = Backoff(TASKS["test.flaky"])  # 3 attempts, backoff (0, 60)

    def delay(attempts_ended: int, error: BaseException) -> float | None:
        job = Job(queue="default", lock=None, queueing_lock=None, task_name="test.flaky")
        decision = policy.get_retry_decision(
            exception=error, job=job.evolve(attempts=attempts_ended)
        )
        if decision is None:
            return None
        assert decision.retry_at is not None
        return round((decision.retry_at - datetime.now(decision.retry_at.tzinfo)).total_seconds())

    assert delay(0, RuntimeError()) == 0
    assert delay(1, RuntimeError()) == 60
    assert delay(2, RuntimeError()) is None  # the third attempt was the last
    assert delay(0, PermanentError()) is None
    assert delay(2, asyncio.CancelledError()) == 0  # cut by a clean shutdown: again at once


@pytest.mark.postgresql
async def test_the_schema_is_applied_once(scaled: Settings) -> None:
    assert await ensure_schema(scaled) is False  # `hakiki migrate` already applied it
    assert await asyncio.to_thread(pending, scaled) is False


@pytest.mark.postgresql
async def test_a_job_exists_only_if_its_transaction_commits(
    scaled: Settings, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    db = create_database(scaled)
    try:
        with pytest.raises(RuntimeError):
            async with transaction(db) as conn:
                rolled_back = await enqueue(conn, "test.record", {"log": str(log)})
                raise RuntimeError("the business write failed")
        assert await service.get_job(db, rolled_back) is None
        async with transaction(db) as conn:
            committed = await enqueue(conn, "test.record", {"log": str(log)})
        async with read(db) as conn:
            assert await repository.get(conn, committed) is None  # not in the embedded table
    finally:
        await db.dispose()
    await wait_for_status(scaled, [committed])  # run by the worker process
    assert lines(log) == [[committed, "1", "done"]]
    done = await job(scaled, committed)
    assert done is not None and done["attempts"] == 1 and done["finished_at"] is not None


@pytest.mark.postgresql
async def test_a_delayed_job_waits(scaled: Settings, tmp_path: Path) -> None:
    db = create_database(scaled)
    try:
        async with transaction(db) as conn:
            job_id = await enqueue(
                conn, "test.record", {"log": str(tmp_path / "l")}, delay_seconds=60
            )
    finally:
        await db.dispose()
    found = await job(scaled, job_id)
    assert found is not None and found["status"] == "queued"
    run_after = found["run_after"]
    assert isinstance(run_after, datetime)
    assert run_after - datetime.now(run_after.tzinfo) > timedelta(seconds=50)


@pytest.mark.postgresql
async def test_failures_retry_with_backoff_then_succeed(scaled: Settings, tmp_path: Path) -> None:
    log = tmp_path / "log"
    [job_id] = await queue(scaled, "test.flaky", [{"log": str(log), "succeed_on": 2}])
    await wait_for_status(scaled, [job_id])
    assert lines(log) == [[job_id, "1", "failed"], [job_id, "2", "done"]]
    done = await job(scaled, job_id)
    assert done is not None and done["attempts"] == 2


@pytest.mark.postgresql
async def test_a_permanent_error_fails_at_once(scaled: Settings, tmp_path: Path) -> None:
    log = tmp_path / "log"
    [job_id] = await queue(scaled, "test.permanent", [{"log": str(log)}])
    await wait_for_status(scaled, [job_id], "failed")
    assert lines(log) == [[job_id, "1", "refused"]]


@pytest.mark.postgresql
async def test_an_exhausted_job_fails_then_the_operator_retries_it(
    scaled: Settings, tmp_path: Path
) -> None:
    log, broken = tmp_path / "log", tmp_path / "broken"
    broken.touch()
    [job_id] = await queue(scaled, "test.until_fixed", [{"log": str(log), "broken": str(broken)}])
    await wait_for_status(scaled, [job_id], "failed")
    assert lines(log) == [[job_id, "1", "failed"], [job_id, "2", "failed"]]

    listed = run(scaled, "jobs", "list", "--status", "failed", "--json")
    assert listed.returncode == 0, listed.stderr
    failed = {row["id"]: row for row in map(json.loads, listed.stdout.splitlines())}
    assert failed[job_id]["task"] == "test.until_fixed"
    assert (failed[job_id]["attempts"], failed[job_id]["max_attempts"]) == (2, 2)

    broken.unlink()  # the operator fixes the cause
    retried = run(scaled, "jobs", "retry", job_id)
    assert retried.returncode == 0, retried.stderr
    assert f"{job_id} queued again" in retried.stdout
    await wait_for_status(scaled, [job_id])
    assert lines(log)[2:] == [[job_id, "1", "done"]]  # a fresh set of attempts

    again = run(scaled, "jobs", "retry", job_id)
    assert again.returncode == 1 and "is succeeded, not failed" in again.stderr
    unknown = run(scaled, "jobs", "retry", "987654321")
    assert unknown.returncode == 1 and "No job 987654321" in unknown.stderr


@pytest.mark.postgresql
async def test_servers_never_run_the_embedded_worker(scaled: Settings) -> None:
    async with started(scaled, run_jobs=True) as runtime:
        assert runtime.jobs is None

"""Fault tests with real processes: a worker killed mid-job, a server killed with jobs queued,
in embedded mode on both databases and in procrastinate mode (where `hakiki worker` processes,
not servers, run the jobs). Nothing is lost and nothing completes twice."""

from __future__ import annotations

import signal
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from hakiki.core.settings import Settings
from tests.jobs.sample_tasks import lines
from tests.support.cli import free_port
from tests.support.databases import isolated_settings
from tests.support.job_processes import (
    queue,
    start,
    stop,
    wait_for_line,
    wait_for_log,
    wait_for_status,
)

# Fault injection (processes killed mid-job): alone.
pytestmark = [pytest.mark.alone, pytest.mark.processes]

# (database, job backend)
MODES = [
    pytest.param(("sqlite", "embedded"), id="sqlite"),
    pytest.param(("postgresql", "embedded"), id="postgresql", marks=pytest.mark.postgresql),
    pytest.param(("postgresql", "procrastinate"), id="procrastinate", marks=pytest.mark.postgresql),
]


def start_job_runner(settings: Settings, port: str) -> subprocess.Popen[str]:
    """What runs the jobs: the server in embedded mode, a worker in procrastinate mode."""
    if settings.jobs_backend == "procrastinate":
        runner, ready = start(settings, "worker"), "worker started"
    else:
        runner, ready = start(settings, "serve", "--port", port), "Application startup complete"
    try:
        wait_for_line(runner, ready)
    except BaseException:
        stop(runner, signal.SIGKILL)
        raise
    return runner


@pytest.mark.parametrize("mode", MODES)
async def test_a_job_of_a_killed_worker_completes_exactly_once(
    mode: tuple[str, str], tmp_path: Path
) -> None:
    backend, jobs_backend = mode
    settings = await isolated_settings(
        backend, tmp_path / "data", "faults_worker", jobs_backend=jobs_backend
    )
    log = tmp_path / "log"
    first = start(settings, "worker")
    try:
        wait_for_line(first, "worker started")
        payload = {"log": str(log), "seconds": 0, "first_attempt_seconds": 600}
        [job_id] = await queue(settings, "test.slow", [payload])
        await wait_for_log(log, "started")
    finally:
        stop(first, signal.SIGKILL)  # mid-job: no chance to give the job back
    second = start(settings, "worker")
    try:
        wait_for_line(second, "worker started")
        await wait_for_status(settings, [job_id])
    finally:
        stop(second)
    assert lines(log) == [
        [job_id, "1", "started"],
        [job_id, "2", "started"],
        [job_id, "2", "done"],
    ]
    assert second.returncode == 0


@pytest.mark.parametrize("mode", MODES)
async def test_a_job_whose_worker_dies_on_its_last_attempt_fails_and_its_task_gives_up(
    mode: tuple[str, str], tmp_path: Path
) -> None:
    """The task's give-up (a webhook delivery ends failed, a bulk scan ends failed) runs once
    when the job can no longer run, in either backend."""
    backend, jobs_backend = mode
    settings = await isolated_settings(
        backend, tmp_path / "data", "faults_give_up", jobs_backend=jobs_backend
    )
    log = tmp_path / "log"
    first = start(settings, "worker")
    try:
        wait_for_line(first, "worker started")
        [job_id] = await queue(settings, "test.slow_once", [{"log": str(log), "seconds": 30}])
        await wait_for_log(log, "started")
    finally:
        stop(first, signal.SIGKILL)
    second = start(settings, "worker")
    try:
        wait_for_line(second, "worker started")
        await wait_for_status(settings, [job_id], "failed")
    finally:
        stop(second)
    assert [line[0] for line in lines(log)] == [job_id, "give-up"]
    assert lines(log)[1][2].startswith("process_died")


@pytest.mark.parametrize("mode", MODES)
async def test_a_server_killed_with_jobs_queued_loses_none(
    mode: tuple[str, str], tmp_path: Path
) -> None:
    backend, jobs_backend = mode
    settings = await isolated_settings(
        backend, tmp_path / "data", "faults_server", jobs_backend=jobs_backend
    )
    log = tmp_path / "log"
    payloads = [{"log": str(log), "seconds": 0.3} for _ in range(12)]
    port = str(free_port())
    runner = start_job_runner(settings, port)
    try:
        ids = await queue(settings, "test.slow", payloads)
        await wait_for_log(log, "started")
    finally:
        stop(runner, signal.SIGKILL)
    ids += await queue(settings, "test.slow", payloads[:4])  # queued while nothing runs jobs
    runner = start_job_runner(settings, port)
    try:
        await wait_for_status(settings, ids)
    finally:
        stop(runner)
    done = Counter(line[0] for line in lines(log) if line[2] == "done")
    assert done == dict.fromkeys(ids, 1)  # every job completed, none twice

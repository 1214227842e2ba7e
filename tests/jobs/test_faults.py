"""Fault tests with real processes: a worker killed mid-job, a server killed with jobs queued,
the database going away for a moment. Nothing is lost and nothing completes twice."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hakiki.core.database import create_database, read, transaction
from hakiki.core.settings import Settings
from hakiki.jobs import repository
from hakiki.jobs.queue import enqueue
from tests.jobs.sample_tasks import lines
from tests.support.databases import isolated_settings, process_env
from tests.test_cli import _free_port as free_port

# `hakiki` with the test tasks registered, as a real process.
HAKIKI_WITH_TEST_TASKS = [
    sys.executable,
    "-c",
    "import sys; import tests.jobs.sample_tasks; from hakiki.cli import main; main()",
]
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
ROOT = Path(__file__).resolve().parents[2]


def start(settings: Settings, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*HAKIKI_WITH_TEST_TASKS, *args],
        env=process_env(settings, HAKIKI_JOB_LEASE_SECONDS="2", **env),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for_line(process: subprocess.Popen[str], text: str, timeout: float = 120) -> None:
    assert process.stdout is not None
    seen = ""
    deadline = time.monotonic() + timeout
    while text not in seen:
        assert time.monotonic() < deadline, seen
        line = process.stdout.readline()
        assert line or process.poll() is None, seen
        seen += line


async def queue(settings: Settings, task: str, payloads: list[dict[str, Any]]) -> list[str]:
    db = create_database(settings)
    try:
        async with transaction(db) as conn:
            return [await enqueue(conn, task, payload) for payload in payloads]
    finally:
        await db.dispose()


async def statuses(settings: Settings, ids: list[str]) -> dict[str, str]:
    db = create_database(settings)
    try:
        async with read(db) as conn:
            return {i: (await repository.get(conn, i) or {}).get("status", "?") for i in ids}
    finally:
        await db.dispose()


async def wait_until_done(settings: Settings, ids: list[str]) -> None:
    deadline = time.monotonic() + 90
    while set((found := await statuses(settings, ids)).values()) != {"succeeded"}:
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.2)


async def wait_for_log(log: Path, outcome: str) -> None:
    deadline = time.monotonic() + 60
    while not any(line[2] == outcome for line in lines(log)):
        assert time.monotonic() < deadline, lines(log)
        await asyncio.sleep(0.05)


def stop(process: subprocess.Popen[str], signum: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(signum)
    process.wait(timeout=30)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_job_of_a_killed_worker_completes_exactly_once(
    backend: str, tmp_path: Path
) -> None:
    settings = await isolated_settings(backend, tmp_path / "data", "faults_worker")
    log = tmp_path / "log"
    first = start(settings, "worker")
    try:
        wait_for_line(first, "worker started")
        [job_id] = await queue(settings, "test.slow", [{"log": str(log), "seconds": 3}])
        await wait_for_log(log, "started")
    finally:
        stop(first, signal.SIGKILL)  # mid-job: no chance to give the job back
    second = start(settings, "worker")
    try:
        wait_for_line(second, "worker started")
        await wait_until_done(settings, [job_id])
    finally:
        stop(second)
    assert lines(log) == [
        [job_id, "1", "started"],
        [job_id, "2", "started"],
        [job_id, "2", "done"],
    ]
    assert second.returncode == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_server_killed_with_jobs_queued_loses_none(backend: str, tmp_path: Path) -> None:
    settings = await isolated_settings(backend, tmp_path / "data", "faults_server")
    log = tmp_path / "log"
    payloads = [{"log": str(log), "seconds": 0.3} for _ in range(12)]
    port = str(free_port())
    server = start(settings, "serve", "--port", port)
    try:
        wait_for_line(server, "Application startup complete")
        ids = await queue(settings, "test.slow", payloads)
        await wait_for_log(log, "started")
    finally:
        stop(server, signal.SIGKILL)
    ids += await queue(settings, "test.slow", payloads[:4])  # queued while the server is down
    server = start(settings, "serve", "--port", port)
    try:
        wait_for_line(server, "Application startup complete")
        await wait_until_done(settings, ids)
    finally:
        stop(server)
    done = Counter(line[0] for line in lines(log) if line[2] == "done")
    assert done == dict.fromkeys(ids, 1)  # every job completed, none twice

"""`hakiki` as real processes with the test tasks registered, and waits on their jobs: shared
by the fault tests and the procrastinate tests."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import Any

from hakiki.core.database import create_database, transaction
from hakiki.core.jobs import service
from hakiki.core.jobs.queue import enqueue
from hakiki.core.settings import Settings
from tests.jobs.sample_tasks import lines
from tests.support.databases import process_env
from tests.support.process_output import Output

# `hakiki` with the test tasks registered, as a real process.
HAKIKI_WITH_TEST_TASKS = [
    sys.executable,
    "-c",
    "import sys; import tests.jobs.sample_tasks; from hakiki.cli import main; main()",
]


def _with_test_tasks(before: str) -> list[str]:
    """The command, with Python statements run before `hakiki` starts (tests.support.halt)."""
    if not before:
        return HAKIKI_WITH_TEST_TASKS
    python, flag, program = HAKIKI_WITH_TEST_TASKS
    return [python, flag, f"{before}; {program}"]


ROOT = Path(__file__).resolve().parents[2]


_OUTPUTS: weakref.WeakKeyDictionary[subprocess.Popen[str], Output] = weakref.WeakKeyDictionary()


def start(settings: Settings, *args: str, before: str = "", **env: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [*_with_test_tasks(before), *args],
        env=process_env(settings, HAKIKI_JOB_LEASE_SECONDS="2", **env),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    _OUTPUTS[process] = Output(process)
    return process


def run(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a `hakiki` command to its end (``jobs list``, ``jobs retry``)."""
    return subprocess.run(
        [*HAKIKI_WITH_TEST_TASKS, *args],
        env=process_env(settings),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def wait_for_line(process: subprocess.Popen[str], text: str, timeout: float = 120) -> None:
    _OUTPUTS[process].wait_for(text, timeout)


def output_at_exit(process: subprocess.Popen[str], timeout: float = 60) -> str:
    """Everything a process started by :func:`start` wrote, once it has ended."""
    process.wait(timeout=timeout)
    return _OUTPUTS[process].rest()


def stop(process: subprocess.Popen[str], signum: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(signum)
    process.wait(timeout=30)


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
        return {i: (await service.get_job(db, i) or {}).get("status", "?") for i in ids}
    finally:
        await db.dispose()


async def wait_for_status(
    settings: Settings, ids: list[str], status: str = "succeeded", within: float = 90
) -> None:
    deadline = time.monotonic() + within
    while set((found := await statuses(settings, ids)).values()) != {status}:
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.2)


async def wait_for_log(log: Path, outcome: str) -> None:
    deadline = time.monotonic() + 60
    while not any(line[2] == outcome for line in lines(log)):
        assert time.monotonic() < deadline, lines(log)
        await asyncio.sleep(0.05)

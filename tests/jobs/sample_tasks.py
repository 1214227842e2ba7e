"""Tasks for the queue's tests. Each appends one line per attempt to the file its payload names
(job id, attempt, outcome, process id), so a test (or another process) can count executions."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from hakiki.core.jobs.registry import JobContext, PermanentError, task


def record(context: JobContext, payload: dict[str, Any], outcome: str) -> None:
    with Path(payload["log"]).open("a") as log:
        log.write(f"{context.job_id} {context.attempt} {outcome} {os.getpid()}\n")


@task("test.record", max_attempts=3, backoff=(0,))
async def record_task(context: JobContext, payload: dict[str, Any]) -> None:
    record(context, payload, "done")


@task("test.flaky", max_attempts=3, backoff=(0, 60))
async def flaky_task(context: JobContext, payload: dict[str, Any]) -> None:
    """Fails until attempt ``succeed_on``."""
    if context.attempt < payload["succeed_on"]:
        record(context, payload, "failed")
        raise RuntimeError(f"attempt {context.attempt} fails")
    record(context, payload, "done")


def broken(payload: dict[str, Any]) -> bool:
    return Path(payload["broken"]).exists()


@task("test.until_fixed", max_attempts=2, backoff=(0,))
async def until_fixed_task(context: JobContext, payload: dict[str, Any]) -> None:
    """Fails while the file ``broken`` exists (until an operator fixes the cause)."""
    if broken(payload):
        record(context, payload, "failed")
        raise RuntimeError("still broken")
    record(context, payload, "done")


@task("test.permanent", max_attempts=5)
async def permanent_task(context: JobContext, payload: dict[str, Any]) -> None:
    record(context, payload, "refused")
    raise PermanentError("this can never work")


@task("test.slow", max_attempts=3, backoff=(0,))
async def slow_task(context: JobContext, payload: dict[str, Any]) -> None:
    """Records its start, sleeps, then records its end: a kill in between leaves a start only.
    ``first_attempt_seconds``, if given, is the first attempt's sleep (one that outlasts any
    wait for its kill)."""
    record(context, payload, "started")
    first = payload.get("first_attempt_seconds", payload["seconds"])
    await asyncio.sleep(first if context.attempt == 1 else payload["seconds"])
    record(context, payload, "done")


async def _note_give_up(runtime: Any, conn: Any, payload: dict[str, Any], error: str) -> None:
    _append(payload, f"give-up 0 {error.replace(' ', '_')} {os.getpid()}")


def _append(payload: dict[str, Any], line: str) -> None:
    with Path(payload["log"]).open("a") as log:
        log.write(line + "\n")


@task("test.slow_once", max_attempts=1, on_give_up=_note_give_up)
async def slow_once_task(context: JobContext, payload: dict[str, Any]) -> None:
    """``test.slow`` with a single attempt whose task notes its give-up."""
    await slow_task(context, payload)


def entries(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


def lines(log: Path) -> list[list[str]]:
    """Job id, attempt and outcome of each line."""
    return [entry[:3] for entry in entries(log)]


def pids(log: Path) -> set[int]:
    """The processes that ran the jobs."""
    return {int(entry[3]) for entry in entries(log)}

"""The embedded worker: asyncio loops in the server (or in `hakiki worker`) that claim due jobs
with a lease, run their handlers, and store the outcome. A job whose process died is claimed
again when its lease expires, so it still completes; handlers are idempotent."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from hakiki.core.clock import utcnow
from hakiki.core.database import transaction
from hakiki.core.ids import new_id
from hakiki.core.jobs import repository
from hakiki.core.jobs.registry import TASKS, JobContext, PermanentError, Task

if TYPE_CHECKING:
    from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.jobs")


class JobWorker:
    def __init__(
        self,
        runtime: Runtime,
        *,
        concurrency: int = 4,
        lease_seconds: float = 30,
        poll_seconds: float = 0.5,
    ) -> None:
        self._runtime = runtime
        self._concurrency = concurrency
        self._lease = timedelta(seconds=lease_seconds)
        self._poll = poll_seconds
        self._wake = asyncio.Event()
        self._loops: list[asyncio.Task[None]] = []
        self._held: set[str] = set()  # lease tokens of the jobs running here

    async def start(self) -> None:
        self._loops = [
            asyncio.create_task(self._loop(), name=f"job-worker-{n}")
            for n in range(self._concurrency)
        ]

    async def stop(self) -> None:
        """Stop; jobs cut short go back to the queue at once, their attempt not counted (if
        the database cannot be reached, they are claimed again when their lease expires)."""
        for loop in self._loops:
            loop.cancel()
        for loop in self._loops:
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        self._loops = []
        if self._held:
            try:
                async with transaction(self._runtime.db) as conn:
                    await repository.give_back(conn, sorted(self._held), utcnow())
            except Exception:
                logger.exception("could not give back %d interrupted jobs", len(self._held))
            self._held.clear()

    def wake(self) -> None:
        """Look for work now (called after a transaction that enqueued a job commits)."""
        self._wake.set()

    async def run_due(self) -> int:
        """Run jobs until none is due; return how many attempts ran (for tests and the CLI)."""
        ran = 0
        while await self._run_next():
            ran += 1
        return ran

    async def _loop(self) -> None:
        while True:
            try:
                found = await self._run_next()
            except Exception:  # the database is down, say: keep going, a little slower
                logger.exception("job worker could not claim; retrying")
                found = False
            if not found:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._poll)
                self._wake.clear()

    async def _run_next(self) -> bool:
        token = new_id("lease")
        now = utcnow()
        async with transaction(self._runtime.db) as conn:
            job = await repository.claim(conn, now, now + self._lease, token)
        if job is None:
            return False
        self._held.add(token)
        await self._run(job, token)
        self._held.discard(token)
        return True

    async def _run(self, job: dict[str, Any], token: str) -> None:
        task = TASKS.get(job["task"])
        if task is None:
            await self._finish(job, token, status="failed", error="unknown task")
            return
        if job["attempts"] > job["max_attempts"]:  # earlier claims died with their process
            await self._give_up(job, token, task, "process died on every attempt")
            return
        context = JobContext(self._runtime, job["id"], job["attempts"], task)
        heartbeat = asyncio.create_task(self._heartbeat(job["id"], token))
        try:
            await task.handler(context, job["payload"])
        except PermanentError as error:
            await self._give_up(job, token, task, str(error))
        except Exception as error:
            logger.warning(
                "job %s (%s) attempt %d failed: %r", job["id"], task.name, job["attempts"], error
            )
            await self._after_failure(job, token, task, repr(error))
        else:
            await self._finish(job, token, status="succeeded")
        finally:
            heartbeat.cancel()

    async def _after_failure(self, job: dict[str, Any], token: str, task: Task, error: str) -> None:
        if job["attempts"] >= job["max_attempts"]:
            await self._give_up(job, token, task, error)
            return
        run_after = utcnow() + timedelta(seconds=task.delay_after(job["attempts"]))
        await self._finish(job, token, status="queued", error=error, run_after=run_after)

    async def _finish(
        self, job: dict[str, Any], token: str, *, status: str, error: str | None = None, **more: Any
    ) -> None:
        now = utcnow()
        values: dict[str, Any] = {"status": status, "last_error": error, **more}
        if status in repository.FINAL:
            values["finished_at"] = now
        async with transaction(self._runtime.db) as conn:
            if not await repository.finish(conn, job["id"], token, now, **values):
                logger.warning("job %s was taken over after its lease expired", job["id"])

    async def _give_up(self, job: dict[str, Any], token: str, task: Task, error: str) -> None:
        """End the job failed and let its task close its business record in one transaction:
        no reader sees one ended without the other, and a crash before the commit leaves both
        to the next claim."""
        now = utcnow()
        async with transaction(self._runtime.db) as conn:
            if not await repository.finish(
                conn, job["id"], token, now, status="failed", last_error=error, finished_at=now
            ):
                logger.warning("job %s was taken over after its lease expired", job["id"])
            elif task.on_give_up is not None:
                await task.on_give_up(self._runtime, conn, job["payload"], error)

    async def _heartbeat(self, job_id: str, token: str) -> None:
        while True:
            await asyncio.sleep(self._lease.total_seconds() / 3)
            with contextlib.suppress(Exception):
                async with transaction(self._runtime.db) as conn:
                    await repository.extend_lease(conn, job_id, token, utcnow() + self._lease)


def job_worker(runtime: Runtime) -> JobWorker:
    """A worker configured from the runtime's settings."""
    settings = runtime.settings
    return JobWorker(
        runtime,
        concurrency=settings.job_concurrency,
        lease_seconds=settings.job_lease_seconds,
    )

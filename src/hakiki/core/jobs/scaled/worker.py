"""``hakiki worker`` in scaled mode: one procrastinate task per Hakiki task, retries that follow
the task's backoff, and jobs of dead workers (no heartbeat for a lease) run again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from procrastinate import App, BaseRetryStrategy, RetryDecision
from procrastinate import JobContext as ProcrastinateContext
from procrastinate.jobs import Job

from hakiki.core.database import transaction
from hakiki.core.jobs.registry import TASKS, JobContext, PermanentError, Task
from hakiki.core.jobs.scaled import repository
from hakiki.core.jobs.scaled.connection import procrastinate_app

if TYPE_CHECKING:
    from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.jobs")

POLL_SECONDS = 1.0  # retries and delayed jobs are found by polling; new jobs by LISTEN/NOTIFY
RESTART_SECONDS = 1.0  # after procrastinate's worker stopped on its own (database gone)
DIED_ON_LAST_ATTEMPT = "process died on its last attempt"


class Backoff(BaseRetryStrategy):
    """The Hakiki task's policy: its backoff between attempts, at most ``max_attempts``,
    never again after a PermanentError; a job cut by a clean shutdown runs again at once."""

    def __init__(self, task: Task) -> None:
        self.task = task

    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        if isinstance(exception, asyncio.CancelledError):
            return RetryDecision(retry_in={"seconds": 0})
        attempt = job.attempts + 1  # procrastinate counts the attempts that have ended
        if isinstance(exception, PermanentError) or attempt >= self.task.max_attempts:
            return None
        return RetryDecision(retry_in={"seconds": self.task.delay_after(attempt)})


def build_app(runtime: Runtime) -> App:
    app = procrastinate_app(runtime.settings, pool_size=runtime.settings.job_concurrency + 2)
    for task in TASKS.values():
        app.task(name=task.name, pass_context=True, retry=Backoff(task))(_handler(runtime, task))
    return app


def _handler(runtime: Runtime, task: Task) -> Callable[..., Any]:
    async def run(context: ProcrastinateContext, **payload: Any) -> None:
        job = context.job
        attempt = job.attempts + 1
        try:
            await task.handler(JobContext(runtime, str(job.id), attempt, task), payload)
        except Exception as error:
            last = isinstance(error, PermanentError) or attempt >= task.max_attempts
            if last and task.on_give_up is not None:
                reason = str(error) if isinstance(error, PermanentError) else repr(error)
                async with transaction(runtime.db) as conn:
                    await task.on_give_up(runtime, conn, payload, reason)
            raise

    return run


async def run(runtime: Runtime, stop: asyncio.Event, on_ready: Callable[[], None]) -> None:
    """Run jobs until ``stop`` is set; a running job is cut and queued again at once."""
    lease = runtime.settings.job_lease_seconds
    app = build_app(runtime)
    async with app.open_async():
        reaper = asyncio.create_task(_requeue_jobs_of_dead_workers(runtime, lease))
        on_ready()
        try:
            while not stop.is_set():
                worker = asyncio.create_task(
                    app.run_worker_async(
                        concurrency=runtime.settings.job_concurrency,
                        install_signal_handlers=False,
                        fetch_job_polling_interval=POLL_SECONDS,
                        update_heartbeat_interval=lease / 3,
                        stalled_worker_timeout=lease,
                        shutdown_graceful_timeout=0,
                    )
                )
                stopping = asyncio.create_task(stop.wait())
                await asyncio.wait({worker, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if not worker.done():
                    worker.cancel()  # procrastinate's graceful stop: cut jobs are retried
                try:
                    await worker
                except asyncio.CancelledError:
                    pass
                except Exception:
                    logger.exception("the procrastinate worker failed")
                if not stop.is_set():
                    logger.warning("the procrastinate worker stopped; starting it again")
                    await asyncio.sleep(RESTART_SECONDS)
        finally:
            reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reaper


async def _requeue_jobs_of_dead_workers(runtime: Runtime, lease: float) -> None:
    """procrastinate records worker heartbeats but leaves the jobs of a dead worker in
    ``doing``: every third of a lease, queue them again (or fail them when that was their last
    attempt), in one transaction so that two workers never both take the same job back."""
    while True:
        await asyncio.sleep(lease / 3)
        try:
            await requeue_jobs_of_dead_workers(runtime, lease)
        except Exception:
            logger.exception("could not look for jobs of dead workers; retrying")


async def requeue_jobs_of_dead_workers(runtime: Runtime, lease: float) -> int:
    async with transaction(runtime.db) as conn:
        jobs = await repository.jobs_of_dead_workers(conn, lease)
        for job in jobs:
            task = TASKS.get(job["task_name"])
            if task is not None and job["attempts"] + 1 >= task.max_attempts:
                logger.warning("job %s: its process died on its last attempt", job["id"])
                await repository.fail(conn, job["id"])
                if task.on_give_up is not None:  # its business record ends with the job
                    await task.on_give_up(runtime, conn, dict(job["args"]), DIED_ON_LAST_ATTEMPT)
            else:
                logger.warning("job %s: its worker died; queued again", job["id"])
                await repository.requeue(conn, job["id"])
    return len(jobs)

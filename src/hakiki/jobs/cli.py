"""``hakiki worker`` and ``hakiki jobs list|retry``."""

from __future__ import annotations

import asyncio
import json
import signal

import click

from hakiki.cli_support import run_with_db
from hakiki.core.settings import get_settings
from hakiki.jobs import service


@click.command("worker")
def worker() -> None:
    """Run jobs (pending verifications, webhook deliveries, ...) until stopped (SIGTERM or
    Ctrl-C). Any number of workers may share one database; set HAKIKI_JOBS_IN_SERVER=false to
    keep the servers out of it (with HAKIKI_JOBS_BACKEND=procrastinate only workers run jobs)."""
    asyncio.run(_work_until_stopped())


async def _work_until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await service.work(get_settings(), stop, lambda: click.echo("worker started", err=True))
    click.echo("worker stopped", err=True)


@click.group("jobs")
def jobs_group() -> None:
    """Inspect and retry durable jobs."""


@jobs_group.command("list")
@click.option("--status", type=click.Choice(service.STATUSES), help="Only jobs in this state.")
@click.option("--task", help="Only jobs of this task.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--json", "as_json", is_flag=True, help="JSON lines.")
def jobs_list(status: str | None, task: str | None, limit: int, as_json: bool) -> None:
    """The newest jobs, with their state, attempts and last error."""
    rows = run_with_db(lambda db: service.list_jobs(db, status=status, task=task, limit=limit))
    for job in rows:
        if as_json:
            click.echo(json.dumps(job, default=str))
        else:
            error = f"  {job['last_error']}" if job["last_error"] else ""
            most = job["max_attempts"] or "?"
            click.echo(
                f"{job['id']}  {job['task']:<28} {job['status']:<9} {job['attempts']}/{most}{error}"
            )


@jobs_group.command("retry")
@click.argument("job_id")
def jobs_retry(job_id: str) -> None:
    """Queue a failed job again, with a fresh set of attempts."""
    job = run_with_db(lambda db: service.retry_job(db, job_id))
    click.echo(f"{job['id']} queued again")

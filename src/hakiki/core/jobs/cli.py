"""``hakiki jobs list|retry``."""

from __future__ import annotations

import json

import click

from hakiki.core.cli_support import run_with_db
from hakiki.core.jobs import service


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

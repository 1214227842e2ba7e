"""The jobs table of the embedded queue (in the app's own database)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Index, Integer, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

jobs = Table(
    "jobs",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("task", String(100), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # queued | running | succeeded | failed
    Column("attempts", Integer, nullable=False),  # claims so far, crashed ones included
    Column("max_attempts", Integer, nullable=False),
    Column("run_after", UtcDateTime(), nullable=False),
    Column("lease_until", UtcDateTime()),
    Column("lease_token", String(40)),  # who holds the claim; a stale holder cannot finish it
    Column("last_error", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("finished_at", UtcDateTime()),
    Index("ix_jobs_status_run_after", "status", "run_after"),
)

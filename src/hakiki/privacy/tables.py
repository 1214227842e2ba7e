"""Subject requests (their receipts and exports) and retention policies with the record of
what each housekeeping run purged (issue 40)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, ForeignKey, Index, Integer, LargeBinary, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

subject_requests = Table(
    "privacy_subject_requests",
    metadata,
    Column("id", String(40), primary_key=True),  # dsr_...
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("api_key_id", String(40), nullable=False),
    Column("kind", String(10), nullable=False),  # access | erasure
    Column("status", String(12), nullable=False),  # queued | completed | failed
    # The identifiers asked about, encrypted; removed once the request is done.
    Column("subject_encrypted", Text),
    Column("receipt", JSON),  # per category: found, exported / erased / anonymised / kept
    Column("export_sealed", LargeBinary),  # the access export (JSON), sealed; purged after days
    Column("failure_reason", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    Index("ix_privacy_subject_requests_owner", "org_id", "environment", "created_at"),
)

# An organisation's retention of one category, in days (absent: the documented default).
retention_policies = Table(
    "privacy_retention_policies",
    metadata,
    Column("org_id", String(40), ForeignKey("organisations.id"), primary_key=True),
    Column("category", String(40), primary_key=True),
    Column("days", Integer, nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
)

retention_runs = Table(
    "privacy_retention_runs",
    metadata,
    Column("id", String(40), primary_key=True),  # rtr_...
    Column("started_at", UtcDateTime(), nullable=False, index=True),
    Column("finished_at", UtcDateTime(), nullable=False),
)

# What one run purged of one organisation's category (rows deleted or anonymised).
retention_purges = Table(
    "privacy_retention_purges",
    metadata,
    Column("run_id", String(40), ForeignKey("privacy_retention_runs.id"), primary_key=True),
    Column("org_id", String(40), primary_key=True),
    Column("category", String(40), primary_key=True),
    Column("rows", Integer, nullable=False),
    Index("ix_privacy_retention_purges_org", "org_id", "run_id"),
)

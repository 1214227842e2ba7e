"""Credit tables: bureau reports, kept (encrypted) so a decision can use one by reference."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

credit_reports = Table(
    "credit_reports",
    metadata,
    Column("reference", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("bureau", String(20), nullable=False),
    Column("subject_hash", String(64), nullable=False),  # keyed hash of country, type, number
    Column("report_encrypted", Text, nullable=False),  # the normalised report, JSON, encrypted
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_credit_reports_org", "org_id", "environment", "created_at"),
)

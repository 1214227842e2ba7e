"""The table of organisation watchlists. Their rows (names, dates of birth) are never in the
database: the uploaded file and the built index are sealed files under
``<data_dir>/watchlists/<org_id>/`` (files.py)."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Column, ForeignKey, Index, Integer, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

screening_watchlists = Table(
    "screening_watchlists",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("api_key_id", String(40), nullable=False),
    Column("name", String(100), nullable=False),  # the organisation's label for the list
    Column("list_type", String(16), nullable=False),  # watchlist | pep
    Column("status", String(16), nullable=False),  # pending | processing | ready | failed
    Column("encoding", String(16), nullable=False),  # utf-8 | cp1252
    Column("size_bytes", BigInteger, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("rows_read", Integer, nullable=False),
    Column("rows_accepted", Integer, nullable=False),
    Column("rows_refused", Integer, nullable=False),
    Column("issue_count", Integer, nullable=False),
    # The first issues: [{"line": n, "problem": "...", "refused": bool}], never a value.
    Column("issues", JSON, nullable=False),
    Column("failure_reason", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    Index("ix_screening_watchlists_owner", "org_id", "environment", "status"),
)

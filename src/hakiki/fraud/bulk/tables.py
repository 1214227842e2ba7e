"""Bulk scans and their per-row results."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

bulk_scans = Table(
    "bulk_scans",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("api_key_id", String(40), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("scan_type", String(10), nullable=False),  # id | phone | face
    Column("status", String(12), nullable=False),  # pending | processing | completed | failed
    Column("file_name", String(255), nullable=False),
    Column("file_format", String(8), nullable=False),  # csv | xlsx
    Column("total_records", Integer, nullable=False),
    Column("processed_records", Integer, nullable=False),
    Column("success_count", Integer, nullable=False),
    Column("error_count", Integer, nullable=False),
    Column("price", BigInteger, nullable=False),  # per scanned row, minor units (0 in sandbox)
    Column("charged_amount", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("hold_id", String(40)),  # the reservation of the whole file's price (live)
    # The validated rows as zlib-compressed JSON, AES-GCM encrypted: the job's input.
    Column("input_encrypted", LargeBinary, nullable=False),
    Column("failure_reason", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("started_at", UtcDateTime()),
    Column("completed_at", UtcDateTime()),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_bulk_scans_owner", "org_id", "environment", "created_at"),
)

# One row per scanned file row, written in the same transaction as its charge.
bulk_scan_results = Table(
    "bulk_scan_results",
    metadata,
    Column("bulk_id", String(40), ForeignKey("bulk_scans.id"), primary_key=True),
    Column("row_number", Integer, primary_key=True),  # the file's row (the header is row 1)
    Column("status", String(8), nullable=False),  # success | error
    Column("risk_score", Integer),
    Column("risk_level", String(10)),
    Column("error_code", String(40)),
    Column("transaction_id", String(40)),
    Column("body_encrypted", Text, nullable=False),  # the row's input and result, as JSON
)

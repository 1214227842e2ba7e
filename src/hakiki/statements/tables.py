"""Statement analyses: one row per upload, the file and the result encrypted."""

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

statement_analyses = Table(
    "statement_analyses",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("api_key_id", String(40), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("status", String(12), nullable=False),  # pending | processing | completed | failed
    Column("progress", Integer, nullable=False),  # percent
    Column("statement_type", String(16), nullable=False),
    Column("file_format", String(8), nullable=False),  # pdf | csv | xlsx
    Column("file_size", Integer, nullable=False),
    # Keyed hashes (core/crypto lookup_hash): the file's bytes, and the statement itself
    # (issuer, number, period, first and last receipts), for duplicate detection.
    Column("file_hash", String(64), nullable=False),
    Column("statement_hash", String(64)),
    Column("duplicate_of", String(40)),
    Column("file_sealed", LargeBinary),  # AES-GCM; NULL once deleted after the retention
    Column("request_encrypted", Text, nullable=False),  # password (until read), declared data
    Column("callback_url", Text),
    Column("layout", String(40)),
    Column("verdict", String(12)),  # genuine | suspicious | tampered
    Column("transaction_count", Integer),
    Column("result_sealed", LargeBinary),  # zlib JSON: header, transactions, metrics, signals
    Column("price", BigInteger, nullable=False),
    Column("charged_amount", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("hold_id", String(40)),
    Column("transaction_id", String(40)),
    Column("failure_code", String(40)),
    Column("failure_reason", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("started_at", UtcDateTime()),
    Column("completed_at", UtcDateTime()),
    Column("file_deleted_at", UtcDateTime()),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_statement_analyses_owner", "org_id", "environment", "created_at"),
    Index("ix_statement_analyses_file", "org_id", "environment", "file_hash"),
    Index("ix_statement_analyses_statement", "org_id", "environment", "statement_hash"),
)

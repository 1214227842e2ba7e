"""Tax checks: one row per call, so its reference can be polled and a pending one finished by
a job. The query (PINs, ID and certificate numbers) and the answer are stored encrypted."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, String, Table, Text, UniqueConstraint

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

tax_checks = Table(
    "tax_checks",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("reference", String(64), nullable=False),
    Column("endpoint", String(80), nullable=False),
    Column("check_kind", String(20), nullable=False),  # pin | tcc | withholding
    Column("country", String(2), nullable=False),
    Column("state", String(10), nullable=False),  # pending | completed | failed
    Column("outcome", String(20), nullable=False),  # the envelope's status
    Column("message", Text, nullable=False),
    Column("provider", String(40), nullable=False),
    Column("provider_reference", String(120)),
    Column("subject_hash", String(64), nullable=False),
    Column("query_encrypted", Text, nullable=False),  # for the completion job
    Column("data_encrypted", Text, nullable=False),  # the result's data object
    Column("request_id", String(40), nullable=False),  # its debit's request_id, when charged
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    UniqueConstraint("org_id", "environment", "reference", name="uq_tax_checks_reference"),
)

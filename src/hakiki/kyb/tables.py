"""KYB look-ups that answered PENDING, so a job (or the look-up under way) can finish them and
send the webhook. The request (the number, name, options) and the result are stored encrypted."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, String, Table, Text, UniqueConstraint

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

kyb_checks = Table(
    "kyb_checks",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("reference", String(64), nullable=False),
    Column("endpoint", String(80), nullable=False),  # kyb.business | kyb.ownership
    Column("country", String(2), nullable=False),
    Column("provider", String(40), nullable=False),
    Column("state", String(10), nullable=False),  # pending | completed | failed
    Column("outcome", String(20), nullable=False),
    Column("subject_hash", String(64), nullable=False),
    Column("request_encrypted", Text, nullable=False),
    Column("data_encrypted", Text, nullable=False),
    Column("request_id", String(40), nullable=False),  # its debit's request_id, when charged
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    UniqueConstraint("org_id", "environment", "reference", name="uq_kyb_checks_reference"),
)

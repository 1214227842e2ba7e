"""Verifications: one row per KYC call, so its reference can be polled and a pending one can be
finished by a job. Personal data (the request's number and names, the record found) is stored
encrypted."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    ForeignKey,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

verifications = Table(
    "verifications",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("reference", String(64), nullable=False),
    Column("endpoint", String(80), nullable=False),
    Column("document", String(20), nullable=False),  # national_id | drivers_license | passport
    Column("country", String(2), nullable=False),
    Column("channel", String(40), nullable=False),
    Column("state", String(10), nullable=False),  # pending | completed | failed
    Column("outcome", String(20), nullable=False),  # the envelope's status
    Column("provider", String(40), nullable=False),
    Column("provider_reference", String(120)),
    Column("subject_hash", String(64), nullable=False),
    Column("request_encrypted", Text, nullable=False),  # number and names, for the job
    Column("data_encrypted", Text, nullable=False),  # the result's data object
    Column("request_id", String(40), nullable=False),  # its debit's request_id, when charged
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    UniqueConstraint("org_id", "environment", "reference", name="uq_verifications_reference"),
)

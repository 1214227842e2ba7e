"""The screening domain's tables."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

# The analysts' decisions on screening hits: append-only (the audit trail); the newest row per
# (organisation, environment, subject, list entry) is the one in force.
screening_reviews = Table(
    "screening_reviews",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("subject_key", String(64), nullable=False),
    Column("list_code", String(80), nullable=False),
    Column("entity_id", String(120), nullable=False),
    Column("entity_fingerprint", String(40), nullable=False),
    Column("decision", String(20), nullable=False),  # false_positive | true_match
    # Personal data (free text; an e-mail address): encrypted with the Vault (issue 30).
    Column("reason_encrypted", Text, nullable=False),
    Column("reviewer_encrypted", Text, nullable=False),  # the caller: user e-mail or client id
    Column("api_key_id", String(40), nullable=False),  # the key's id, or the session's user id
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_screening_reviews_subject", "org_id", "environment", "subject_key"),
)

"""The shared fraud database: reports (encrypted) and their look-up keys."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Table,
    Text,
    false,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

fraud_reports = Table(
    "fraud_reports",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("api_key_id", String(40), nullable=False),
    Column("category", String(40), nullable=False),
    Column("status", String(16), nullable=False),
    Column("incident_date", Date, nullable=False),
    Column("body_encrypted", Text, nullable=False),  # the report as submitted
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_fraud_reports_owner", "org_id", "environment", "created_at"),
)

# One row per identifier, phone or e-mail of a report's subject, for look-ups across all
# organisations (of one environment).
fraud_report_keys = Table(
    "fraud_report_keys",
    metadata,
    Column("report_id", String(40), ForeignKey("fraud_reports.id"), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("key_hash", String(64), primary_key=True),
    Column("environment", String(10), nullable=False),
    Index("ix_fraud_report_keys_lookup", "environment", "kind", "key_hash"),
)

# What was seen with an identity number (a name, a date of birth, a phone, a face), by whom:
# one number with many people behind it is the synthetic-identity pattern. Values are keyed
# hashes; rows are per organisation, so each organisation weighs once and never counts for
# itself (docs/decisions.md#fraud-cross-organisation-inference). Sightings of scans and KYC
# calls are deleted HAKIKI_FRAUD_SIGHTING_RETENTION_DAYS after ``first_seen``; those of a
# report (``from_report``) are kept with the report.
identity_observations = Table(
    "identity_observations",
    metadata,
    Column("environment", String(10), primary_key=True),
    Column("identifier_key", String(64), primary_key=True),
    Column("kind", String(16), primary_key=True),  # name | birth_date | phone | face
    Column("value_key", String(64), primary_key=True),
    Column("org_id", String(40), primary_key=True),
    Column("first_seen", UtcDateTime(), nullable=False),
    Column("from_report", Boolean, nullable=False, server_default=false()),
    # The phone scan's "identity numbers seen with this phone": by value, not by number.
    Index("ix_identity_observations_value", "environment", "kind", "value_key"),
    # The retention purge: sightings first seen before the cut-off.
    Index("ix_identity_observations_first_seen", "first_seen"),
)

# Faces seen with identity numbers (face scans) and in reports (the fraud bank): dlib's 128-d
# descriptors as float32 bytes. ``person_key`` is the first print of the same face (distance
# under the threshold), so distinct faces per number can be counted.
face_prints = Table(
    "face_prints",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("environment", String(10), nullable=False),
    Column("org_id", String(40), nullable=False),
    Column("identifier_key", String(64)),
    Column("report_id", String(40), ForeignKey("fraud_reports.id")),
    Column("category", String(40)),  # the report's category, for bank matches
    Column("person_key", String(40), nullable=False),
    Column("embedding", LargeBinary, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_face_prints_environment_id", "environment", "id"),
)

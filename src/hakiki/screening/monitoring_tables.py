"""Ongoing monitoring's tables: the monitored subjects, what the monitoring last screened of each
list, its runs (delta screenings, daily full passes, monthly billing) and its monthly charges."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

# One enrolled customer of an organisation (per environment). The name and every detail are
# personal data: encrypted with the Vault (subject_encrypted, JSON); the organisation's own
# reference too, with a keyed hash beside it to find a subject by reference.
monitored_subjects = Table(
    "monitored_subjects",
    metadata,
    Column("id", String(40), primary_key=True),  # msub_...
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("subject_key", String(64), nullable=False),  # review_service.name_subject_key
    Column("reference_hash", String(64)),  # Vault.lookup_hash of the reference
    Column("reference_encrypted", Text),
    Column("subject_encrypted", Text, nullable=False),
    Column("subject_type", String(20), nullable=False),  # person | business | vessel | aircraft
    Column("checks", String(80), nullable=False),  # comma-separated: sanction,pep
    Column("threshold", Float),  # None: the server's aml_threshold
    Column("source", String(20), nullable=False),  # api | screening | aml_with_id
    Column("status", String(10), nullable=False),  # active | deleted
    Column("created_at", UtcDateTime(), nullable=False),
    Column("deleted_at", UtcDateTime()),
    # The last whole screening of the subject (its baseline at enrolment, the screening that
    # enrolled it with monitor: true, or a daily full pass): when, against which list versions
    # ([{"code", "version"}]), and the checks that could not run then (no list loaded for them,
    # comma-separated). screened_at null: the baseline has not run yet (state "enrolling").
    Column("screened_at", UtcDateTime()),
    Column("screened_lists", JSON),
    Column("checks_not_run", String(80)),
    Index("ix_monitored_subjects_owner", "org_id", "environment", "status", "created_at"),
    Index("ix_monitored_subjects_key", "org_id", "environment", "subject_key"),
    Index("ix_monitored_subjects_reference", "org_id", "environment", "reference_hash"),
    Index("ix_monitored_subjects_environment", "environment", "status"),
)

# Per live list: the version the monitoring last screened (the tick compares the engine's).
monitoring_list_state = Table(
    "monitoring_list_state",
    metadata,
    Column("list_code", String(80), primary_key=True),
    Column("version", String(80), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
)

# Per live list entry: its fingerprint in the version last screened (a delta is what differs).
monitoring_list_entries = Table(
    "monitoring_list_entries",
    metadata,
    Column("list_code", String(80), primary_key=True),
    Column("entity_id", String(120), primary_key=True),
    Column("fingerprint", String(40), nullable=False),
)

# Every monitoring run: its key is unique, so two processes never start the same one.
monitoring_runs = Table(
    "monitoring_runs",
    metadata,
    Column("id", String(40), primary_key=True),  # mrun_...
    Column("key", String(200), nullable=False, unique=True),
    Column("kind", String(10), nullable=False),  # delta | full | billing
    Column("environment", String(10), nullable=False),
    Column("status", String(10), nullable=False),  # queued | running | succeeded | superseded
    Column("target", JSON, nullable=False),  # delta: {list code: version}; full/billing: {}
    Column("subjects", Integer, nullable=False, default=0),  # subjects screened or billed
    Column("entities", Integer, nullable=False, default=0),  # changed entries screened
    Column("done", Integer, nullable=False, default=0),  # progress: units finished
    Column("alerts_raised", Integer, nullable=False, default=0),
    Column("alerts_closed", Integer, nullable=False, default=0),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("started_at", UtcDateTime()),
    Column("finished_at", UtcDateTime()),
    Index("ix_monitoring_runs_kind_created", "kind", "created_at"),
)

# One row per monitored subject and calendar month charged: the debit's guard against a rerun.
monitoring_charges = Table(
    "monitoring_charges",
    metadata,
    Column("monitored_subject_id", String(40), nullable=False),
    Column("month", String(7), nullable=False),  # 2026-11
    Column("org_id", String(40), nullable=False),
    Column("transaction_id", String(40), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    UniqueConstraint("monitored_subject_id", "month"),
    Index("ix_monitoring_charges_org_month", "org_id", "month"),
)

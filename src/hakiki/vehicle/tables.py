"""Vehicle checks that answered PENDING: kept until the registry answers, so a job (or the
look-up still under way) can finish them and send the webhook. The identifier, the owner name
sent and the record are stored encrypted."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, String, Table, Text, UniqueConstraint

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

vehicle_checks = Table(
    "vehicle_checks",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("reference", String(64), nullable=False),
    Column("kind", String(30), nullable=False),  # vin | jdm_chassis_number | registration_number
    Column("state", String(10), nullable=False),  # pending | completed | failed
    Column("outcome", String(20), nullable=False),
    Column("provider", String(40), nullable=False),
    Column("provider_reference", String(120)),
    Column("subject_hash", String(64), nullable=False),
    Column("request_encrypted", Text, nullable=False),  # field, value and owner_name
    Column("data_encrypted", Text, nullable=False),  # the result's data object
    Column("request_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    UniqueConstraint("org_id", "environment", "reference", name="uq_vehicle_checks_reference"),
)

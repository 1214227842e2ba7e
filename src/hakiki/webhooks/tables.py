"""Webhook endpoints, events, deliveries and their attempts."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
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

webhook_endpoints = Table(
    "webhook_endpoints",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("url", Text, nullable=False),
    Column("description", Text),
    Column("event_types", JSON),  # null: every event type, future ones included
    Column("secret_encrypted", Text, nullable=False),
    # After a rotation the old secret keeps signing (beside the new one) until this time.
    Column("previous_secret_encrypted", Text),
    Column("previous_secret_expires_at", UtcDateTime()),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("deleted_at", UtcDateTime()),  # deliveries keep their history
    # A request's own callback (background checks' callback_url): it receives that resource's
    # events only and is not listed or managed with the organisation's endpoints.
    Column("resource_id", String(120)),
    Index("ix_webhook_endpoints_org_env", "org_id", "environment"),
)

webhook_events = Table(
    "webhook_events",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("type", String(60), nullable=False),
    Column("resource_id", String(120)),
    Column("sequence", Integer, nullable=False),
    Column("occurred_at", UtcDateTime(), nullable=False),
    Column("data", JSON, nullable=False),
    Index("ix_webhook_events_org_env_resource", "org_id", "environment", "resource_id"),
)

# The last sequence number per resource: one upserted row, so concurrent emits never share one.
webhook_sequences = Table(
    "webhook_sequences",
    metadata,
    Column("org_id", String(40), primary_key=True),
    Column("environment", String(10), primary_key=True),
    Column("resource_key", String(120), primary_key=True),  # resource_id, "" when none
    Column("last_sequence", Integer, nullable=False),
)

webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("endpoint_id", String(40), ForeignKey("webhook_endpoints.id"), nullable=False),
    Column("event_id", String(40), ForeignKey("webhook_events.id"), nullable=False),
    Column("status", String(16), nullable=False),  # pending | delivered | failed
    Column("attempt_count", Integer, nullable=False),
    Column("job_id", String(40)),  # the job of the latest (re)send
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("last_attempt_at", UtcDateTime()),
    Column("delivered_at", UtcDateTime()),
    Index("ix_webhook_deliveries_org_env_created", "org_id", "environment", "created_at"),
    UniqueConstraint("endpoint_id", "event_id", name="uq_webhook_deliveries_endpoint_event"),
)

webhook_attempts = Table(
    "webhook_attempts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column(
        "delivery_id", String(40), ForeignKey("webhook_deliveries.id"), nullable=False, index=True
    ),
    Column("attempted_at", UtcDateTime(), nullable=False),
    Column("status_code", Integer),  # null: no HTTP answer (network error, timeout, refused)
    Column("latency_ms", Integer, nullable=False),
    Column("error", Text),
)

"""The screening domain's tables."""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, String, Table, Text, text

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

# The analysts' queue (issue 34): one alert per potential match of a subject with a list entry
# that needs a decision. Only the current state columns change; what happened is appended to
# screening_alert_events. Personal data (the subject's name and reference, the hit with its
# explanation, who the alert is assigned to) is encrypted with the Vault; the reference is
# also kept as a keyed hash so the queue can be filtered by it.
OPEN_ALERTS = text("status = 'open'")
screening_alerts = Table(
    "screening_alerts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("subject_key", String(64), nullable=False),
    Column("monitored_subject_id", String(40)),
    Column("reference_hash", String(64)),
    Column("reference_encrypted", Text),
    Column("name_encrypted", Text, nullable=False),
    Column("list_code", String(80), nullable=False),
    Column("entity_id", String(120), nullable=False),
    Column("entity_fingerprint", String(40), nullable=False),
    Column("score", Float, nullable=False),
    Column("hit_encrypted", Text, nullable=False),  # the AmlHit as JSON
    Column("origin", String(20), nullable=False),  # onboarding | monitoring
    Column("status", String(20), nullable=False),  # open | resolved | closed
    Column("assignee_id", String(40)),  # a console user's id or an API key's id
    Column("assignee_encrypted", Text),  # the user's e-mail address or the key's client id
    Column("decision", String(20)),  # the resolution in force: true_match | false_positive
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_screening_alerts_queue", "org_id", "environment", "status", "created_at"),
    Index("ix_screening_alerts_subject", "org_id", "environment", "subject_key"),
    Index("ix_screening_alerts_entity", "list_code", "entity_id", "status"),
    # At most one open alert per subject and list entry, whatever processes race to open it.
    Index(
        "uq_screening_alerts_open",
        "org_id",
        "environment",
        "subject_key",
        "list_code",
        "entity_id",
        unique=True,
        sqlite_where=OPEN_ALERTS,
        postgresql_where=OPEN_ALERTS,
    ),
)

# The alerts' history, append-only: opened, amended, assigned, commented, resolved, closed,
# reopened. The actor is the caller (a user's e-mail or a key's client id, encrypted) or
# 'system'; the detail (a comment, a reason, the assignee) is encrypted.
screening_alert_events = Table(
    "screening_alert_events",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("alert_id", String(40), ForeignKey("screening_alerts.id"), nullable=False),
    Column("event", String(20), nullable=False),
    Column("actor_encrypted", Text, nullable=False),
    Column("api_key_id", String(40)),  # the key's id, or the session's user id; None: system
    Column("detail_encrypted", Text),  # JSON: comment, reason, decision, assignee, fingerprint
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_screening_alert_events_alert", "alert_id", "created_at"),
)

"""screening alerts: the analysts' queue and its append-only history (issue 34)

Revision ID: 0021_screening_alerts
Revises: 0020_scopes_and_audit
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_screening_alerts"
down_revision = "0020_scopes_and_audit"
branch_labels = None
depends_on = None

OPEN_ALERTS = sa.text("status = 'open'")


def upgrade() -> None:
    op.create_table(
        "screening_alerts",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("subject_key", sa.String(length=64), nullable=False),
        sa.Column("monitored_subject_id", sa.String(length=40), nullable=True),
        sa.Column("reference_hash", sa.String(length=64), nullable=True),
        sa.Column("reference_encrypted", sa.Text(), nullable=True),
        sa.Column("name_encrypted", sa.Text(), nullable=False),
        sa.Column("list_code", sa.String(length=80), nullable=False),
        sa.Column("entity_id", sa.String(length=120), nullable=False),
        sa.Column("entity_fingerprint", sa.String(length=40), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("hit_encrypted", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("assignee_id", sa.String(length=40), nullable=True),
        sa.Column("assignee_encrypted", sa.Text(), nullable=True),
        sa.Column("decision", sa.String(length=20), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_screening_alerts_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_screening_alerts")),
    )
    op.create_index(
        "ix_screening_alerts_queue",
        "screening_alerts",
        ["org_id", "environment", "status", "created_at"],
    )
    op.create_index(
        "ix_screening_alerts_subject", "screening_alerts", ["org_id", "environment", "subject_key"]
    )
    op.create_index(
        "ix_screening_alerts_entity", "screening_alerts", ["list_code", "entity_id", "status"]
    )
    op.create_index(
        "uq_screening_alerts_open",
        "screening_alerts",
        ["org_id", "environment", "subject_key", "list_code", "entity_id"],
        unique=True,
        sqlite_where=OPEN_ALERTS,
        postgresql_where=OPEN_ALERTS,
    )
    op.create_table(
        "screening_alert_events",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("alert_id", sa.String(length=40), nullable=False),
        sa.Column("event", sa.String(length=20), nullable=False),
        sa.Column("actor_encrypted", sa.Text(), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=True),
        sa.Column("detail_encrypted", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["alert_id"],
            ["screening_alerts.id"],
            name=op.f("fk_screening_alert_events_alert_id_screening_alerts"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_screening_alert_events")),
    )
    op.create_index(
        "ix_screening_alert_events_alert", "screening_alert_events", ["alert_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_screening_alert_events_alert", table_name="screening_alert_events")
    op.drop_table("screening_alert_events")
    for index in (
        "uq_screening_alerts_open",
        "ix_screening_alerts_entity",
        "ix_screening_alerts_subject",
        "ix_screening_alerts_queue",
    ):
        op.drop_index(index, table_name="screening_alerts")
    op.drop_table("screening_alerts")

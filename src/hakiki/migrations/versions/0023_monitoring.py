"""ongoing monitoring: monitored subjects, the list entries last screened, runs and charges

Revision ID: 0023_monitoring
Revises: 0022_list_current
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0023_monitoring"
down_revision = "0022_list_current"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = True) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "monitored_subjects",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("subject_key", sa.String(length=64), nullable=False),
        sa.Column("reference_hash", sa.String(length=64), nullable=True),
        sa.Column("reference_encrypted", sa.Text(), nullable=True),
        sa.Column("subject_encrypted", sa.Text(), nullable=False),
        sa.Column("subject_type", sa.String(length=20), nullable=False),
        sa.Column("checks", sa.String(length=80), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=True),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        _when("created_at", False),
        _when("deleted_at"),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_monitored_subjects_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_monitored_subjects")),
    )
    for name, columns in (
        ("ix_monitored_subjects_owner", ["org_id", "environment", "status", "created_at"]),
        ("ix_monitored_subjects_key", ["org_id", "environment", "subject_key"]),
        ("ix_monitored_subjects_reference", ["org_id", "environment", "reference_hash"]),
        ("ix_monitored_subjects_environment", ["environment", "status"]),
    ):
        op.create_index(name, "monitored_subjects", columns)
    op.create_table(
        "monitoring_list_state",
        sa.Column("list_code", sa.String(length=80), nullable=False),
        sa.Column("version", sa.String(length=80), nullable=False),
        _when("updated_at", False),
        sa.PrimaryKeyConstraint("list_code", name=op.f("pk_monitoring_list_state")),
    )
    op.create_table(
        "monitoring_list_entries",
        sa.Column("list_code", sa.String(length=80), nullable=False),
        sa.Column("entity_id", sa.String(length=120), nullable=False),
        sa.Column("fingerprint", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("list_code", "entity_id", name=op.f("pk_monitoring_list_entries")),
    )
    op.create_table(
        "monitoring_runs",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("target", sa.JSON(), nullable=False),
        sa.Column("subjects", sa.Integer(), nullable=False),
        sa.Column("entities", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("alerts_raised", sa.Integer(), nullable=False),
        sa.Column("alerts_closed", sa.Integer(), nullable=False),
        _when("created_at", False),
        _when("started_at"),
        _when("finished_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_monitoring_runs")),
        sa.UniqueConstraint("key", name=op.f("uq_monitoring_runs_key")),
    )
    op.create_index("ix_monitoring_runs_kind_created", "monitoring_runs", ["kind", "created_at"])
    op.create_table(
        "monitoring_charges",
        sa.Column("monitored_subject_id", sa.String(length=40), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("transaction_id", sa.String(length=40), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        _when("created_at", False),
        sa.UniqueConstraint(
            "monitored_subject_id", "month", name=op.f("uq_monitoring_charges_monitored_subject_id")
        ),
    )
    op.create_index("ix_monitoring_charges_org_month", "monitoring_charges", ["org_id", "month"])


def downgrade() -> None:
    op.drop_index("ix_monitoring_charges_org_month", table_name="monitoring_charges")
    op.drop_table("monitoring_charges")
    op.drop_index("ix_monitoring_runs_kind_created", table_name="monitoring_runs")
    op.drop_table("monitoring_runs")
    op.drop_table("monitoring_list_entries")
    op.drop_table("monitoring_list_state")
    for name in (
        "ix_monitored_subjects_environment",
        "ix_monitored_subjects_reference",
        "ix_monitored_subjects_key",
        "ix_monitored_subjects_owner",
    ):
        op.drop_index(name, table_name="monitored_subjects")
    op.drop_table("monitored_subjects")

"""privacy (issue 40): subject requests with their receipts and exports, retention policies
per organisation and category, and what each housekeeping run purged

Revision ID: 0029_privacy
Revises: 0028_consent_and_audit
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029_privacy"
down_revision = "0028_consent_and_audit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "privacy_subject_requests",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("subject_encrypted", sa.Text(), nullable=True),
        sa.Column("receipt", sa.JSON(), nullable=True),
        sa.Column("export_sealed", sa.LargeBinary(), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_privacy_subject_requests_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_privacy_subject_requests")),
    )
    op.create_index(
        "ix_privacy_subject_requests_owner",
        "privacy_subject_requests",
        ["org_id", "environment", "created_at"],
    )
    op.create_table(
        "privacy_retention_policies",
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_privacy_retention_policies_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("org_id", "category", name=op.f("pk_privacy_retention_policies")),
    )
    op.create_table(
        "privacy_retention_runs",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_privacy_retention_runs")),
    )
    op.create_index(
        op.f("ix_privacy_retention_runs_started_at"), "privacy_retention_runs", ["started_at"]
    )
    op.create_table(
        "privacy_retention_purges",
        sa.Column("run_id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["privacy_retention_runs.id"],
            name=op.f("fk_privacy_retention_purges_run_id_privacy_retention_runs"),
        ),
        sa.PrimaryKeyConstraint(
            "run_id", "org_id", "category", name=op.f("pk_privacy_retention_purges")
        ),
    )
    op.create_index(
        "ix_privacy_retention_purges_org", "privacy_retention_purges", ["org_id", "run_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_privacy_retention_purges_org", table_name="privacy_retention_purges")
    op.drop_table("privacy_retention_purges")
    op.drop_index(op.f("ix_privacy_retention_runs_started_at"), table_name="privacy_retention_runs")
    op.drop_table("privacy_retention_runs")
    op.drop_table("privacy_retention_policies")
    op.drop_index("ix_privacy_subject_requests_owner", table_name="privacy_subject_requests")
    op.drop_table("privacy_subject_requests")

"""credit_reports: bureau reports (encrypted), for decisions by reference

Revision ID: 0015_credit
Revises: 0014_background_callbacks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_credit"
down_revision = "0014_background_callbacks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "credit_reports",
        sa.Column("reference", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("bureau", sa.String(length=20), nullable=False),
        sa.Column("subject_hash", sa.String(length=64), nullable=False),
        sa.Column("report_encrypted", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_credit_reports_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("reference", name=op.f("pk_credit_reports")),
    )
    op.create_index(
        "ix_credit_reports_org", "credit_reports", ["org_id", "environment", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_credit_reports_org", table_name="credit_reports")
    op.drop_table("credit_reports")

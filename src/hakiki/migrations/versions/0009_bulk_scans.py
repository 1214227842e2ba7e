"""bulk fraud scans and their per-row results

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bulk_scans",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("scan_type", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("file_format", sa.String(length=8), nullable=False),
        sa.Column("total_records", sa.Integer(), nullable=False),
        sa.Column("processed_records", sa.Integer(), nullable=False),
        sa.Column("success_count", sa.Integer(), nullable=False),
        sa.Column("error_count", sa.Integer(), nullable=False),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("charged_amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("hold_id", sa.String(length=40), nullable=True),
        sa.Column("input_encrypted", sa.LargeBinary(), nullable=False),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_bulk_scans_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bulk_scans")),
    )
    with op.batch_alter_table("bulk_scans", schema=None) as batch_op:
        batch_op.create_index(
            "ix_bulk_scans_owner", ["org_id", "environment", "created_at"], unique=False
        )

    op.create_table(
        "bulk_scan_results",
        sa.Column("bulk_id", sa.String(length=40), nullable=False),
        sa.Column("row_number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("risk_score", sa.Integer(), nullable=True),
        sa.Column("risk_level", sa.String(length=10), nullable=True),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("transaction_id", sa.String(length=40), nullable=True),
        sa.Column("body_encrypted", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["bulk_id"], ["bulk_scans.id"], name=op.f("fk_bulk_scan_results_bulk_id_bulk_scans")
        ),
        sa.PrimaryKeyConstraint("bulk_id", "row_number", name=op.f("pk_bulk_scan_results")),
    )


def downgrade() -> None:
    op.drop_table("bulk_scan_results")
    with op.batch_alter_table("bulk_scans", schema=None) as batch_op:
        batch_op.drop_index("ix_bulk_scans_owner")

    op.drop_table("bulk_scans")

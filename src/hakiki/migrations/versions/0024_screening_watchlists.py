"""organisation watchlists (issue 33): one row per uploaded list, its progress and issues; the
rows themselves are sealed files in the data directory

Revision ID: 0024_screening_watchlists
Revises: 0023_monitoring
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024_screening_watchlists"
down_revision = "0023_monitoring"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "screening_watchlists",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("list_type", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("encoding", sa.String(length=16), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("rows_read", sa.Integer(), nullable=False),
        sa.Column("rows_accepted", sa.Integer(), nullable=False),
        sa.Column("rows_refused", sa.Integer(), nullable=False),
        sa.Column("issue_count", sa.Integer(), nullable=False),
        sa.Column("issues", sa.JSON(), nullable=False),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_screening_watchlists_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_screening_watchlists")),
    )
    op.create_index(
        "ix_screening_watchlists_owner",
        "screening_watchlists",
        ["org_id", "environment", "status"],
    )


def downgrade() -> None:
    op.drop_index("ix_screening_watchlists_owner", table_name="screening_watchlists")
    op.drop_table("screening_watchlists")

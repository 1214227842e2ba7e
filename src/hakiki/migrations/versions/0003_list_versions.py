"""list versions

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 13:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "list_versions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("code", sa.String(length=80), nullable=False),
        sa.Column("version", sa.String(length=80), nullable=True),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("entity_count", sa.Integer(), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_list_versions")),
    )
    with op.batch_alter_table("list_versions", schema=None) as batch_op:
        batch_op.create_index("ix_list_versions_code_fetched", ["code", "fetched_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("list_versions", schema=None) as batch_op:
        batch_op.drop_index("ix_list_versions_code_fetched")
    op.drop_table("list_versions")

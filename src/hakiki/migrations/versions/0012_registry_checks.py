"""registry_checks: KYB, vehicle and tax checks (each call's answer, for the status calls) and
the asynchronous completion of PENDING ones

Revision ID: 0012_registry_checks
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_registry_checks"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registry_checks",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("reference", sa.String(length=64), nullable=False),
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("endpoint", sa.String(length=80), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("provider", sa.String(length=40), nullable=False),
        sa.Column("provider_reference", sa.String(length=120), nullable=True),
        sa.Column("subject_hash", sa.String(length=64), nullable=False),
        sa.Column("request_encrypted", sa.Text(), nullable=False),
        sa.Column("data_encrypted", sa.Text(), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_registry_checks_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registry_checks")),
        sa.UniqueConstraint(
            "org_id", "environment", "reference", name="uq_registry_checks_reference"
        ),
    )


def downgrade() -> None:
    op.drop_table("registry_checks")

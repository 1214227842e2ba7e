"""vehicle_checks (vehicle checks that answered PENDING, until the registry answers)

Revision ID: 0013_vehicle
Revises: 0012_kyb
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_vehicle"
down_revision = "0012_kyb"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vehicle_checks",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("reference", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("provider", sa.String(length=40), nullable=False),
        sa.Column("provider_reference", sa.String(length=120), nullable=True),
        sa.Column("subject_hash", sa.String(length=64), nullable=False),
        sa.Column("request_encrypted", sa.Text(), nullable=False),
        sa.Column("data_encrypted", sa.Text(), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_vehicle_checks_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vehicle_checks")),
        sa.UniqueConstraint(
            "org_id", "environment", "reference", name="uq_vehicle_checks_reference"
        ),
    )


def downgrade() -> None:
    op.drop_table("vehicle_checks")

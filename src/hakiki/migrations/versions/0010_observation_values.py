"""index sightings by value (the phone scan's "numbers seen with this phone")

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("identity_observations", schema=None) as batch_op:
        batch_op.create_index(
            "ix_identity_observations_value", ["environment", "kind", "value_key"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("identity_observations", schema=None) as batch_op:
        batch_op.drop_index("ix_identity_observations_value")

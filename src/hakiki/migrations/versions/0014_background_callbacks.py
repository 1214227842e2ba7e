"""background checks: a request's callback_url is a webhook endpoint scoped to that request

Revision ID: 0014_background_callbacks
Revises: 0013_background
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_background_callbacks"
down_revision = "0013_background"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("webhook_endpoints", sa.Column("resource_id", sa.String(length=120)))


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("resource_id")

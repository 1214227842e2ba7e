"""the console as a daily tool (issue 36): a key's name; an error's message in the request
log; the log by key and time (the Keys page's "last used", the request log's key filter)

Revision ID: 0025_console_daily
Revises: 0024_screening_watchlists
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_console_daily"
down_revision = "0024_screening_watchlists"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("name", sa.String(length=80), nullable=True))
    with op.batch_alter_table("request_logs") as batch:
        batch.add_column(sa.Column("error_message", sa.Text(), nullable=True))
    op.create_index("ix_request_logs_key_time", "request_logs", ["api_key_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_request_logs_key_time", table_name="request_logs")
    with op.batch_alter_table("request_logs") as batch:
        batch.drop_column("error_message")
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("name")

"""the recent-checks index holds live calls only

Only live fraud scans count a subject's recent checks; sandbox calls never do. The index on
(subject_hash, environment, created_at, org_id) took every call's row all the same, and a row's
entry lands at a random place in it (the hash leads): on SQLite the most costly part of writing
a sandbox call's log row. The index becomes partial, (subject_hash, created_at, org_id) where
environment = 'live' and the subject is known, and the count names environment = 'live' so
both databases' planners can prove it applies.

On PostgreSQL the index is built CONCURRENTLY, so a large request log keeps taking writes.

Revision ID: 0019_live_subject_index
Revises: 0018_request_log_subject_index
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_live_subject_index"
down_revision = "0018_request_log_subject_index"
branch_labels = None
depends_on = None

NEW = "ix_request_logs_live_subject_recent"
NEW_COLUMNS = ["subject_hash", "created_at", "org_id"]
LIVE_SUBJECTS = sa.text("environment = 'live' AND subject_hash IS NOT NULL")
OLD = "ix_request_logs_subject_recent"
OLD_COLUMNS = ["subject_hash", "environment", "created_at", "org_id"]


def _postgresql() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def upgrade() -> None:
    if _postgresql():
        with op.get_context().autocommit_block():
            op.create_index(
                NEW,
                "request_logs",
                NEW_COLUMNS,
                postgresql_where=LIVE_SUBJECTS,
                postgresql_concurrently=True,
                if_not_exists=True,
            )
            op.drop_index(
                OLD, table_name="request_logs", postgresql_concurrently=True, if_exists=True
            )
        return
    op.create_index(NEW, "request_logs", NEW_COLUMNS, sqlite_where=LIVE_SUBJECTS)
    op.drop_index(OLD, table_name="request_logs")


def downgrade() -> None:
    op.create_index(OLD, "request_logs", OLD_COLUMNS)
    op.drop_index(NEW, table_name="request_logs")

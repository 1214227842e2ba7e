"""the request log's subject index covers the recent-checks count

A fraud scan counts a subject's recent checks (up to 1,000) across organisations. With an
index on subject_hash alone every counted row was a table look-up (PostgreSQL: a heap fetch);
(subject_hash, environment, created_at, org_id) answers the count from the index alone. It
replaces the single-column index, which it serves as well (subject_hash leads).

On PostgreSQL the index is built CONCURRENTLY, so a large request log keeps taking writes.

Revision ID: 0018_request_log_subject_index
Revises: 0017_console
"""

from __future__ import annotations

from alembic import op

revision = "0018_request_log_subject_index"
down_revision = "0017_console"
branch_labels = None
depends_on = None

COLUMNS = ["subject_hash", "environment", "created_at", "org_id"]


def _postgresql() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def upgrade() -> None:
    if _postgresql():
        with op.get_context().autocommit_block():
            op.create_index(
                "ix_request_logs_subject_recent",
                "request_logs",
                COLUMNS,
                postgresql_concurrently=True,
                if_not_exists=True,
            )
            op.drop_index(
                "ix_request_logs_subject_hash",
                table_name="request_logs",
                postgresql_concurrently=True,
                if_exists=True,
            )
        return
    op.create_index("ix_request_logs_subject_recent", "request_logs", COLUMNS)
    op.drop_index("ix_request_logs_subject_hash", table_name="request_logs")


def downgrade() -> None:
    op.create_index("ix_request_logs_subject_hash", "request_logs", ["subject_hash"])
    op.drop_index("ix_request_logs_subject_recent", table_name="request_logs")

"""lists: the current version in the database, its files, the scheduled update's periods

- list_current: per list code, the version every process must screen with (the list watch of
  each API and worker process reads it and reloads on a change, issue 34).
- list_file_parts: the gzipped files of each stored version, in parts, so a process whose data
  folder is on another machine writes the version to its own disk.
- list_update_slots: one row per period of HAKIKI_LISTS_UPDATE_EVERY_SECONDS whose scheduled
  update was queued (inserted by one process only).

Revision ID: 0022_list_current
Revises: 0021_screening_alerts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_list_current"
down_revision = "0021_screening_alerts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "list_current",
        sa.Column("code", sa.String(80), nullable=False),
        sa.Column("version", sa.String(80), nullable=False),
        sa.Column("folder", sa.String(100), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("manifest", sa.Text(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_list_current")),
    )
    op.create_table(
        "list_file_parts",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("part", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sha256", "role", "part", name=op.f("pk_list_file_parts")),
    )
    op.create_table(
        "list_update_slots",
        sa.Column("slot", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("every_seconds", sa.Integer(), nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("slot", name=op.f("pk_list_update_slots")),
    )


def downgrade() -> None:
    op.drop_table("list_update_slots")
    op.drop_table("list_file_parts")
    op.drop_table("list_current")

"""console users, their server-side sessions and e-mailed links

Revision ID: 0017_console
Revises: 0016_statements
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_console"
down_revision = "0016_statements"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "console_users",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("email_hash", sa.String(length=64), nullable=False),
        sa.Column("email_encrypted", sa.Text(), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("totp_encrypted", sa.Text(), nullable=True),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_console_users_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_users")),
        sa.UniqueConstraint("email_hash", name=op.f("uq_console_users_email_hash")),
    )
    op.create_index(op.f("ix_console_users_org_id"), "console_users", ["org_id"])
    op.create_table(
        "console_sessions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["console_users.id"],
            name=op.f("fk_console_sessions_user_id_console_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_console_sessions_token_hash")),
    )
    op.create_index(op.f("ix_console_sessions_user_id"), "console_sessions", ["user_id"])
    op.create_index(op.f("ix_console_sessions_expires_at"), "console_sessions", ["expires_at"])
    op.create_table(
        "console_links",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("purpose", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["console_users.id"],
            name=op.f("fk_console_links_user_id_console_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_console_links_token_hash")),
    )
    op.create_index(op.f("ix_console_links_user_id"), "console_links", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_console_links_user_id"), table_name="console_links")
    op.drop_table("console_links")
    op.drop_index(op.f("ix_console_sessions_expires_at"), table_name="console_sessions")
    op.drop_index(op.f("ix_console_sessions_user_id"), table_name="console_sessions")
    op.drop_table("console_sessions")
    op.drop_index(op.f("ix_console_users_org_id"), table_name="console_users")
    op.drop_table("console_users")

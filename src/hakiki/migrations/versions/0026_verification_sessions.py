"""verification sessions (issue 37): hosted links with active liveness, and the digests of the
liveness frames submitted (replays are refused)

Revision ID: 0026_verification_sessions
Revises: 0024_screening_watchlists
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026_verification_sessions"
down_revision = "0025_console_daily"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "verification_sessions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("decision", sa.String(length=12), nullable=True),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("id_channel", sa.String(length=40), nullable=True),
        sa.Column("customer_reference", sa.String(length=100), nullable=False),
        sa.Column("customer_encrypted", sa.Text(), nullable=True),
        sa.Column("redirect_url", sa.Text(), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("challenge_encrypted", sa.Text(), nullable=True),
        sa.Column("challenges_issued", sa.Integer(), nullable=False),
        sa.Column("results_encrypted", sa.Text(), nullable=True),
        sa.Column("reasons", sa.Text(), nullable=True),
        sa.Column("consent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("language", sa.String(length=5), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("price", sa.Integer(), nullable=False),
        sa.Column("charged_amount", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("hold_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_verification_sessions_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verification_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_verification_sessions_token_hash")),
    )
    op.create_index(
        "ix_verification_sessions_owner",
        "verification_sessions",
        ["org_id", "environment", "created_at"],
    )
    op.create_table(
        "verification_frames",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_verification_frames")),
    )


def downgrade() -> None:
    op.drop_table("verification_frames")
    op.drop_index("ix_verification_sessions_owner", table_name="verification_sessions")
    op.drop_table("verification_sessions")

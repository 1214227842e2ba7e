"""verifications (KYC calls and their asynchronous completion); one reversal per debit,
ledger rows by request

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "verifications",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("reference", sa.String(length=64), nullable=False),
        sa.Column("endpoint", sa.String(length=80), nullable=False),
        sa.Column("document", sa.String(length=20), nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("channel", sa.String(length=40), nullable=False),
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
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_verifications_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verifications")),
        sa.UniqueConstraint(
            "org_id", "environment", "reference", name="uq_verifications_reference"
        ),
    )
    op.create_index(
        "uq_wallet_transactions_reverses_id", "wallet_transactions", ["reverses_id"], unique=True
    )
    op.create_index(
        "ix_wallet_transactions_request", "wallet_transactions", ["request_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_wallet_transactions_request", table_name="wallet_transactions")
    op.drop_index("uq_wallet_transactions_reverses_id", table_name="wallet_transactions")
    op.drop_table("verifications")

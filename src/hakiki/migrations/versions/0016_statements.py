"""statement analyses

Revision ID: 0016_statements
Revises: 0015_credit
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0016_statements"
down_revision = "0015_credit"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = True) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "statement_analyses",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("statement_type", sa.String(length=16), nullable=False),
        sa.Column("file_format", sa.String(length=8), nullable=False),
        sa.Column("file_size", sa.Integer(), nullable=False),
        sa.Column("file_hash", sa.String(length=64), nullable=False),
        sa.Column("statement_hash", sa.String(length=64), nullable=True),
        sa.Column("duplicate_of", sa.String(length=40), nullable=True),
        sa.Column("file_sealed", sa.LargeBinary(), nullable=True),
        sa.Column("request_encrypted", sa.Text(), nullable=False),
        sa.Column("callback_url", sa.Text(), nullable=True),
        sa.Column("layout", sa.String(length=40), nullable=True),
        sa.Column("verdict", sa.String(length=12), nullable=True),
        sa.Column("transaction_count", sa.Integer(), nullable=True),
        sa.Column("result_sealed", sa.LargeBinary(), nullable=True),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("charged_amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("hold_id", sa.String(length=40), nullable=True),
        sa.Column("transaction_id", sa.String(length=40), nullable=True),
        sa.Column("failure_code", sa.String(length=40), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        _when("created_at", False),
        _when("started_at"),
        _when("completed_at"),
        _when("file_deleted_at"),
        _when("updated_at", False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_statement_analyses_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_statement_analyses")),
    )
    for name, columns in (
        ("ix_statement_analyses_owner", ["org_id", "environment", "created_at"]),
        ("ix_statement_analyses_file", ["org_id", "environment", "file_hash"]),
        ("ix_statement_analyses_statement", ["org_id", "environment", "statement_hash"]),
    ):
        op.create_index(name, "statement_analyses", columns)


def downgrade() -> None:
    for name in (
        "ix_statement_analyses_statement",
        "ix_statement_analyses_file",
        "ix_statement_analyses_owner",
    ):
        op.drop_index(name, table_name="statement_analyses")
    op.drop_table("statement_analyses")

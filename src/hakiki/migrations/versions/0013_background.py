"""background checks: custom packages, candidate requests, their checks, timeline, documents

Revision ID: 0013_background
Revises: 0012_registry_checks
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0013_background"
down_revision = "0012_registry_checks"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = True) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "background_packages",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("name_key", sa.String(length=120), nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("check_types", sa.Text(), nullable=False),
        _when("created_at", False),
        _when("updated_at", False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_background_packages_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_background_packages")),
        sa.UniqueConstraint(
            "org_id", "environment", "name_key", name="uq_background_packages_name"
        ),
    )
    op.create_table(
        "background_requests",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("reference", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("package_id", sa.String(length=40), nullable=False),
        sa.Column("package_snapshot", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("result", sa.String(length=12), nullable=True),
        sa.Column("candidate_encrypted", sa.Text(), nullable=False),
        sa.Column("submission_encrypted", sa.Text(), nullable=True),
        sa.Column("sandbox_path", sa.String(length=10), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("invitation", sa.Integer(), nullable=False),
        _when("expires_at", False),
        _when("submitted_at"),
        _when("completed_at"),
        sa.Column("callback_url", sa.Text(), nullable=True),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("charged_amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("hold_id", sa.String(length=40), nullable=True),
        _when("created_at", False),
        _when("updated_at", False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_background_requests_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_background_requests")),
        sa.UniqueConstraint("reference", name=op.f("uq_background_requests_reference")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_background_requests_token_hash")),
    )
    op.create_index(
        "ix_background_requests_owner",
        "background_requests",
        ["org_id", "environment", "created_at"],
    )
    op.create_table(
        "background_checks",
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("code", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("result", sa.String(length=12), nullable=True),
        sa.Column("evidence_encrypted", sa.Text(), nullable=True),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("transaction_id", sa.String(length=40), nullable=True),
        _when("due_at"),
        _when("completed_at"),
        sa.Column("recorded_by", sa.String(length=120), nullable=True),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["background_requests.id"],
            name=op.f("fk_background_checks_request_id_background_requests"),
        ),
        sa.PrimaryKeyConstraint("request_id", "code", name=op.f("pk_background_checks")),
    )
    op.create_table(
        "background_timeline",
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        _when("at", False),
        sa.Column("event", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["background_requests.id"],
            name=op.f("fk_background_timeline_request_id_background_requests"),
        ),
        sa.PrimaryKeyConstraint("request_id", "position", name=op.f("pk_background_timeline")),
    )
    op.create_table(
        "background_documents",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        _when("created_at", False),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["background_requests.id"],
            name=op.f("fk_background_documents_request_id_background_requests"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_background_documents")),
    )


def downgrade() -> None:
    op.drop_table("background_documents")
    op.drop_table("background_timeline")
    op.drop_table("background_checks")
    op.drop_index("ix_background_requests_owner", table_name="background_requests")
    op.drop_table("background_requests")
    op.drop_table("background_packages")

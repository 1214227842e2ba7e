"""credit models (issue 38): a lender's own scorecards trained on its loan book, their
activations (the newest names the active model of an environment) and every decision with the
model that made it and its inputs, encrypted

Revision ID: 0027_credit_models
Revises: 0026_verification_sessions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027_credit_models"
down_revision = "0026_verification_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "credit_models",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("version", sa.String(length=60), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("stage", sa.String(length=80), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("window_days", sa.Integer(), nullable=False),
        sa.Column("book_encrypted", sa.LargeBinary(), nullable=True),
        sa.Column("document", sa.Text(), nullable=True),
        sa.Column("activatable", sa.Boolean(), nullable=True),
        sa.Column("refusal_reason", sa.Text(), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("trained_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_credit_models_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credit_models")),
        sa.UniqueConstraint("org_id", "environment", "version", name="uq_credit_models_version"),
    )
    op.create_index(
        "ix_credit_models_owner", "credit_models", ["org_id", "environment", "created_at"]
    )
    op.create_table(
        "credit_model_activations",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("model_id", sa.String(length=40), nullable=True),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_credit_model_activations_org_id_organisations"),
        ),
        sa.ForeignKeyConstraint(
            ["model_id"],
            ["credit_models.id"],
            name=op.f("fk_credit_model_activations_model_id_credit_models"),
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_credit_model_activations")),
    )
    op.create_index(
        "ix_credit_model_activations_owner",
        "credit_model_activations",
        ["org_id", "environment", "seq"],
    )
    op.create_table(
        "credit_decisions",
        sa.Column("reference", sa.String(length=44), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("model_id", sa.String(length=40), nullable=True),
        sa.Column("model_version", sa.String(length=60), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("decision", sa.String(length=10), nullable=False),
        sa.Column("inputs_encrypted", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_credit_decisions_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("reference", name=op.f("pk_credit_decisions")),
    )
    op.create_index(
        "ix_credit_decisions_owner", "credit_decisions", ["org_id", "environment", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_credit_decisions_owner", table_name="credit_decisions")
    op.drop_table("credit_decisions")
    op.drop_index("ix_credit_model_activations_owner", table_name="credit_model_activations")
    op.drop_table("credit_model_activations")
    op.drop_index("ix_credit_models_owner", table_name="credit_models")
    op.drop_table("credit_models")

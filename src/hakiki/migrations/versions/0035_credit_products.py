"""credit products (issue 38): a lender's catalogue of loan products per environment, the
bounds a decision naming one must fit and the model that decides it

Revision ID: 0035_credit_products
Revises: 0034_monitoring_baseline
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0035_credit_products"
down_revision = "0034_monitoring_baseline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "credit_products",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("min_amount", sa.BigInteger(), nullable=False),
        sa.Column("max_amount", sa.BigInteger(), nullable=False),
        sa.Column("min_term_months", sa.Integer(), nullable=False),
        sa.Column("max_term_months", sa.Integer(), nullable=False),
        sa.Column("purposes", sa.JSON(), nullable=False),
        sa.Column("model_id", sa.String(length=40), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_credit_products_org_id_organisations")
        ),
        sa.ForeignKeyConstraint(
            ["model_id"],
            ["credit_models.id"],
            name=op.f("fk_credit_products_model_id_credit_models"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credit_products")),
        sa.UniqueConstraint("org_id", "environment", "name_key", name="uq_credit_products_name"),
    )
    op.create_index(
        "ix_credit_products_owner", "credit_products", ["org_id", "environment", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_credit_products_owner", table_name="credit_products")
    op.drop_table("credit_products")

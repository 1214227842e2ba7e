"""media articles (the local adverse-media source)

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "media_articles",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("published", sa.String(length=40), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("guid", sa.Text(), nullable=True),
        sa.Column("ingested_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_articles")),
    )
    with op.batch_alter_table("media_articles", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_media_articles_ingested_at"), ["ingested_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("media_articles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_media_articles_ingested_at"))
    op.drop_table("media_articles")

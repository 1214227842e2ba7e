"""document verifications kept for the console's result page (issue 36); verification
sessions' opt-in image keeping: the organisation's setting and the sealed images (issue 37)

Revision ID: 0030_results_and_images
Revises: 0029_privacy
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030_results_and_images"
down_revision = "0029_privacy"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "document_verifications",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("document_type", sa.String(length=20), nullable=False),
        sa.Column("country_code", sa.String(length=2), nullable=True),
        sa.Column("verdict", sa.String(length=12), nullable=False),
        sa.Column("result_sealed", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_document_verifications_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_document_verifications")),
    )
    op.create_index(
        "ix_document_verifications_owner",
        "document_verifications",
        ["org_id", "environment", "created_at"],
    )
    op.create_table(
        "verification_settings",
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("keep_images", sa.Boolean(), nullable=False),
        sa.Column("retention_days", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by_encrypted", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_verification_settings_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("org_id", "environment", name=op.f("pk_verification_settings")),
    )
    op.create_table(
        "verification_images",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("t_ms", sa.Integer(), nullable=True),
        sa.Column("image_sealed", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delete_after", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verification_images")),
    )
    op.create_index(
        op.f("ix_verification_images_session_id"), "verification_images", ["session_id"]
    )
    op.create_index(
        op.f("ix_verification_images_delete_after"), "verification_images", ["delete_after"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_verification_images_delete_after"), table_name="verification_images")
    op.drop_index(op.f("ix_verification_images_session_id"), table_name="verification_images")
    op.drop_table("verification_images")
    op.drop_table("verification_settings")
    op.drop_index("ix_document_verifications_owner", table_name="document_verifications")
    op.drop_table("document_verifications")

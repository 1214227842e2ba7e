"""fraud reports (the shared fraud database), what is seen with identity numbers, face prints

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "identity_observations",
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("identifier_key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("value_key", sa.String(length=64), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(
            "environment",
            "identifier_key",
            "kind",
            "value_key",
            "org_id",
            name=op.f("pk_identity_observations"),
        ),
    )
    op.create_table(
        "fraud_reports",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("api_key_id", sa.String(length=40), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("incident_date", sa.Date(), nullable=False),
        sa.Column("body_encrypted", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organisations.id"], name=op.f("fk_fraud_reports_org_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fraud_reports")),
    )
    with op.batch_alter_table("fraud_reports", schema=None) as batch_op:
        batch_op.create_index(
            "ix_fraud_reports_owner", ["org_id", "environment", "created_at"], unique=False
        )

    op.create_table(
        "face_prints",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("identifier_key", sa.String(length=64), nullable=True),
        sa.Column("report_id", sa.String(length=40), nullable=True),
        sa.Column("category", sa.String(length=40), nullable=True),
        sa.Column("person_key", sa.String(length=40), nullable=False),
        sa.Column("embedding", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"], ["fraud_reports.id"], name=op.f("fk_face_prints_report_id_fraud_reports")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_face_prints")),
    )
    with op.batch_alter_table("face_prints", schema=None) as batch_op:
        batch_op.create_index("ix_face_prints_environment_id", ["environment", "id"], unique=False)

    op.create_table(
        "fraud_report_keys",
        sa.Column("report_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["fraud_reports.id"],
            name=op.f("fk_fraud_report_keys_report_id_fraud_reports"),
        ),
        sa.PrimaryKeyConstraint("report_id", "kind", "key_hash", name=op.f("pk_fraud_report_keys")),
    )
    with op.batch_alter_table("fraud_report_keys", schema=None) as batch_op:
        batch_op.create_index(
            "ix_fraud_report_keys_lookup", ["environment", "kind", "key_hash"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("fraud_report_keys", schema=None) as batch_op:
        batch_op.drop_index("ix_fraud_report_keys_lookup")

    op.drop_table("fraud_report_keys")
    with op.batch_alter_table("face_prints", schema=None) as batch_op:
        batch_op.drop_index("ix_face_prints_environment_id")

    op.drop_table("face_prints")
    with op.batch_alter_table("fraud_reports", schema=None) as batch_op:
        batch_op.drop_index("ix_fraud_reports_owner")

    op.drop_table("fraud_reports")
    op.drop_table("identity_observations")

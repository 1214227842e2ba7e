"""consent records and the append-only audit log (issue 40)

- consent_records: the consent a call or a hosted page recorded, encrypted, found by request,
  by the organisation's subject reference (keyed hash) and by the identity number (keyed hash).
- audit_log: who read or changed which resource; triggers refuse UPDATE and DELETE (and
  TRUNCATE on PostgreSQL), so the log is append-only on both databases.

Revision ID: 0028_consent_and_audit
Revises: 0027_credit_models
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028_consent_and_audit"
down_revision = "0027_credit_models"
branch_labels = None
depends_on = None

REFUSED = "audit_log is append-only"


def upgrade() -> None:
    op.create_table(
        "consent_records",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("endpoint", sa.String(length=80), nullable=False),
        sa.Column("reference", sa.String(length=80), nullable=True),
        sa.Column("source", sa.String(length=12), nullable=False),
        sa.Column("subject_hash", sa.String(length=64), nullable=True),
        sa.Column("identifier_hash", sa.String(length=64), nullable=True),
        sa.Column("consent_encrypted", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_consent_records_org_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_consent_records")),
    )
    op.create_index(
        "ix_consent_records_owner",
        "consent_records",
        ["org_id", "environment", "created_at"],
    )
    op.create_index("ix_consent_records_subject_hash", "consent_records", ["subject_hash"])
    op.create_index("ix_consent_records_identifier_hash", "consent_records", ["identifier_hash"])
    op.create_index("ix_consent_records_request_id", "consent_records", ["request_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=40), nullable=False),
        sa.Column("environment", sa.String(length=10), nullable=False),
        sa.Column("actor_type", sa.String(length=12), nullable=False),
        sa.Column("actor_id", sa.String(length=60), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("resource_type", sa.String(length=40), nullable=False),
        sa.Column("resource_id", sa.String(length=80), nullable=True),
        sa.Column("endpoint", sa.String(length=80), nullable=False),
        sa.Column("request_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index("ix_audit_log_owner", "audit_log", ["org_id", "environment", "id"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN RAISE EXCEPTION '{REFUSED}: % refused', TG_OP; END $$"
        )
        op.execute(
            "CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log "
            "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
        )
        op.execute(
            "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log "
            "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()"
        )
    else:
        for operation in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_log_no_{operation.lower()} BEFORE {operation} "
                f"ON audit_log BEGIN SELECT RAISE(ABORT, '{REFUSED}'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log")
        op.execute("DROP FUNCTION IF EXISTS audit_log_append_only()")
    else:
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
    op.drop_index("ix_audit_log_owner", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_index("ix_consent_records_request_id", table_name="consent_records")
    op.drop_index("ix_consent_records_identifier_hash", table_name="consent_records")
    op.drop_index("ix_consent_records_subject_hash", table_name="consent_records")
    op.drop_index("ix_consent_records_owner", table_name="consent_records")
    op.drop_table("consent_records")

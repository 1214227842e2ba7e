"""sightings: which came with a report (kept with it), an index for the retention purge

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("identity_observations", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("from_report", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_identity_observations_first_seen", ["first_seen"], unique=False)
    # Sightings recorded before this revision do not say where they came from: those of a
    # number the same organisation reported are taken to be the report's (kept with it); the
    # rest are scans' and KYC calls' and expire with the retention.
    seen = sa.table(
        "identity_observations",
        sa.column("environment"), sa.column("identifier_key"), sa.column("org_id"),
        sa.column("from_report", sa.Boolean()),
    )  # fmt: skip
    keys = sa.table(
        "fraud_report_keys",
        sa.column("report_id"), sa.column("kind"), sa.column("key_hash"), sa.column("environment"),
    )  # fmt: skip
    reports = sa.table("fraud_reports", sa.column("id"), sa.column("org_id"))
    reported_by_the_same = (
        sa.select(keys.c.report_id)
        .join(reports, reports.c.id == keys.c.report_id)
        .where(
            keys.c.kind == "identifier",
            keys.c.key_hash == seen.c.identifier_key,
            keys.c.environment == seen.c.environment,
            reports.c.org_id == seen.c.org_id,
        )
        .exists()
    )
    op.execute(sa.update(seen).where(reported_by_the_same).values(from_report=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("identity_observations", schema=None) as batch_op:
        batch_op.drop_index("ix_identity_observations_first_seen")
        batch_op.drop_column("from_report")

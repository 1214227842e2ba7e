"""monitored subjects: their last whole screening (the baseline run at enrolment, issue 35)

Revision ID: 0034_monitoring_baseline
Revises: 0030_results_and_images
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034_monitoring_baseline"
down_revision = "0030_results_and_images"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("monitored_subjects") as batch:
        batch.add_column(sa.Column("screened_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("screened_lists", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("checks_not_run", sa.String(length=80), nullable=True))
    # Subjects enrolled by a screening (monitor: true) were screened as they were enrolled;
    # those enrolled through the endpoint before the baseline existed are screened by the next
    # daily full pass, which records it (their versions are not known: left null).
    op.execute("UPDATE monitored_subjects SET screened_at = created_at WHERE source <> 'api'")


def downgrade() -> None:
    with op.batch_alter_table("monitored_subjects") as batch:
        batch.drop_column("checks_not_run")
        batch.drop_column("screened_lists")
        batch.drop_column("screened_at")

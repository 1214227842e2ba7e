"""scopes and audit identities (issue 30)

- api_keys.created_by: the console user who made a key (None: the command line); the key
  never does more than that user's role does now.
- Keys made with the former default scopes (every scope but account:admin, before the webhook
  scopes existed) get webhooks:read and webhooks:write: they managed webhooks before, as any
  key did. A key made with named scopes gets neither: it now does only what it names.
- Review reasons, reviewers and who recorded a manual check's result are personal data: the
  clear columns become encrypted ones (the Vault), and the "by <who>" of background timeline
  entries is dropped (the check keeps who, encrypted).

Revision ID: 0020_scopes_and_audit
Revises: 0019_live_subject_index
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import context, op

from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.settings import Settings

revision = "0020_scopes_and_audit"
down_revision = "0019_live_subject_index"
branch_labels = None
depends_on = None

FORMER_DEFAULTS = frozenset(
    {
        "identity:read",
        "business:read",
        "fraud:read",
        "fraud:write",
        "screening:read",
        "screening:write",
        "background:read",
        "background:write",
        "background:review",
        "tax:read",
        "vehicle:read",
        "documents:read",
        "credit:read",
        "statements:write",
        "evaluation:read",
    }
)
WEBHOOK_SCOPES = ("webhooks:read", "webhooks:write")

api_keys = sa.table("api_keys", sa.column("id", sa.String), sa.column("scopes", sa.JSON))
reviews = sa.table(
    "screening_reviews",
    sa.column("id", sa.String),
    sa.column("reason", sa.Text),
    sa.column("reviewer", sa.String),
    sa.column("reason_encrypted", sa.Text),
    sa.column("reviewer_encrypted", sa.Text),
)
checks = sa.table(
    "background_checks",
    sa.column("request_id", sa.String),
    sa.column("code", sa.String),
    sa.column("recorded_by", sa.String),
    sa.column("recorded_by_encrypted", sa.Text),
)
timeline = sa.table(
    "background_timeline",
    sa.column("request_id", sa.String),
    sa.column("position", sa.Integer),
    sa.column("event", sa.String),
    sa.column("detail", sa.Text),
)


def _vault() -> Vault:
    settings = context.config.attributes.get("settings") or Settings()
    return Vault(load_master_key(settings))


def _rows(query: Any) -> list[Any]:
    return list(op.get_bind().execute(query))


def upgrade() -> None:
    op.add_column("api_keys", sa.Column("created_by", sa.String(length=40)))
    for key_id, scopes in _rows(sa.select(api_keys.c.id, api_keys.c.scopes)):
        held = list(scopes)
        if set(held) >= FORMER_DEFAULTS:
            added = held + [s for s in WEBHOOK_SCOPES if s not in held]
            op.execute(api_keys.update().where(api_keys.c.id == key_id).values(scopes=added))

    vault = _vault()
    op.add_column("screening_reviews", sa.Column("reason_encrypted", sa.Text))
    op.add_column("screening_reviews", sa.Column("reviewer_encrypted", sa.Text))
    for review_id, reason, reviewer in _rows(
        sa.select(reviews.c.id, reviews.c.reason, reviews.c.reviewer)
    ):
        op.execute(
            reviews.update()
            .where(reviews.c.id == review_id)
            .values(
                reason_encrypted=vault.encrypt(reason), reviewer_encrypted=vault.encrypt(reviewer)
            )
        )
    with op.batch_alter_table("screening_reviews") as batch:
        batch.drop_column("reason")
        batch.drop_column("reviewer")
        batch.alter_column("reason_encrypted", existing_type=sa.Text, nullable=False)
        batch.alter_column("reviewer_encrypted", existing_type=sa.Text, nullable=False)

    op.add_column("background_checks", sa.Column("recorded_by_encrypted", sa.Text))
    for request_id, code, who in _rows(
        sa.select(checks.c.request_id, checks.c.code, checks.c.recorded_by).where(
            checks.c.recorded_by.is_not(None)
        )
    ):
        op.execute(
            checks.update()
            .where(checks.c.request_id == request_id, checks.c.code == code)
            .values(recorded_by_encrypted=vault.encrypt(who))
        )
    with op.batch_alter_table("background_checks") as batch:
        batch.drop_column("recorded_by")
    for request_id, position, detail in _rows(
        sa.select(timeline.c.request_id, timeline.c.position, timeline.c.detail).where(
            timeline.c.event == "check_completed", timeline.c.detail.contains(" by ")
        )
    ):
        op.execute(
            timeline.update()
            .where(timeline.c.request_id == request_id, timeline.c.position == position)
            .values(detail=detail.split(" by ", 1)[0])
        )


def downgrade() -> None:
    vault = _vault()
    op.add_column("background_checks", sa.Column("recorded_by", sa.String(length=120)))
    for request_id, code, sealed in _rows(
        sa.select(checks.c.request_id, checks.c.code, checks.c.recorded_by_encrypted).where(
            checks.c.recorded_by_encrypted.is_not(None)
        )
    ):
        op.execute(
            checks.update()
            .where(checks.c.request_id == request_id, checks.c.code == code)
            .values(recorded_by=vault.decrypt(sealed)[:120])
        )
    with op.batch_alter_table("background_checks") as batch:
        batch.drop_column("recorded_by_encrypted")

    op.add_column("screening_reviews", sa.Column("reason", sa.Text))
    op.add_column("screening_reviews", sa.Column("reviewer", sa.String(length=200)))
    for review_id, reason, reviewer in _rows(
        sa.select(reviews.c.id, reviews.c.reason_encrypted, reviews.c.reviewer_encrypted)
    ):
        op.execute(
            reviews.update()
            .where(reviews.c.id == review_id)
            .values(reason=vault.decrypt(reason), reviewer=vault.decrypt(reviewer)[:200])
        )
    with op.batch_alter_table("screening_reviews") as batch:
        batch.drop_column("reason_encrypted")
        batch.drop_column("reviewer_encrypted")
        batch.alter_column("reason", existing_type=sa.Text, nullable=False)
        batch.alter_column("reviewer", existing_type=sa.String(length=200), nullable=False)

    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("created_by")

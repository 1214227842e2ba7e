"""Console users and their sessions. E-mail addresses are stored encrypted with a keyed hash
for sign-in; session tokens only as keyed hashes."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

console_users = Table(
    "console_users",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False, index=True),
    Column("email_hash", String(64), nullable=False, unique=True),
    Column("email_encrypted", Text, nullable=False),
    Column("role", String(12), nullable=False),
    Column("password_hash", String(200)),  # None until an invited user chooses one
    Column("totp_encrypted", Text),
    Column("totp_last_step", BigInteger),  # the last 30 s step whose code signed in: no replay
    Column("created_at", UtcDateTime(), nullable=False),
    Column("disabled_at", UtcDateTime()),
)

console_sessions = Table(
    "console_sessions",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("user_id", String(40), ForeignKey("console_users.id"), nullable=False, index=True),
    Column("environment", String(10), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("last_seen_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False, index=True),
    Column("ended_at", UtcDateTime()),
)

# One-use links sent by e-mail: an invitation (choose a first password) or a password reset.
console_links = Table(
    "console_links",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("user_id", String(40), ForeignKey("console_users.id"), nullable=False, index=True),
    Column("purpose", String(10), nullable=False),  # invite | reset
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("used_at", UtcDateTime()),
)

"""Verification sessions: one row per link, its steps' results encrypted; and the digests of
every liveness frame ever submitted (a replayed frame is refused). No image is stored."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

verification_sessions = Table(
    "verification_sessions",
    metadata,
    Column("id", String(40), primary_key=True),  # vss_...
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    # created | started | submitted | completed | failed | expired
    Column("status", String(12), nullable=False),
    Column("decision", String(12)),  # approved | review | declined
    Column("steps", Text, nullable=False),  # JSON list, in the order the page asks
    Column("country", String(2), nullable=False),
    Column("id_channel", String(40)),
    Column("customer_reference", String(100), nullable=False),
    Column("customer_encrypted", Text),  # the names the organisation gave, if any
    Column("redirect_url", Text),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("challenge_encrypted", Text),  # {nonce, steps, lead_ms, step_ms, issued_at}
    Column("challenges_issued", Integer, nullable=False),
    Column("results_encrypted", Text),  # {step: {status, reason, evidence}}
    Column("reasons", Text),  # JSON list of the failed steps' reasons, in clear (no data)
    Column("consent_at", UtcDateTime()),
    Column("language", String(5)),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("started_at", UtcDateTime()),
    Column("submitted_at", UtcDateTime()),
    Column("completed_at", UtcDateTime()),
    Column("price", Integer, nullable=False),
    Column("charged_amount", Integer, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("hold_id", String(40)),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_verification_sessions_owner", "org_id", "environment", "created_at"),
)

# A keyed digest of each liveness frame submitted: the same frame twice is a replay.
verification_frames = Table(
    "verification_frames",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("session_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

# An organisation's choice (per environment) to keep a session's images for review: off unless
# set; the images then kept sealed for retention_days, then deleted by housekeeping.
verification_settings = Table(
    "verification_settings",
    metadata,
    Column("org_id", String(40), ForeignKey("organisations.id"), primary_key=True),
    Column("environment", String(10), primary_key=True),
    Column("keep_images", Boolean, nullable=False),
    Column("retention_days", Integer, nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("updated_by_encrypted", Text, nullable=False),  # the key's client id or the user
)

# A kept image of a session (document photo or liveness frame), sealed; only when the
# organisation opted in, and only until delete_after.
verification_images = Table(
    "verification_images",
    metadata,
    Column("id", String(40), primary_key=True),  # vim_...
    Column("session_id", String(40), nullable=False, index=True),
    Column("org_id", String(40), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("kind", String(10), nullable=False),  # document | frame
    Column("position", Integer, nullable=False),  # the frame's order (0 for the document)
    Column("t_ms", Integer),  # a frame's time in the challenge
    Column("image_sealed", LargeBinary, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("delete_after", UtcDateTime(), nullable=False, index=True),
)

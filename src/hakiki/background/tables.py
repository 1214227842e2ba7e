"""Background-check tables: custom packages, candidate requests, their checks, the append-only
timeline and the candidate's documents (encrypted)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

background_packages = Table(
    "background_packages",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("name", String(120), nullable=False),
    Column("name_key", String(120), nullable=False),  # casefolded: unique per organisation
    Column("country", String(2), nullable=False),
    Column("description", Text, nullable=False),
    Column("check_types", Text, nullable=False),  # JSON list of codes
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    UniqueConstraint("org_id", "environment", "name_key", name="uq_background_packages_name"),
)

background_requests = Table(
    "background_requests",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("reference", String(40), nullable=False, unique=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    # The package as it was when the request was made: deleting or editing the package later
    # leaves a running request intact. JSON {id, name, country, check_types}.
    Column("package_id", String(40), nullable=False),
    Column("package_snapshot", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("result", String(12)),
    Column("candidate_encrypted", Text, nullable=False),  # names, e-mail, phone, ID number
    Column("submission_encrypted", Text),  # what the candidate gave on the invitation page
    Column("sandbox_path", String(10)),  # complete | consider | stall | expire (sandbox)
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("invitation", Integer, nullable=False),  # 1, then +1 per reinitiate
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("submitted_at", UtcDateTime()),
    Column("completed_at", UtcDateTime()),
    Column("callback_url", Text),
    Column("price", BigInteger, nullable=False),  # reserved, minor units (0 in sandbox)
    Column("charged_amount", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("hold_id", String(40)),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_background_requests_owner", "org_id", "environment", "created_at"),
)

background_checks = Table(
    "background_checks",
    metadata,
    Column("request_id", String(40), ForeignKey("background_requests.id"), primary_key=True),
    Column("code", String(40), primary_key=True),
    Column("kind", String(10), nullable=False),  # automated | manual
    Column("status", String(20), nullable=False),
    Column("result", String(12)),
    Column("evidence_encrypted", Text),  # JSON: what the engine found or the analyst recorded
    Column("price", BigInteger, nullable=False),
    Column("transaction_id", String(40)),
    Column("due_at", UtcDateTime()),
    Column("completed_at", UtcDateTime()),
    # Who recorded a manual result: the caller (a user's e-mail or a key's client id), encrypted.
    Column("recorded_by_encrypted", Text),
)

background_timeline = Table(
    "background_timeline",
    metadata,
    Column("request_id", String(40), ForeignKey("background_requests.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("at", UtcDateTime(), nullable=False),
    Column("event", String(40), nullable=False),
    Column("status", String(12), nullable=False),  # the request's status after the event
    Column("detail", Text, nullable=False),
)

background_documents = Table(
    "background_documents",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("request_id", String(40), ForeignKey("background_requests.id"), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("content_type", String(100), nullable=False),
    Column("size", Integer, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("sealed", LargeBinary, nullable=False),  # AES-GCM: the file name and the bytes
    Column("created_at", UtcDateTime(), nullable=False),
)

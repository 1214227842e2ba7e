"""The database schema as SQLAlchemy Core tables.

Core (not the ORM) because the hot path (auth, wallet debit, request log) needs lean statements;
see NOTES.md: the async ORM costs about 4x in throughput here.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from hakiki.core.clock import UtcDateTime

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

organisations = Table(
    "organisations",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("approved", Boolean, nullable=False, default=False),
    Column("currency", String(3), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("approved_at", UtcDateTime()),
)

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False, index=True),
    Column("client_id", String(80), nullable=False, unique=True),
    Column("secret_hash", String(64), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("scopes", JSON, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("revoked_at", UtcDateTime()),
    # The console user who made the key (None: the operator's command line). The key never
    # does more than that user's role does now (core.auth.KeyCache, docs/decisions.md).
    Column("created_by", String(40)),
    Column("name", String(80)),  # the console's label for the key (issue 36)
)

wallets = Table(
    "wallets",
    metadata,
    Column("org_id", String(40), ForeignKey("organisations.id"), primary_key=True),
    Column("currency", String(3), nullable=False),
    # balance: settled money; reserved: sum of open holds. Available = balance - reserved.
    Column("balance", BigInteger, nullable=False, default=0),
    Column("reserved", BigInteger, nullable=False, default=0),
    Column("last_seq", Integer, nullable=False, default=0),  # seq of the newest transaction
    Column("updated_at", UtcDateTime(), nullable=False),
)

wallet_holds = Table(
    "wallet_holds",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False, index=True),
    Column("amount", BigInteger, nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False, index=True),
)

wallet_transactions = Table(
    "wallet_transactions",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("kind", String(10), nullable=False),  # credit | debit | reversal
    Column("amount", BigInteger, nullable=False),  # signed: debits negative
    Column("balance_after", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("endpoint", String(80)),
    Column("request_id", String(40)),
    Column("reverses_id", String(40)),
    Column("description", String(300), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    UniqueConstraint("org_id", "seq", name="uq_wallet_transactions_org_seq"),
    Index("ix_wallet_transactions_org_created", "org_id", "seq"),
    Index("uq_wallet_transactions_reverses_id", "reverses_id", unique=True),  # one per debit
    Index("ix_wallet_transactions_request", "request_id"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("org_id", String(40), primary_key=True),
    Column("environment", String(10), primary_key=True),
    Column("key", String(255), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("state", String(12), nullable=False),  # in_progress | complete
    Column("status_code", Integer),
    Column("response_body", Text),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False, index=True),
)

LIVE_SUBJECTS = text("environment = 'live' AND subject_hash IS NOT NULL")

request_logs = Table(
    "request_logs",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), index=True),
    Column("api_key_id", String(40)),
    Column("environment", String(10)),
    Column("method", String(8), nullable=False),
    Column("path", String(200), nullable=False),
    Column("status_code", Integer, nullable=False),
    Column("response_code", String(4)),
    Column("channel", String(40)),
    Column("subject_hash", String(64)),
    Column("subject_encrypted", Text),
    Column("request_body", JSON),
    Column("duration_ms", Integer),
    Column("transaction_id", String(40)),
    Column("error_message", Text),  # an error answer's code and message (issue 36)
    Column("created_at", UtcDateTime(), nullable=False, index=True),
    # The console's Keys page (last used) and its request log filtered by key.
    Index("ix_request_logs_key_time", "api_key_id", "created_at"),
    # Live fraud scans count a subject's recent live checks from this index alone; sandbox
    # calls stay out of it (they are never counted, and a random hash costs the most to index).
    Index(
        "ix_request_logs_live_subject_recent",
        "subject_hash",
        "created_at",
        "org_id",
        sqlite_where=LIVE_SUBJECTS,
        postgresql_where=LIVE_SUBJECTS,
    ),
)

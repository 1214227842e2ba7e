"""Credit tables: bureau reports, kept (encrypted) so a decision can use one by reference; a
lender's own models, their activations, the decisions with their inputs, and the lender's
credit products."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
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

credit_reports = Table(
    "credit_reports",
    metadata,
    Column("reference", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("bureau", String(20), nullable=False),
    Column("subject_hash", String(64), nullable=False),  # keyed hash of country, type, number
    Column("report_encrypted", Text, nullable=False),  # the normalised report, JSON, encrypted
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_credit_reports_org", "org_id", "environment", "created_at"),
)

# A lender's own scorecards (docs/credit-model.md, "Your own model"): the uploaded loan book
# (encrypted, kept only until the model is trained), training progress, then the model file
# with its card (aggregate figures only, nothing about one borrower).
credit_models = Table(
    "credit_models",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("version", String(60), nullable=False),
    Column("status", String(12), nullable=False),  # pending | training | trained | failed
    Column("stage", String(80), nullable=False),  # what the job is doing, for progress
    Column("progress", Integer, nullable=False),  # 0-100
    Column("file_name", String(255), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("window_days", Integer, nullable=False),
    Column("book_encrypted", LargeBinary),  # the CSV, zlib then AES-GCM; None once trained
    Column("document", Text),  # the model file, JSON, with its card
    Column("activatable", Boolean),
    Column("refusal_reason", Text),
    Column("failure_reason", Text),
    Column("request_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("trained_at", UtcDateTime()),
    Column("updated_at", UtcDateTime(), nullable=False),
    UniqueConstraint("org_id", "environment", "version", name="uq_credit_models_version"),
    Index("ix_credit_models_owner", "org_id", "environment", "created_at"),
)

# Every activation and rollback, in order: the newest row of an organisation's environment
# names its active model (None: the demo model). One active model per environment by design.
credit_model_activations = Table(
    "credit_model_activations",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("model_id", String(40), ForeignKey("credit_models.id")),
    Column("action", String(10), nullable=False),  # activate | rollback
    Column("request_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_credit_model_activations_owner", "org_id", "environment", "seq"),
)

# Every decision: the model that made it and its inputs (encrypted), so it can be replayed.
credit_decisions = Table(
    "credit_decisions",
    metadata,
    Column("reference", String(44), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("model_id", String(40)),  # None: the demo model
    Column("model_version", String(60), nullable=False),
    Column("score", Integer, nullable=False),
    Column("decision", String(10), nullable=False),
    Column("inputs_encrypted", Text, nullable=False),  # the applicant's inputs, JSON
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_credit_decisions_owner", "org_id", "environment", "created_at"),
)

# A lender's credit products (docs/credit.md#credit-products): the bounds a decision's loan must
# fit when it names the product, and the model that decides it (None: the active model).
# Nothing about a borrower: the organisation's own catalogue.
credit_products = Table(
    "credit_products",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("name", String(100), nullable=False),
    Column("name_key", String(100), nullable=False),  # casefolded: unique per environment
    Column("description", Text),
    Column("currency", String(3), nullable=False),
    Column("min_amount", BigInteger, nullable=False),  # minor units
    Column("max_amount", BigInteger, nullable=False),
    Column("min_term_months", Integer, nullable=False),
    Column("max_term_months", Integer, nullable=False),
    Column("purposes", JSON, nullable=False),  # allowed loan purposes; [] any the model knows
    Column("model_id", String(40), ForeignKey("credit_models.id")),
    Column("active", Boolean, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    UniqueConstraint("org_id", "environment", "name_key", name="uq_credit_products_name"),
    Index("ix_credit_products_owner", "org_id", "environment", "created_at"),
)

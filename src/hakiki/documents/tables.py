"""Document verifications' results, kept for the console's result page (issue 36): the result
(the zone's fields are personal data) sealed; the verdict and type in clear. No image."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, LargeBinary, String, Table

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

document_verifications = Table(
    "document_verifications",
    metadata,
    Column("id", String(40), primary_key=True),  # doc_... (the response's reference)
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("document_type", String(20), nullable=False),
    Column("country_code", String(2)),
    Column("verdict", String(12), nullable=False),  # clear | attention | rejected
    Column("result_sealed", LargeBinary, nullable=False),  # DocumentResultData, JSON
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_document_verifications_owner", "org_id", "environment", "created_at"),
)

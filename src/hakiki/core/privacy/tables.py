"""Consent records and the audit log (issue 40, docs/privacy.md).

``consent_records``: one row per consent a call or a hosted page recorded, the consent itself
encrypted; found for a data subject by ``subject_hash`` (the organisation's own subject
reference, keyed) or ``identifier_hash`` (the identity number the call was about, keyed as the
request log keys it), and for a call by ``request_id``.

``audit_log``: who (an API key, a console user, a data subject on a hosted page) read or
changed which resource, when, in which request. It holds ids only, never personal data; the
migration adds triggers that refuse UPDATE and DELETE on both databases."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

consent_records = Table(
    "consent_records",
    metadata,
    Column("id", String(40), primary_key=True),  # cns_...
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("endpoint", String(80), nullable=False),  # the catalogue key, or the hosted page
    Column("reference", String(80)),  # the resource the call made (its reference or id)
    Column("source", String(12), nullable=False),  # api | attested | hosted | console
    Column("subject_hash", String(64)),  # keyed digest of the organisation's subject reference
    Column("identifier_hash", String(64)),  # keyed digest of the identity number (request log's)
    Column("consent_encrypted", Text, nullable=False),  # the consent object, JSON, encrypted
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_consent_records_owner", "org_id", "environment", "created_at"),
    Index("ix_consent_records_subject_hash", "subject_hash"),
    Index("ix_consent_records_identifier_hash", "identifier_hash"),
    Index("ix_consent_records_request_id", "request_id"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", String(40), primary_key=True),  # aud_..., sorts by time
    Column("org_id", String(40), nullable=False),  # no foreign key: the log outlives its rows
    Column("environment", String(10), nullable=False),
    Column("actor_type", String(12), nullable=False),  # api_key | user | subject
    Column("actor_id", String(60), nullable=False),  # the key's or user's id, or the session's
    Column("action", String(10), nullable=False),  # read | create | update | delete | export
    Column("resource_type", String(40), nullable=False),
    Column("resource_id", String(80)),  # null for a list
    Column("endpoint", String(80), nullable=False),
    Column("request_id", String(40), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_audit_log_owner", "org_id", "environment", "id"),
)

"""Registry checks: one row per KYB, vehicle or tax call, so its reference can be fetched with
the category's status call and a pending one finished by a job. The request (numbers, names)
and the answer's data are stored encrypted."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, String, Table, Text, UniqueConstraint

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

registry_checks = Table(
    "registry_checks",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("org_id", String(40), ForeignKey("organisations.id"), nullable=False),
    Column("environment", String(10), nullable=False),
    Column("reference", String(64), nullable=False),
    Column("category", String(20), nullable=False),  # kyb | vehicle | tax: the kind finishing it
    Column("endpoint", String(80), nullable=False),  # the catalogue key, e.g. tax.pin
    Column("state", String(10), nullable=False),  # pending | completed | failed
    Column("outcome", String(20), nullable=False),  # the envelope's status
    Column("message", Text, nullable=False),
    Column("provider", String(40), nullable=False),
    Column("provider_reference", String(120)),  # repository.bounded cuts longer ones
    Column("subject_hash", String(64), nullable=False),
    Column("request_encrypted", Text, nullable=False),  # what the completion job asks again
    Column("data_encrypted", Text, nullable=False),  # the result's data object
    Column("request_id", String(40), nullable=False),  # its debit's request_id, when charged
    Column("created_at", UtcDateTime(), nullable=False),
    Column("completed_at", UtcDateTime()),
    UniqueConstraint("org_id", "environment", "reference", name="uq_registry_checks_reference"),
)

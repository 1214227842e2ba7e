"""The lists domain's tables."""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

# Every attempt to update an official list (hakiki lists update): good versions and failures,
# append-only. The files of good versions live under <data_dir>/lists/<code>/<version>/.
list_versions = Table(
    "list_versions",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("code", String(80), nullable=False),
    Column("version", String(80)),  # null when the download or parse failed before a version
    Column("fetched_at", UtcDateTime(), nullable=False),
    Column("entity_count", Integer),
    Column("sha256", String(64)),
    Column("status", String(10), nullable=False),  # ok | failed
    Column("error", Text),
    Index("ix_list_versions_code_fetched", "code", "fetched_at"),
)

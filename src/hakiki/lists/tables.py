"""The lists domain's tables."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, LargeBinary, String, Table, Text

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

# The version of each list every process must screen with (one row per list code): written in
# the transaction that records a changed version, read by every process's list watch
# (lists/watch.py) to pick it up without a restart. ``manifest`` is the version's manifest.json.
list_current = Table(
    "list_current",
    metadata,
    Column("code", String(80), primary_key=True),
    Column("version", String(80), nullable=False),
    Column("folder", String(100), nullable=False),  # the folder under <data_dir>/lists/<code>/
    Column("sha256", String(64), nullable=False),  # of the file set (store.files_digest)
    Column("manifest", Text, nullable=False),
    Column("changed_at", UtcDateTime(), nullable=False),
)

# The gzipped files of each stored version, in parts, so a process whose data folder is on
# another machine writes the version to its own disk (docs/decisions.md).
list_file_parts = Table(
    "list_file_parts",
    metadata,
    Column("sha256", String(64), primary_key=True),  # the file set's
    Column("role", String(40), primary_key=True),
    Column("part", Integer, primary_key=True),  # 0, 1, ... in file order
    Column("data", LargeBinary, nullable=False),
)

# One row per period of HAKIKI_LISTS_UPDATE_EVERY_SECONDS whose scheduled update was queued:
# the process that inserts it queues the job; every other one finds the row and does nothing.
list_update_slots = Table(
    "list_update_slots",
    metadata,
    Column("slot", BigInteger, primary_key=True),  # seconds since the epoch // the period
    Column("every_seconds", Integer, nullable=False),
    Column("queued_at", UtcDateTime(), nullable=False),
)

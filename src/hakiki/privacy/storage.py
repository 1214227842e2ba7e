"""What an erasure leaves in the database's files. SQLite: every connection runs with
``secure_delete`` (core/database.py), so a deleted or rewritten row's bytes are zeroed in the
database file; the WAL still holds the pages as they were written before, until a checkpoint
copies it back and truncates it, which this does after an erasure. PostgreSQL: deleted rows
stay in their pages until (auto)vacuum reclaims them (docs/privacy.md#subject-rights)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from hakiki.core.database import Database


async def forget_freed_pages(db: Database) -> bool:
    """Checkpoint and truncate SQLite's WAL (writers wait at the gate meanwhile); True when
    it was emptied, False when a reader kept it (the next erasure or checkpoint retries)."""
    if not db.is_sqlite:
        return True
    async with AsyncExitStack() as stack:
        if db.gate is not None:
            await stack.enter_async_context(db.gate.held())
        async with db.reader.connect() as conn:
            result = await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            busy = result.first()
    return busy is not None and busy[0] == 0

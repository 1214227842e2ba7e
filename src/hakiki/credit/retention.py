"""Bureau reports are kept only as long as a decision may need them."""

from __future__ import annotations

from datetime import timedelta

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.credit import repository


async def purge_expired(db: Database, retention_days: int) -> int:
    """Delete the bureau reports pulled more than ``retention_days`` ago
    (HAKIKI_CREDIT_REPORT_RETENTION_DAYS); a decision by their reference is then a 404."""
    async with transaction(db) as conn:
        return await repository.purge_reports_before(
            conn, utcnow() - timedelta(days=retention_days)
        )

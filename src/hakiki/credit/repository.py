"""Every query of the credit domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.credit.tables import credit_reports


async def save_report(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(credit_reports).values(**row))


async def find_report(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> str | None:
    """The encrypted report ``reference`` names, if the organisation and environment own it."""
    query = select(credit_reports.c.report_encrypted).where(
        credit_reports.c.reference == reference,
        credit_reports.c.org_id == org_id,
        credit_reports.c.environment == environment,
    )
    return (await conn.execute(query)).scalar_one_or_none()


async def purge_reports_before(conn: AsyncConnection, cutoff: datetime) -> int:
    result = await conn.execute(delete(credit_reports).where(credit_reports.c.created_at < cutoff))
    return int(result.rowcount or 0)

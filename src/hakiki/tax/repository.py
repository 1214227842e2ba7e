"""Queries of the tax_checks table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.tax.tables import tax_checks


async def insert_once(conn: AsyncConnection, row: dict[str, Any]) -> bool:
    """Insert the row unless the organisation already has its reference (a sandbox reference
    is the same for the same request); whether it was inserted."""
    if await find(conn, row["org_id"], row["environment"], row["reference"]) is not None:
        return False
    await conn.execute(insert(tax_checks).values(**row))
    return True


async def find(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(tax_checks).where(
        tax_checks.c.org_id == org_id,
        tax_checks.c.environment == environment,
        tax_checks.c.reference == reference,
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def get(conn: AsyncConnection, check_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(tax_checks).where(tax_checks.c.id == check_id))).first()
    return dict(row._mapping) if row else None


async def finalise(
    conn: AsyncConnection,
    check_id: str,
    *,
    state: str,
    outcome: str,
    message: str,
    provider_reference: str | None,
    data_encrypted: str,
    completed_at: datetime,
) -> bool:
    """Move a pending check to its final state; False when it is no longer pending (so a
    final state never changes, whoever finalises twice)."""
    result = await conn.execute(
        update(tax_checks)
        .where(tax_checks.c.id == check_id, tax_checks.c.state == "pending")
        .values(
            state=state,
            outcome=outcome,
            message=message,
            provider_reference=provider_reference,
            data_encrypted=data_encrypted,
            completed_at=completed_at,
        )
    )
    return result.rowcount == 1

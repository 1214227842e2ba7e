"""Queries of the vehicle_checks table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.vehicle.tables import vehicle_checks


async def insert_once(conn: AsyncConnection, row: dict[str, Any]) -> bool:
    """Insert the row unless the organisation already has its reference (a sandbox reference
    is the same for the same identifier); whether it was inserted."""
    query = select(vehicle_checks.c.id).where(
        vehicle_checks.c.org_id == row["org_id"],
        vehicle_checks.c.environment == row["environment"],
        vehicle_checks.c.reference == row["reference"],
    )
    if (await conn.execute(query)).first() is not None:
        return False
    await conn.execute(insert(vehicle_checks).values(**row))
    return True


async def get(conn: AsyncConnection, check_id: str) -> dict[str, Any] | None:
    row = (
        await conn.execute(select(vehicle_checks).where(vehicle_checks.c.id == check_id))
    ).first()
    return dict(row._mapping) if row else None


async def finalise(
    conn: AsyncConnection,
    check_id: str,
    *,
    state: str,
    outcome: str,
    provider_reference: str | None,
    data_encrypted: str,
    completed_at: datetime,
) -> bool:
    """Move a pending check to its final state; False when it is no longer pending."""
    result = await conn.execute(
        update(vehicle_checks)
        .where(vehicle_checks.c.id == check_id, vehicle_checks.c.state == "pending")
        .values(
            state=state,
            outcome=outcome,
            provider_reference=provider_reference,
            data_encrypted=data_encrypted,
            completed_at=completed_at,
        )
    )
    return result.rowcount == 1

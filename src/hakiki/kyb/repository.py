"""Queries of the kyb_checks table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.kyb.tables import kyb_checks


async def insert_once(conn: AsyncConnection, row: dict[str, Any]) -> bool:
    """Insert unless the organisation has the reference already (a sandbox reference is the
    same for the same number); whether it was inserted."""
    query = select(kyb_checks.c.id).where(
        kyb_checks.c.org_id == row["org_id"],
        kyb_checks.c.environment == row["environment"],
        kyb_checks.c.reference == row["reference"],
    )
    if (await conn.execute(query)).first() is not None:
        return False
    await conn.execute(insert(kyb_checks).values(**row))
    return True


async def get(conn: AsyncConnection, check_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(kyb_checks).where(kyb_checks.c.id == check_id))).first()
    return dict(row._mapping) if row else None


async def find(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(kyb_checks).where(
        kyb_checks.c.org_id == org_id,
        kyb_checks.c.environment == environment,
        kyb_checks.c.reference == reference,
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def finalise(
    conn: AsyncConnection,
    check_id: str,
    *,
    state: str,
    outcome: str,
    data_encrypted: str,
    completed_at: datetime,
) -> bool:
    """Move a pending check to its final state; False when it was final already."""
    result = await conn.execute(
        update(kyb_checks)
        .where(kyb_checks.c.id == check_id, kyb_checks.c.state == "pending")
        .values(
            state=state, outcome=outcome, data_encrypted=data_encrypted, completed_at=completed_at
        )
    )
    return result.rowcount == 1

"""Queries of the verifications table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.kyc.tables import verifications


async def insert_once(conn: AsyncConnection, row: dict[str, Any]) -> bool:
    """Insert the row unless the organisation already has its reference (a sandbox reference
    is the same for the same number); whether it was inserted."""
    if await find(conn, row["org_id"], row["environment"], row["reference"]) is not None:
        return False
    await conn.execute(insert(verifications).values(**row))
    return True


async def find(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(verifications).where(
        verifications.c.org_id == org_id,
        verifications.c.environment == environment,
        verifications.c.reference == reference,
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def get(conn: AsyncConnection, verification_id: str) -> dict[str, Any] | None:
    query = select(verifications).where(verifications.c.id == verification_id)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def finalise(
    conn: AsyncConnection,
    verification_id: str,
    *,
    state: str,
    outcome: str,
    provider_reference: str | None,
    data_encrypted: str,
    completed_at: datetime,
    provider: str | None = None,
) -> bool:
    """Move a pending verification to its final state; False when it is no longer pending
    (so a final state never changes, whoever finalises twice)."""
    result = await conn.execute(
        update(verifications)
        .where(verifications.c.id == verification_id, verifications.c.state == "pending")
        .values(
            state=state,
            outcome=outcome,
            provider_reference=provider_reference,
            data_encrypted=data_encrypted,
            completed_at=completed_at,
            **({"provider": provider} if provider else {}),
        )
    )
    return result.rowcount == 1

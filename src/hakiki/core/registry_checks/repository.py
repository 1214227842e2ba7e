"""Queries of the registry_checks table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.registry_checks.tables import registry_checks

PROVIDER_REFERENCE_LENGTH = 120  # the column's length


def bounded(provider_reference: str | None) -> str | None:
    """An upstream's reference as stored: an overlong one is cut, never a failed write."""
    return provider_reference[:PROVIDER_REFERENCE_LENGTH] if provider_reference else None


async def insert_once(conn: AsyncConnection, row: dict[str, Any]) -> bool:
    """Insert the row unless the organisation already has its reference (a sandbox reference
    is the same for the same request); whether it was inserted."""
    query = select(registry_checks.c.id).where(
        registry_checks.c.org_id == row["org_id"],
        registry_checks.c.environment == row["environment"],
        registry_checks.c.reference == row["reference"],
    )
    if (await conn.execute(query)).first() is not None:
        return False
    await conn.execute(insert(registry_checks).values(**row))
    return True


async def find(
    conn: AsyncConnection, org_id: str, environment: str, category: str, reference: str
) -> dict[str, Any] | None:
    query = select(registry_checks).where(
        registry_checks.c.org_id == org_id,
        registry_checks.c.environment == environment,
        registry_checks.c.reference == reference,
        registry_checks.c.category == category,
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def get(conn: AsyncConnection, check_id: str) -> dict[str, Any] | None:
    query = select(registry_checks).where(registry_checks.c.id == check_id)
    row = (await conn.execute(query)).first()
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
    provider: str | None = None,
) -> bool:
    """Move a pending check to its final state; False when it is no longer pending (so a
    final state never changes, whoever finalises second). ``provider``: the provider that
    answered, when the chain fell back to another than the one first expected."""
    answered_by = {"provider": provider[:40]} if provider else {}
    result = await conn.execute(
        update(registry_checks)
        .where(registry_checks.c.id == check_id, registry_checks.c.state == "pending")
        .values(
            state=state,
            outcome=outcome,
            message=message,
            provider_reference=bounded(provider_reference),
            data_encrypted=data_encrypted,
            completed_at=completed_at,
            **answered_by,
        )
    )
    return result.rowcount == 1

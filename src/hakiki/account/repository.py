"""Queries for organisations and API keys."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.tables import api_keys, organisations, wallets


async def find_org_by_name(conn: AsyncConnection, name: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(organisations).where(organisations.c.name == name))).first()
    return dict(row._mapping) if row else None


async def count_orgs(conn: AsyncConnection) -> int:
    return len((await conn.execute(select(organisations.c.id).limit(1))).all())


async def insert_org(
    conn: AsyncConnection, org_id: str, name: str, approved: bool, currency: str
) -> None:
    now = utcnow()
    await conn.execute(
        insert(organisations).values(
            id=org_id,
            name=name,
            approved=approved,
            currency=currency,
            created_at=now,
            approved_at=now if approved else None,
        )
    )
    await conn.execute(
        insert(wallets).values(
            org_id=org_id, currency=currency, balance=0, reserved=0, last_seq=0, updated_at=now
        )
    )


async def approve_org(conn: AsyncConnection, org_id: str) -> None:
    await conn.execute(
        update(organisations)
        .where(organisations.c.id == org_id, organisations.c.approved.is_(False))
        .values(approved=True, approved_at=utcnow())
    )


async def insert_key(
    conn: AsyncConnection,
    key_id: str,
    org_id: str,
    client_id: str,
    secret_hash: str,
    environment: str,
    scopes: list[str],
) -> None:
    await conn.execute(
        insert(api_keys).values(
            id=key_id,
            org_id=org_id,
            client_id=client_id,
            secret_hash=secret_hash,
            environment=environment,
            scopes=scopes,
            created_at=utcnow(),
        )
    )


async def revoke_key(conn: AsyncConnection, client_id: str) -> bool:
    result = await conn.execute(
        update(api_keys)
        .where(api_keys.c.client_id == client_id, api_keys.c.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return result.rowcount == 1

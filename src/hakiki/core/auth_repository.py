"""The authentication look-up: a key and its organisation by client id."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import api_keys, organisations


async def find_key_with_org(conn: AsyncConnection, client_id: str) -> dict[str, Any] | None:
    """The key and its organisation in one query (the authentication look-up)."""
    query = (
        select(
            api_keys.c.id.label("key_id"),
            api_keys.c.client_id,
            api_keys.c.secret_hash,
            api_keys.c.environment,
            api_keys.c.scopes,
            api_keys.c.revoked_at,
            api_keys.c.created_by,
            organisations.c.id.label("org_id"),
            organisations.c.name.label("org_name"),
            organisations.c.approved,
            organisations.c.currency,
        )
        .join(organisations, organisations.c.id == api_keys.c.org_id)
        .where(api_keys.c.client_id == client_id)
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None

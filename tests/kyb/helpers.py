"""Helpers for the KYB tests."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from hakiki.core.database import Database, read
from hakiki.core.tables import wallet_transactions


async def post(
    client: httpx.AsyncClient, kind: str, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post(f"/v3/kyb/{kind}", json=body, headers=headers)


async def ledger_kinds(db: Database, org_id: str) -> dict[str, int]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(wallet_transactions.c.kind, func.count())
            .where(wallet_transactions.c.org_id == org_id)
            .group_by(wallet_transactions.c.kind)
        )
        return {str(kind): int(count) for kind, count in rows}

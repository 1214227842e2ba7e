"""Helpers for the tax tests: calls, polling, and the completion job of a pending check."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.core.jobs.tables import jobs
from hakiki.core.registry_checks.tables import registry_checks
from hakiki.core.registry_checks.tasks import COMPLETE_TASK


async def post(
    client: httpx.AsyncClient, check: str, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post(f"/v3/tax/{check}", json=body, headers=headers)


async def status(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str
) -> httpx.Response:
    return await client.get(f"/v3/tax/status/{reference}", headers=headers)


async def wait_final(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str, seconds: float = 15
) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        body: dict[str, Any] = (await status(client, headers, reference)).json()
        if body["data"]["state"] != "pending":
            return body
        assert asyncio.get_running_loop().time() < deadline, body
        await asyncio.sleep(0.05)


async def completion_job(db: Database, org_id: str, reference: str) -> dict[str, Any]:
    async with read(db) as conn:
        check_id = (
            await conn.execute(
                select(registry_checks.c.id).where(
                    registry_checks.c.org_id == org_id, registry_checks.c.reference == reference
                )
            )
        ).scalar_one()
        rows = await conn.execute(select(jobs).where(jobs.c.task == COMPLETE_TASK))
        found = [dict(r._mapping) for r in rows if r.payload["check_id"] == check_id]
    assert len(found) == 1, found
    return found[0]


async def stored_rows(db: Database, org_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(registry_checks).where(
                registry_checks.c.org_id == org_id, registry_checks.c.category == "tax"
            )
        )
        return [dict(r._mapping) for r in rows]

"""Helpers of the background-check tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from sqlalchemy import select, update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.jobs.tables import jobs
from hakiki.webhooks.tables import webhook_events


def candidate(email: str = "wanjiru@example.com", **extra: Any) -> dict[str, Any]:
    return {"first_name": "Wanjiru", "last_name": "Kamau", "email": email, **extra}


async def invite(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    package_id: str = "spk_ke_basic_identity",
    *people: dict[str, Any],
) -> httpx.Response:
    body = {"package_id": package_id, "candidates": list(people) or [candidate()]}
    return await client.post("/v3/background/candidates", json=body, headers=headers)


async def until(
    check: Callable[[], Awaitable[Any]], seconds: float = 20, what: str = "condition"
) -> Any:
    """Poll ``check`` until it returns something truthy."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        found = await check()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def status_becomes(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str, status: str
) -> dict[str, Any]:
    async def look() -> dict[str, Any] | None:
        got = await client.get(f"/v3/background/candidates/{reference}", headers=headers)
        body: dict[str, Any] = got.json()
        return body if body["status"] == status else None

    result: dict[str, Any] = await until(look, what=f"{reference} to become {status}")
    return result


async def events(db: Database, org_id: str, reference: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events)
            .where(webhook_events.c.org_id == org_id, webhook_events.c.resource_id == reference)
            .order_by(webhook_events.c.sequence)
        )
        return [dict(r._mapping) for r in rows]


async def run_due_now(db: Database, task_name: str) -> int:
    """Let the clock "pass" for the queued jobs of ``task_name``: they become due now."""
    async with transaction(db) as conn:
        result = await conn.execute(
            update(jobs)
            .where(jobs.c.task == task_name, jobs.c.status == "queued")
            .values(run_after=utcnow())
        )
        return int(result.rowcount)

"""Helpers for the registry checks (KYB, vehicle, tax): their status calls, their shared rows,
completion jobs and events."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.core.jobs.tables import jobs
from hakiki.core.registry_checks.tables import registry_checks
from hakiki.core.registry_checks.tasks import COMPLETE_TASK
from hakiki.webhooks.tables import webhook_events


async def get_status(
    client: httpx.AsyncClient, category: str, headers: dict[str, str], reference: str
) -> httpx.Response:
    return await client.get(f"/v3/{category}/status/{reference}", headers=headers)


async def wait_final(
    client: httpx.AsyncClient,
    category: str,
    headers: dict[str, str],
    reference: str,
    seconds: float = 15,
) -> dict[str, Any]:
    """Poll the status call until the check is no longer pending."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        response = await get_status(client, category, headers, reference)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["data"]["state"] != "pending":
            return body
        assert asyncio.get_running_loop().time() < deadline, body
        await asyncio.sleep(0.05)


async def check_row(db: Database, org_id: str, reference: str) -> dict[str, Any] | None:
    async with read(db) as conn:
        row = (
            await conn.execute(
                select(registry_checks).where(
                    registry_checks.c.org_id == org_id, registry_checks.c.reference == reference
                )
            )
        ).first()
    return dict(row._mapping) if row else None


async def category_rows(db: Database, org_id: str, category: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(registry_checks).where(
                registry_checks.c.org_id == org_id, registry_checks.c.category == category
            )
        )
        return [dict(r._mapping) for r in rows]


async def completion_job(db: Database, check_id: str) -> dict[str, Any]:
    """The one completion job of the check ``check_id``."""
    async with read(db) as conn:
        rows = await conn.execute(select(jobs).where(jobs.c.task == COMPLETE_TASK))
        found = [dict(r._mapping) for r in rows if r.payload["check_id"] == check_id]
    assert len(found) == 1, found
    return found[0]


async def events_for(db: Database, org_id: str, reference: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events)
            .where(webhook_events.c.org_id == org_id, webhook_events.c.resource_id == reference)
            .order_by(webhook_events.c.sequence)
        )
        return [dict(r._mapping) for r in rows]


async def wait_event(
    db: Database, org_id: str, reference: str, seconds: float = 20
) -> dict[str, Any]:
    """The one event of the check ``reference``, once it is there."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        events = await events_for(db, org_id, reference)
        if events:
            assert len(events) == 1, events
            return events[0]
        assert asyncio.get_running_loop().time() < deadline, "no event"
        await asyncio.sleep(0.05)

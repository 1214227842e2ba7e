"""Helpers for the vehicle tests."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.webhooks.tables import webhook_events

PATH = "/v3/vehicle/verify"


async def verify(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(PATH, json=body, headers=headers)


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
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        events = await events_for(db, org_id, reference)
        if events:
            assert len(events) == 1, events
            return events[0]
        assert asyncio.get_running_loop().time() < deadline, "no event"
        await asyncio.sleep(0.05)

"""Fixtures for webhook tests: a receiver, endpoints created over HTTP, and helpers that wait
for deliveries and let the clock "pass" for a job waiting on its backoff."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.jobs import repository as jobs
from hakiki.webhooks.service import emit
from hakiki.webhooks.tables import webhook_deliveries, webhook_endpoints
from tests.conftest import Account
from tests.webhooks.receiver import Receiver, run_receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with run_receiver() as running:
        yield running


@pytest_asyncio.fixture(autouse=True)
async def _forget_endpoints(db: Database) -> AsyncIterator[None]:
    """Each test's endpoints end with it, so later events (list updates go to everyone) are
    not sent to receivers that have stopped."""
    yield
    async with transaction(db) as conn:
        await conn.execute(
            update(webhook_endpoints)
            .where(webhook_endpoints.c.deleted_at.is_(None))
            .values(deleted_at=utcnow())
        )


async def create_endpoint(
    client: httpx.AsyncClient, account: Account, url: str, **fields: Any
) -> dict[str, Any]:
    response = await client.post(
        "/v3/account/webhooks", json={"url": url, **fields}, headers=account.headers
    )
    assert response.status_code == 201, response.text
    endpoint: dict[str, Any] = response.json()
    return endpoint


async def emit_now(db: Database, account: Account, **fields: Any) -> str:
    """Emit an event for the account in a transaction of its own."""
    values: dict[str, Any] = {
        "event_type": "verification.completed",
        "resource_id": "ver_1",
        "data": {"status": "VERIFIED"},
        **fields,
    }
    async with transaction(db) as conn:
        return await emit(conn, org_id=account.org_id, environment=account.environment, **values)


async def eventually(check: Callable[[], Any]) -> Any:
    """Poll ``check`` (sync or async) until it returns something truthy."""
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


async def deliveries(
    client: httpx.AsyncClient, account: Account, **filters: str
) -> list[dict[str, Any]]:
    response = await client.get(
        "/v3/account/webhooks/deliveries", params=filters, headers=account.headers
    )
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


async def delivery_after(
    client: httpx.AsyncClient, db: Database, account: Account, event_id: str, attempts: int
) -> dict[str, Any]:
    """The event's delivery once ``attempts`` attempts are logged and its job is settled (not
    running), so it can be hurried."""

    async def settled() -> dict[str, Any] | None:
        found = await deliveries(client, account, event_id=event_id)
        if not found or found[0]["attempt_count"] < attempts:
            return None
        pending = found[0]["status"] == "pending"
        if pending and (await delivery_job(db, found[0]["id"]))["status"] != "queued":
            return None
        return found[0]

    result: dict[str, Any] = await eventually(settled)
    return result


async def delivery_job(db: Database, delivery_id: str) -> dict[str, Any]:
    async with read(db) as conn:
        job_id = (
            await conn.execute(
                webhook_deliveries.select()
                .with_only_columns(webhook_deliveries.c.job_id)
                .where(webhook_deliveries.c.id == delivery_id)
            )
        ).scalar_one()
        job = await jobs.get(conn, job_id)
    assert job is not None
    return job


async def hurry(db: Database, delivery_id: str) -> None:
    """Let the clock "pass": the delivery's job, waiting on its backoff, is due now."""
    job = await delivery_job(db, delivery_id)
    async with transaction(db) as conn:
        await conn.execute(
            update(jobs.jobs).where(jobs.jobs.c.id == job["id"]).values(run_after=utcnow())
        )

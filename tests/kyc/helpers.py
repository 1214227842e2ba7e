"""Helpers for the KYC tests: calls, polling, driving the completion job, building MRZs."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import func, select, update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.jobs.tables import jobs
from hakiki.core.tables import wallet_transactions
from hakiki.engines.mrz.td3 import check_digit
from hakiki.kyc.completion import COMPLETE_TASK
from hakiki.kyc.tables import verifications


async def post(
    client: httpx.AsyncClient, path: str, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post(f"/v3/kyc/{path}", json=body, headers=headers)


async def status(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str
) -> httpx.Response:
    return await client.get(f"/v3/kyc/status/{reference}", headers=headers)


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
        verification_id = (
            await conn.execute(
                select(verifications.c.id).where(
                    verifications.c.org_id == org_id, verifications.c.reference == reference
                )
            )
        ).scalar_one()
        rows = await conn.execute(select(jobs).where(jobs.c.task == COMPLETE_TASK))
        found = [dict(r._mapping) for r in rows if r.payload["verification_id"] == verification_id]
    assert len(found) == 1, found
    return found[0]


async def run_job_now(db: Database, job_id: str, *, last_attempt: bool = False) -> dict[str, Any]:
    """Make the job due now (as its last attempt if asked) and wait until the server's worker
    has run that attempt."""
    async with transaction(db) as conn:
        job = (await conn.execute(select(jobs).where(jobs.c.id == job_id))).one()
        attempts = job.max_attempts - 1 if last_attempt else job.attempts
        await conn.execute(
            update(jobs)
            .where(jobs.c.id == job_id)
            .values(run_after=utcnow(), status="queued", attempts=attempts)
        )
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        async with read(db) as conn:
            found = dict(
                (await conn.execute(select(jobs).where(jobs.c.id == job_id))).one()._mapping
            )
        if found["attempts"] == attempts + 1 and found["status"] != "running":
            return found
        assert asyncio.get_running_loop().time() < deadline, found
        await asyncio.sleep(0.05)


async def ledger_kinds(db: Database, org_id: str) -> dict[str, int]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(wallet_transactions.c.kind, func.count())
            .where(wallet_transactions.c.org_id == org_id)
            .group_by(wallet_transactions.c.kind)
        )
        return {str(kind): int(count) for kind, count in rows}


def td3(
    number: str,
    state: str,
    *,
    surname: str = "KAMAU",
    given: str = "WANJIRU<AKINYI",
    birth: str = "900823",
    expiry: str = "320101",
    sex: str = "F",
) -> list[str]:
    """A TD3 zone with correct check digits."""
    line1 = f"P<{state}{surname}<<{given}".ljust(44, "<")
    document = number.ljust(9, "<")
    line2 = (
        document + check_digit(document) + state + birth + check_digit(birth) + sex
        + expiry + check_digit(expiry) + "<" * 14 + "<"
    )  # fmt: skip
    composite = line2[0:10] + line2[13:20] + line2[21:43]
    return [line1, line2 + check_digit(composite)]


async def events_for(db: Database, org_id: str, reference: str) -> list[dict[str, Any]]:
    """The webhook events emitted for a verification, oldest first."""
    from hakiki.webhooks.tables import webhook_events

    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events)
            .where(webhook_events.c.org_id == org_id, webhook_events.c.resource_id == reference)
            .order_by(webhook_events.c.sequence)
        )
        return [dict(r._mapping) for r in rows]

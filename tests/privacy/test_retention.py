"""Retention policies per organisation and category (issue 40), on SQLite and PostgreSQL:
bounds enforced with a clear 400, housekeeping's purge by each organisation's policy (others
keep the default), the record of what was purged, and exports deleted after their days."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.runtime import Runtime
from hakiki.credit.tables import credit_reports
from hakiki.privacy import retention
from hakiki.tables import metadata
from tests.conftest import AccountFactory

URL = "/v3/privacy/retention"
BUREAU = {
    "country_code": "KE",
    "id_type": "national_id",
    "id_number": "12345670",
    "report_reason": "new_application",
    "consent": True,
}


async def _age(db: Database, org_id: str, days: int) -> None:
    """Make every credit report and request log row of the organisation ``days`` old."""
    logs = metadata.tables["request_logs"]
    then = utcnow() - timedelta(days=days)
    async with transaction(db) as conn:
        await conn.execute(
            update(credit_reports).where(credit_reports.c.org_id == org_id).values(created_at=then)
        )
        await conn.execute(update(logs).where(logs.c.org_id == org_id).values(created_at=then))


async def _count(db: Database, org_id: str) -> tuple[int, int]:
    logs = metadata.tables["request_logs"]
    async with db.reader.connect() as conn:
        reports = await conn.scalar(select(func.count()).where(credit_reports.c.org_id == org_id))
        logged = await conn.scalar(select(func.count()).where(logs.c.org_id == org_id))
    return int(reports or 0), int(logged or 0)


async def test_policies_have_defaults_and_bounds(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    listed = (await client.get(URL, headers=account.headers)).json()["data"]
    credit = next(p for p in listed if p["category"] == "credit")
    assert credit["source"] == "default" and credit["days"] == credit["default_days"]
    assert (credit["min_days"], credit["max_days"]) == (1, 365) and credit["reason"]
    too_long = await client.put(URL, json={"policies": {"credit": 400}}, headers=account.headers)
    assert too_long.status_code == 400, too_long.text
    assert too_long.json()["details"][0]["field"] == "policies.credit"
    unknown = await client.put(URL, json={"policies": {"selfies": 3}}, headers=account.headers)
    assert unknown.status_code == 400 and "unknown category" in unknown.text
    short = await client.put(URL, json={"policies": {"request_log": 7}}, headers=account.headers)
    assert short.status_code == 400 and "30-730" in short.json()["message"]
    changed = await client.put(URL, json={"policies": {"credit": 30}}, headers=account.headers)
    assert changed.status_code == 200, changed.text
    credit = next(p for p in changed.json()["data"] if p["category"] == "credit")
    assert (credit["days"], credit["source"]) == (30, "organisation")
    back = await client.put(URL, json={"policies": {"credit": None}}, headers=account.headers)
    credit = next(p for p in back.json()["data"] if p["category"] == "credit")
    assert credit["source"] == "default"
    read_only = await make_account("sandbox", scopes=["privacy:read"])
    refused = await client.put(URL, json={"policies": {"credit": 30}}, headers=read_only.headers)
    assert refused.status_code == 403


async def test_housekeeping_purges_by_each_organisations_policy_and_reports_it(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    short = await make_account("sandbox")
    default = await make_account("sandbox")
    for account in (short, default):
        response = await client.post("/v3/credit/bureau", json=BUREAU, headers=account.headers)
        assert response.status_code == 200, response.text
    await runtime.request_log.flush()
    put = await client.put(
        URL, json={"policies": {"credit": 10, "request_log": 40}}, headers=short.headers
    )
    assert put.status_code == 200, put.text
    await runtime.request_log.flush()
    for account in (short, default):
        await _age(runtime.db, account.org_id, 50)  # past 10 and 40, within the defaults (90)
    assert await _count(runtime.db, short.org_id) == (1, 2)  # the pull and the PUT

    counts = await retention.apply(runtime.db, runtime.settings)

    assert await _count(runtime.db, short.org_id) == (0, 0)
    assert await _count(runtime.db, default.org_id) == (1, 1)  # the defaults keep 90 days
    assert counts[(short.org_id, "credit")] == 1
    assert counts[(short.org_id, "request_log")] == 2
    assert (default.org_id, "credit") not in counts
    runs = (await client.get(f"{URL}/runs", headers=short.headers)).json()
    assert runs["data"][0]["purged"] == {"credit": 1, "request_log": 2}, runs
    # The other organisation sees no run of the first one's.
    other = (await client.get(f"{URL}/runs", headers=default.headers)).json()
    assert other["data"] == [] and other["pagination"]["total_items"] == 0

    await runtime.request_log.flush()
    await _age(runtime.db, default.org_id, 100)  # past the defaults too
    await retention.apply(runtime.db, runtime.settings)
    assert await _count(runtime.db, default.org_id) == (0, 0)


async def test_housekeeping_with_nothing_due_writes_nothing(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is due is found with reads: a run with nothing past its retention opens no write
    transaction (each was a turn at SQLite's write gate, 20 per organisation every run); one
    organisation's due rows open its own and the run's record only."""
    opened: list[Database] = []
    real = retention.transaction

    @asynccontextmanager
    async def counted(db: Database) -> AsyncIterator[AsyncConnection]:
        opened.append(db)
        async with real(db) as conn:
            yield conn

    monkeypatch.setattr(retention, "transaction", counted)
    for _ in range(3):
        await make_account("sandbox")
    await runtime.request_log.flush()
    await retention.apply(runtime.db, runtime.settings)  # what earlier tests left due goes
    opened.clear()
    assert await retention.apply(runtime.db, runtime.settings) == {}
    assert opened == []

    due = await make_account("sandbox")
    response = await client.post("/v3/credit/bureau", json=BUREAU, headers=due.headers)
    assert response.status_code == 200, response.text
    await runtime.request_log.flush()
    await _age(runtime.db, due.org_id, 100)
    counts = await retention.apply(runtime.db, runtime.settings)
    assert counts == {(due.org_id, "credit"): 1, (due.org_id, "request_log"): 1}
    # credit and request_log in the due organisation's sandbox, then the run's record
    assert len(opened) == 3

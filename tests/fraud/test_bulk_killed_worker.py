"""A worker killed in the middle of a live bulk scan: the next worker carries on from the last
committed chunk. Every row is recorded once and debited once; the reservation ends at zero.
Real processes, on both databases. The first worker halts inside the transaction of its sixth
chunk (tests.support.halt): the kill lands there every time, with five chunks committed and one
claimed, recorded and charged but not committed."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.database import Database, read
from hakiki.core.jobs import service as jobs
from hakiki.core.settings import Settings
from hakiki.core.tables import wallet_transactions as ledger
from hakiki.core.wallet import service as wallet
from hakiki.fraud.bulk.tables import bulk_scan_results
from tests.fraud.bulk.conftest import URL, csv_bytes, upload
from tests.support.databases import isolated_settings
from tests.support.halt import HALTED
from tests.support.job_processes import start, stop, wait_for_line, wait_for_status

# In parallel with the rest of the suite. The resumed worker once took over 30 s to stop after
# SIGTERM: its write waited at the SQLite write gate for this process, which held the lock while
# its event loop was blocked in stop(); the gate's waiting thread kept the worker from exiting.
# The gate now waits in a daemon thread, and this process stops workers on a thread.
pytestmark = [pytest.mark.processes]

ROWS, PRICE, CHUNK = 1_000, 500, 100
HALT_AFTER = 5 * CHUNK


@asynccontextmanager
async def api(settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, Database]]:
    """The API in this process, with no job worker of its own."""
    app = create_app(settings.model_copy(update={"jobs_in_server": False}))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as http:
            yield http, app.state.runtime.db


async def progress(http: httpx.AsyncClient, headers: dict[str, str], bulk_id: str) -> dict:
    response = await http.get(f"{URL}/{bulk_id}", params={"page_size": 1}, headers=headers)
    assert response.status_code == 200, response.text
    found: dict = response.json()["data"]
    return found


async def wait_until(
    http: httpx.AsyncClient, headers: dict[str, str], bulk_id: str, done: int, within: float
) -> dict:
    deadline = time.monotonic() + within
    while (found := await progress(http, headers, bulk_id))["processed_records"] < done:
        assert found["state"] != "failed", found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.02)
    return found


# (database, job backend)
MODES = [
    pytest.param(("sqlite", "embedded"), id="sqlite"),
    pytest.param(("postgresql", "embedded"), id="postgresql", marks=pytest.mark.postgresql),
    pytest.param(("postgresql", "procrastinate"), id="procrastinate", marks=pytest.mark.postgresql),
]


@pytest.mark.parametrize("mode", MODES)
async def test_a_killed_worker_resumes_without_rescanning_or_recharging(
    mode: tuple[str, str], tmp_path: Path
) -> None:
    backend, jobs_backend = mode
    settings = await isolated_settings(
        backend, tmp_path / "data", "bulk_kill", jobs_backend=jobs_backend
    )
    async with api(settings) as (http, db):
        org = await accounts.create_org(db, "lender", approved=True, currency="KES")
        key = await accounts.create_key(db, "lender", "live", None)
        await wallet.credit(db, org.id, ROWS * PRICE, "top-up")
        headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
        sheet = [["number", "first_name"]] + [[f"2290{i:07d}", f"N{i}"] for i in range(ROWS)]
        started = await upload(http, headers, csv_bytes(sheet), "id", channel="bvn")
        bulk_id = started["bulk_id"]

        halting = f"from tests.support import halt; halt.bulk_id_scan_after({HALT_AFTER})"
        first = start(settings, "worker", before=halting, HAKIKI_BULK_CHUNK_ROWS=str(CHUNK))
        try:
            # On a thread: this process's own writes must go on while the worker halts.
            await asyncio.to_thread(wait_for_line, first, HALTED)
        finally:
            await asyncio.to_thread(stop, first, signal.SIGKILL)
        at_kill = await progress(http, headers, bulk_id)
        assert at_kill["processed_records"] == HALT_AFTER, at_kill  # killed midway

        second = start(settings, "worker", HAKIKI_BULK_CHUNK_ROWS=str(CHUNK))
        try:
            wait_for_line(second, "worker started")
            await wait_until(http, headers, bulk_id, ROWS, within=120)
            [job] = await jobs.list_jobs(db, task="fraud.bulk_scan")
            await wait_for_status(settings, [job["id"]])
        finally:
            await asyncio.to_thread(stop, second)  # this process's writers go on meanwhile
        done = await progress(http, headers, bulk_id)
        assert done["state"] == "completed"
        assert (done["success_count"], done["error_count"]) == (ROWS, 0)
        assert done["charged_amount"] == ROWS * PRICE

        async with read(db) as conn:
            recorded = (
                await conn.execute(
                    select(
                        func.count(), func.count(bulk_scan_results.c.transaction_id.distinct())
                    ).where(bulk_scan_results.c.bulk_id == bulk_id)
                )
            ).one()
            debits = (
                await conn.execute(
                    select(func.count(), func.count(ledger.c.request_id.distinct())).where(
                        ledger.c.org_id == org.id, ledger.c.kind == "debit"
                    )
                )
            ).one()
            summary = await wallet.wallet_summary(conn, org.id)
        assert tuple(recorded) == (ROWS, ROWS)  # every row once, each with its own debit
        assert tuple(debits) == (ROWS, ROWS)  # one debit per row, none twice
        assert (summary["balance"], summary["reserved"]) == (0, 0)
        job = await jobs.get_job(db, job["id"])
        assert job is not None and (job["status"], job["attempts"]) == ("succeeded", 2)

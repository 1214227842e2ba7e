"""A worker killed in the middle of a live statement analysis: the next worker analyses the
file again and ends it once. One analysis, one debit, the reservation ended, one webhook event.
Real processes, on both databases (and procrastinate mode). The first worker halts inside the
analysis's final transaction, after it has ended, charged and announced it (tests.support.halt):
the kill lands there every time, with none of it committed."""

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
from hakiki.webhooks.tables import webhook_events
from tests.statements import documents as d
from tests.statements.conftest import URL, analyze
from tests.support.databases import isolated_settings
from tests.support.halt import HALTED
from tests.support.job_processes import start, stop, wait_for_line, wait_for_status

pytestmark = pytest.mark.processes

PRICE = 5000


@asynccontextmanager
async def api(settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, Database]]:
    """The API in this process, with no job worker of its own."""
    app = create_app(settings.model_copy(update={"jobs_in_server": False}))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as http:
            yield http, app.state.runtime.db


async def state(http: httpx.AsyncClient, headers: dict[str, str], analysis_id: str) -> dict:
    response = await http.get(f"{URL}/{analysis_id}", params={"page_size": 1}, headers=headers)
    assert response.status_code == 200, response.text
    found: dict = response.json()["data"]
    return found


async def wait_for(
    http: httpx.AsyncClient, headers: dict[str, str], analysis_id: str, status: str, within: float
) -> dict:
    deadline = time.monotonic() + within
    while (found := await state(http, headers, analysis_id))["state"] != status:
        assert found["state"] != "failed", found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.02)
    return found


MODES = [
    pytest.param(("sqlite", "embedded"), id="sqlite"),
    pytest.param(("postgresql", "embedded"), id="postgresql", marks=pytest.mark.postgresql),
    pytest.param(("postgresql", "procrastinate"), id="procrastinate", marks=pytest.mark.postgresql),
]


@pytest.mark.parametrize("mode", MODES)
async def test_a_killed_worker_is_taken_over_and_the_analysis_charged_once(
    mode: tuple[str, str], tmp_path: Path
) -> None:
    backend, jobs_backend = mode
    settings = await isolated_settings(
        backend, tmp_path / "data", "stmt_kill", jobs_backend=jobs_backend
    )
    statement = d.mpesa_pdf(d.mpesa_rows(120, 3, seed=2))
    async with api(settings) as (http, db):
        org = await accounts.create_org(db, "lender", approved=True, currency="KES")
        key = await accounts.create_key(db, "lender", "live", None)
        await wallet.credit(db, org.id, 2 * PRICE, "top-up")
        headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
        started = await analyze(http, headers, statement, statement_type="mpesa")
        analysis_id = started["analysis_id"]

        halting = "from tests.support import halt; halt.statement_completion()"
        first = start(settings, "worker", before=halting)
        try:
            # On a thread: this process's own writes must go on while the worker halts.
            await asyncio.to_thread(wait_for_line, first, HALTED)
        finally:
            stop(first, signal.SIGKILL)
        at_kill = await state(http, headers, analysis_id)
        assert at_kill["state"] == "processing", at_kill  # killed midway

        second = start(settings, "worker")
        try:
            wait_for_line(second, "worker started")
            done = await wait_for(http, headers, analysis_id, "completed", within=120)
            [job] = await jobs.list_jobs(db, task="statements.analyse")
            await wait_for_status(settings, [job["id"]])
        finally:
            stop(second)
        assert (done["verdict"], done["charged_amount"], done["progress"]) == (
            "genuine",
            PRICE,
            100,
        )

        async with read(db) as conn:
            debits = (
                await conn.execute(
                    select(func.count()).where(ledger.c.org_id == org.id, ledger.c.kind == "debit")
                )
            ).scalar_one()
            events = (
                await conn.execute(
                    select(func.count()).where(webhook_events.c.resource_id == analysis_id)
                )
            ).scalar_one()
            summary = await wallet.wallet_summary(conn, org.id)
        assert (debits, events) == (1, 1)
        assert (summary["balance"], summary["reserved"]) == (PRICE, 0)
        job = await jobs.get_job(db, job["id"])
        assert job is not None and job["status"] == "succeeded" and job["attempts"] >= 2

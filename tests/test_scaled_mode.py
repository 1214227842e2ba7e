"""Scaled mode on one PostgreSQL: two API processes and two job workers, with the embedded job
table and with procrastinate. Calls through either server share one wallet and are charged once
each; jobs run once each, on the workers only."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from hakiki.account import service as accounts
from hakiki.core.database import create_database, read
from hakiki.core.tables import wallet_transactions, wallets
from hakiki.core.wallet import service as wallet
from tests.jobs.sample_tasks import lines, pids
from tests.support.cli import free_port
from tests.support.databases import isolated_settings
from tests.support.job_processes import queue, start, stop, wait_for_line, wait_for_status

pytestmark = pytest.mark.processes

PRICE = 1000  # a name screening
CALLS = 40
SCREEN = "/v3/screening/sanction"


async def fire(urls: list[str], headers: dict[str, str]) -> list[httpx.Response]:
    body = {"name": "Grace Wanjiru Kamau", "countries": ["KE"]}
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=CALLS)) as http:
        return await asyncio.gather(
            *(
                http.post(f"{urls[n % 2]}/v3/screening/sanction", json=body, headers=headers)
                for n in range(CALLS)
            )
        )


@pytest.mark.postgresql
@pytest.mark.parametrize("jobs_backend", ["embedded", "procrastinate"])
async def test_two_servers_and_two_workers_on_one_postgresql(
    jobs_backend: str, tmp_path: Path
) -> None:
    settings = await isolated_settings(
        "postgresql", tmp_path / "data", "scaled", jobs_backend=jobs_backend
    )
    db = create_database(settings)
    org = await accounts.create_org(db, "Scaled Lending", approved=True)
    key = await accounts.create_key(db, "Scaled Lending", "live")
    await wallet.credit(db, org.id, PRICE * (CALLS - 3), "top-up")
    ports = [free_port(), free_port()]
    servers = [
        start(settings, "serve", "--port", str(port), HAKIKI_JOBS_IN_SERVER="false")
        for port in ports
    ]
    workers = [start(settings, "worker"), start(settings, "worker")]
    log = tmp_path / "log"
    try:
        for process in servers:
            wait_for_line(process, "Application startup complete")
        for process in workers:
            wait_for_line(process, "worker started")
        headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
        responses = await fire([f"http://127.0.0.1:{port}" for port in ports], headers)
        ids = await queue(settings, "test.slow", [{"log": str(log), "seconds": 0.1}] * 30)
        await wait_for_status(settings, ids)
    finally:
        for process in [*servers, *workers]:
            stop(process)
    assert sorted(r.status_code for r in responses) == [200] * (CALLS - 3) + [402] * 3
    async with read(db) as conn:
        row = (await conn.execute(select(wallets).where(wallets.c.org_id == org.id))).one()
        seqs = (
            (
                await conn.execute(
                    select(wallet_transactions.c.seq)
                    .where(wallet_transactions.c.org_id == org.id)
                    .order_by(wallet_transactions.c.seq)
                )
            )
            .scalars()
            .all()
        )
    await db.dispose()
    assert (row.balance, row.reserved) == (0, 0)
    assert list(seqs) == list(range(1, CALLS - 1))
    done = Counter(line[0] for line in lines(log) if line[2] == "done")
    assert done == dict.fromkeys(ids, 1)
    assert pids(log) == {w.pid for w in workers}  # both workers ran jobs; the servers none

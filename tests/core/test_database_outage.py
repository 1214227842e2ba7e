"""PostgreSQL goes away for a moment (a proxy in front of it is cut): calls that need it answer
503 service_unavailable meanwhile, and the service recovers by itself, job worker included."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import make_url

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.database import transaction
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from hakiki.core.wallet import service as wallet
from tests.jobs.sample_tasks import lines
from tests.support.databases import isolated_settings
from tests.support.tcp_proxy import tcp_proxy

SCREEN = "/v3/screening/pep-and-sanction"
BODY = {"name": "Grace Wanjiru Kamau", "countries": ["KE"]}


@pytest.mark.postgresql
async def test_postgres_outage_is_503_then_recovers(tmp_path: Path) -> None:
    direct = await isolated_settings("postgresql", tmp_path, "outage")
    url = make_url(direct.resolved_database_url)
    with tcp_proxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        proxied = url.set(host="127.0.0.1", port=proxy.port)
        settings = Settings(
            data_dir=tmp_path,
            database_url=proxied.render_as_string(hide_password=False),
            secret_key=direct.secret_key,
            key_cache_seconds=0,
        )
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            runtime: Runtime = app.state.runtime
            org = await accounts.create_org(runtime.db, "Outage Lending", approved=True)
            key = await accounts.create_key(runtime.db, "Outage Lending", "live")
            await wallet.credit(runtime.db, org.id, 100_000, "top-up")
            headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                assert (await client.post(SCREEN, json=BODY, headers=headers)).status_code == 200

                proxy.down()
                during = await client.post(SCREEN, json=BODY, headers=headers)
                assert during.status_code == 503, during.text
                assert during.json()["error"] == "service_unavailable"

                proxy.up()
                deadline = time.monotonic() + 30
                while (
                    again := await client.post(SCREEN, json=BODY, headers=headers)
                ).status_code != 200:
                    assert time.monotonic() < deadline, again.text
                    await asyncio.sleep(0.1)
            # The job worker kept polling through the outage and runs new work again.
            log = tmp_path / "log"
            async with transaction(runtime.db) as conn:
                await enqueue(conn, "test.record", {"log": str(log)})
            deadline = time.monotonic() + 30
            while not lines(log):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)

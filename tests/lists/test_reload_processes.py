"""Scaled mode with real processes: an API process and a job worker on PostgreSQL, each with a
data folder of its own (another machine's disk), and `hakiki lists update` run from a third.
The API screens with the new version within 60 s (the default check interval), without a
restart; the worker's folder holds
it too (lists/watch.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from hakiki.account import service as accounts
from hakiki.core.database import create_database
from tests.lists.server import NEW_UN_DATE, ListServer, un_xml
from tests.support.cli import free_port
from tests.support.databases import isolated_settings, process_env
from tests.support.job_processes import HAKIKI_WITH_TEST_TASKS, ROOT, start, stop, wait_for_line

pytestmark = pytest.mark.processes

CHECK_SECONDS = "15"  # the default: the promise is kept as shipped


@pytest.mark.postgresql
async def test_an_update_reaches_a_running_api_and_worker_within_a_minute(
    tmp_path: Path, list_server: ListServer
) -> None:
    api = await isolated_settings(
        "postgresql", tmp_path / "api", "reload", jobs_backend="procrastinate"
    )
    worker = api.model_copy(update={"data_dir": tmp_path / "worker"})
    operator = api.model_copy(update={"data_dir": tmp_path / "operator"})
    db = create_database(api)
    await accounts.create_org(db, "Reload Lending", approved=True)
    key = await accounts.create_key(db, "Reload Lending", "sandbox")
    await db.dispose()
    headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
    port = free_port()
    processes = [
        start(api, "serve", "--port", str(port), HAKIKI_LISTS_CHECK_SECONDS=CHECK_SECONDS),
        start(worker, "worker", HAKIKI_LISTS_CHECK_SECONDS=CHECK_SECONDS),
    ]
    try:
        wait_for_line(processes[0], "Application startup complete")
        wait_for_line(processes[1], "worker started")
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
            assert await un_version(http) == "2026-02-27"  # the bundled snapshot
            sources = {
                "us_ofac_sdn": {"enabled": False},
                "us_ofac_consolidated": {"enabled": False},
                "un_sc_consolidated": {"files": {"xml": list_server.serve("/un.xml", un_xml())}},
            }
            update = await asyncio.to_thread(
                subprocess.run,
                [*HAKIKI_WITH_TEST_TASKS, "lists", "update", "--json"],
                env=process_env(operator, HAKIKI_LISTS_SOURCES=json.dumps(sources)),
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert update.returncode == 0, update.stderr
            [outcome] = [json.loads(line) for line in update.stdout.splitlines()]
            assert outcome["changed"] and outcome["version"] == NEW_UN_DATE
            stored = time.monotonic()
            while await un_version(http) != NEW_UN_DATE:
                assert time.monotonic() - stored < 60, "the API still screens the old version"
                await asyncio.sleep(0.5)
            took = time.monotonic() - stored
        print(f"the API screened with the new version {took:.1f} s after the update")
        worker_current = tmp_path / "worker" / "lists" / "un_sc_consolidated" / "current"
        deadline = time.monotonic() + 30
        while not worker_current.is_file():
            assert time.monotonic() < deadline, "the worker's folder never got the version"
            await asyncio.sleep(0.5)
        assert worker_current.read_text().strip() == NEW_UN_DATE
    finally:
        for process in processes:
            stop(process)


async def un_version(http: httpx.AsyncClient) -> str:
    response = await http.get("/v3/account/lists")
    assert response.status_code == 200, response.text
    rows = {row["code"]: row for row in response.json()["data"]}
    return str(rows["un_sc_consolidated"]["version"])

"""`hakiki serve --workers 2`: two server processes on one SQLite file charge every live call
exactly once and never overdraw, with calls of both processes grouped into their own commits."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.support.cli import free_port, invoke, start_serve, stop_serve

pytestmark = pytest.mark.processes

PRICE = 1000  # the default price of a name screening
CALLS = 60


async def _fire(url: str, headers: dict[str, str]) -> list[httpx.Response]:
    body = {"name": "Grace Wanjiru Kamau", "countries": ["KE"]}
    limits = httpx.Limits(max_connections=CALLS)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        return await asyncio.gather(
            *(http.post(url, json=body, headers=headers) for _ in range(CALLS))
        )


def test_two_server_processes_share_one_sqlite_wallet(cli_env: dict[str, str]) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    assert invoke(cli_env, "orgs", "create", "Two Workers", "--approved").exit_code == 0
    key = json.loads(
        invoke(cli_env, "keys", "create", "--org", "Two Workers", "--env", "live", "--json").stdout
    )
    amount = str(PRICE * (CALLS - 3))
    credited = invoke(cli_env, "wallet", "credit", "--org", "Two Workers", "--amount", amount)
    assert credited.exit_code == 0
    port = free_port()
    log = start_serve(cli_env, "--port", str(port), "--workers", "2")
    try:
        # each worker process says so once its lists are loaded
        log.wait_for("Application startup complete", timeout=120, count=2)
        headers = {"Authorization": f"Bearer {key['client_id']}:{key['secret']}"}
        url = f"http://127.0.0.1:{port}/v3/screening/sanction"
        responses = asyncio.run(_fire(url, headers))
    finally:
        stop_serve(log)
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * (CALLS - 3) + [402] * 3, [r.text for r in responses[:3]]
    database = Path(cli_env["HAKIKI_DATA_DIR"]) / "hakiki.db"
    with sqlite3.connect(database) as conn:
        balance, reserved = conn.execute("SELECT balance, reserved FROM wallets").fetchone()
        seqs = [row[0] for row in conn.execute("SELECT seq FROM wallet_transactions ORDER BY seq")]
        debited = {
            row[0]
            for row in conn.execute("SELECT request_id FROM wallet_transactions WHERE kind='debit'")
        }
    assert (balance, reserved) == (0, 0)
    assert seqs == list(range(1, CALLS - 1))  # one credit, CALLS - 3 debits, no gap
    assert debited == {r.json()["request_id"] for r in responses if r.status_code == 200}

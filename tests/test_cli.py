"""The command line, run as real processes; `serve` answered over real HTTP."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tests.conftest import POSTGRES_URL, require_postgres
from tests.support.process_output import Output

HAKIKI = [sys.executable, "-m", "hakiki"]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HAKIKI, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_operator_commands_on_sqlite(cli_env: dict[str, str]) -> None:
    assert run(cli_env, "migrate").returncode == 0
    created = run(cli_env, "orgs", "create", "Acme Lending", "--json")
    assert created.returncode == 0, created.stderr
    org = json.loads(created.stdout)
    assert org["name"] == "Acme Lending" and org["approved"] is False

    key = json.loads(
        run(cli_env, "keys", "create", "--org", "Acme Lending", "--env", "live", "--json").stdout
    )
    assert key["client_id"].startswith("hk_live_") and key["secret"].startswith("hks_")
    scoped = json.loads(
        run(
            cli_env, "keys", "create", "--org", "Acme Lending", "--env", "sandbox",
            "--scope", "identity:read", "--scope", "fraud:read", "--json",
        ).stdout
    )  # fmt: skip
    assert scoped["scopes"] == ["identity:read", "fraud:read"]

    credit = json.loads(
        run(
            cli_env, "wallet", "credit", "--org", "Acme Lending", "--amount", "25000", "--json"
        ).stdout
    )
    assert credit["balance_after"] == 25000 and credit["currency"] == "KES"

    approved = json.loads(run(cli_env, "orgs", "approve", "Acme Lending", "--json").stdout)
    assert approved["approved"] is True
    assert run(cli_env, "keys", "revoke", key["client_id"]).returncode == 0
    again = run(cli_env, "keys", "revoke", key["client_id"])
    assert again.returncode == 1 and "No active key" in again.stderr

    duplicate = run(cli_env, "orgs", "create", "Acme Lending")
    assert duplicate.returncode == 1 and "exists" in duplicate.stderr
    missing = run(cli_env, "wallet", "credit", "--org", "Nobody", "--amount", "5")
    assert missing.returncode == 1 and "No organisation" in missing.stderr


@pytest.mark.postgresql
def test_migrate_and_orgs_on_postgresql(cli_env: dict[str, str]) -> None:
    require_postgres()
    cli_env["HAKIKI_DATABASE_URL"] = POSTGRES_URL
    for _ in range(2):  # migrating an up-to-date database is a no-op
        result = run(cli_env, "migrate")
        assert result.returncode == 0, result.stderr
    name = f"cli-pg-{os.getpid()}-{time.time_ns()}"
    created = run(cli_env, "orgs", "create", name, "--approved", "--currency", "NGN", "--json")
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["currency"] == "NGN"
    credit = run(cli_env, "wallet", "credit", "--org", name, "--amount", "700", "--json")
    assert json.loads(credit.stdout)["balance_after"] == 700


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_first_start_prints_a_working_demo_curl(cli_env: dict[str, str]) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [*HAKIKI, "serve", "--port", str(port)],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log = Output(process)
    try:
        output = log.wait_for("Hakiki is answering on", timeout=60)
        client_id = re.search(r"client_id: (\S+)", output)
        secret = re.search(r"secret:\s+(\S+)", output)
        assert client_id and secret, output
        assert "curl -s http://127.0.0.1:" in output
        headers = {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}
        response = httpx.post(
            f"http://127.0.0.1:{port}/v3/screening/aml-with-id",
            json={"channel": "bvn", "number": "22222222210"},
            headers=headers,
            timeout=10,
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "VERIFIED" and body["live"] is False
        assert [h["check"] for h in body["data"]["aml"]["hits"]] == ["pep"]
        assert httpx.get(f"http://127.0.0.1:{port}/docs", timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=20)
    # A second start on the same data creates no second demo organisation.
    second = run(cli_env, "orgs", "create", "demo")
    assert second.returncode == 1 and "exists" in second.stderr


@pytest.mark.postgresql
def test_serve_refuses_an_unmigrated_postgresql(cli_env: dict[str, str]) -> None:
    require_postgres()
    import asyncio

    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    name = f"hakiki_unmigrated_{os.getpid()}"
    admin = POSTGRES_URL.rsplit("/", 1)[0] + "/postgres"

    async def admin_sql(statement: str) -> None:
        engine = create_async_engine(admin, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(statement))
        await engine.dispose()

    asyncio.run(admin_sql(f"DROP DATABASE IF EXISTS {name}"))
    asyncio.run(admin_sql(f"CREATE DATABASE {name}"))
    try:
        cli_env["HAKIKI_DATABASE_URL"] = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        refused = run(cli_env, "serve", "--port", str(_free_port()))
        assert refused.returncode == 1
        assert "hakiki migrate" in refused.stderr
    finally:
        asyncio.run(admin_sql(f"DROP DATABASE IF EXISTS {name}"))

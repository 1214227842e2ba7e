"""The command line's operator commands, in this process and once as a real process; `serve`
refusing an unmigrated PostgreSQL (its first start: tests/test_serve.py)."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.conftest import POSTGRES_URL, require_postgres
from tests.support.cli import free_port, invoke, run


@pytest.mark.processes
def test_orgs_create_as_a_real_process(cli_env: dict[str, str]) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    created = run(cli_env, "orgs", "create", "Smoke Lending", "--approved", "--json")
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["approved"] is True
    assert invoke(cli_env, "orgs", "create", "Smoke Lending").exit_code == 1  # it is stored


def test_operator_commands_on_sqlite(cli_env: dict[str, str]) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    created = invoke(cli_env, "orgs", "create", "Acme Lending", "--json")
    assert created.exit_code == 0, created.stderr
    org = json.loads(created.stdout)
    assert org["name"] == "Acme Lending" and org["approved"] is False

    key = json.loads(
        invoke(cli_env, "keys", "create", "--org", "Acme Lending", "--env", "live", "--json").stdout
    )
    assert key["client_id"].startswith("hk_live_") and key["secret"].startswith("hks_")
    scoped = json.loads(
        invoke(
            cli_env, "keys", "create", "--org", "Acme Lending", "--env", "sandbox",
            "--scope", "identity:read", "--scope", "fraud:read", "--json",
        ).stdout
    )  # fmt: skip
    assert scoped["scopes"] == ["identity:read", "fraud:read"]

    credit = json.loads(
        invoke(
            cli_env, "wallet", "credit", "--org", "Acme Lending", "--amount", "25000", "--json"
        ).stdout
    )
    assert credit["balance_after"] == 25000 and credit["currency"] == "KES"

    approved = json.loads(invoke(cli_env, "orgs", "approve", "Acme Lending", "--json").stdout)
    assert approved["approved"] is True
    assert invoke(cli_env, "keys", "revoke", key["client_id"]).exit_code == 0
    again = invoke(cli_env, "keys", "revoke", key["client_id"])
    assert again.exit_code == 1 and "No active key" in again.stderr

    duplicate = invoke(cli_env, "orgs", "create", "Acme Lending")
    assert duplicate.exit_code == 1 and "exists" in duplicate.stderr
    missing = invoke(cli_env, "wallet", "credit", "--org", "Nobody", "--amount", "5")
    assert missing.exit_code == 1 and "No organisation" in missing.stderr


@pytest.mark.postgresql
def test_migrate_and_orgs_on_postgresql(cli_env: dict[str, str]) -> None:
    require_postgres()
    cli_env["HAKIKI_DATABASE_URL"] = POSTGRES_URL
    for _ in range(2):  # migrating an up-to-date database is a no-op
        result = invoke(cli_env, "migrate")
        assert result.exit_code == 0, result.stderr
    name = f"cli-pg-{os.getpid()}-{time.time_ns()}"
    created = invoke(cli_env, "orgs", "create", name, "--approved", "--currency", "NGN", "--json")
    assert created.exit_code == 0, created.stderr
    assert json.loads(created.stdout)["currency"] == "NGN"
    credit = invoke(cli_env, "wallet", "credit", "--org", name, "--amount", "700", "--json")
    assert json.loads(credit.stdout)["balance_after"] == 700


@pytest.mark.processes
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
        refused = run(cli_env, "serve", "--port", str(free_port()))
        assert refused.returncode == 1
        assert "hakiki migrate" in refused.stderr
    finally:
        asyncio.run(admin_sql(f"DROP DATABASE IF EXISTS {name}"))

"""The request log: one row per call, redacted body, identity number encrypted and hashed."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from hakiki.core.tables import request_logs
from tests.conftest import AccountFactory
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

URL = "/v3/screening/aml-with-id"


async def log_row(app: FastAPI, request_id: str) -> dict[str, object]:
    runtime = app.state.runtime
    await runtime.request_log.flush()
    async with runtime.db.reader.connect() as conn:
        row = (
            await conn.execute(select(request_logs).where(request_logs.c.id == request_id))
        ).one()
    return dict(row._mapping)


async def test_sandbox_call_is_logged_redacted_and_encrypted(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {
        "channel": "bvn",
        "number": "22212345670",
        "compare": True,
        "first_name": "Grace",
        "last_name": "Wanjiru",
    }
    response = await client.post(URL, json=body, headers=account.headers)
    row = await log_row(app, response.json()["request_id"])
    stored = row["request_body"]
    assert isinstance(stored, dict)
    assert stored["number"] != "22212345670" and stored["number"].endswith("70")
    assert "Grace" not in str(stored) and "Wanjiru" not in str(stored)
    vault = app.state.runtime.vault
    assert vault.decrypt(str(row["subject_encrypted"])) == "22212345670"
    assert row["subject_hash"] == vault.lookup_hash("NG", "bvn", "22212345670")
    assert (row["status_code"], row["response_code"], row["environment"]) == (200, "00", "sandbox")
    assert row["org_id"] == account.org_id


async def test_billed_call_row_names_its_transaction(
    app: FastAPI,
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await client.post(
        URL, json={"channel": "bvn", "number": BVN_FOUND}, headers=account.headers
    )
    body = response.json()
    row = await log_row(app, body["request_id"])
    assert row["transaction_id"] == body["billing"]["transaction_id"]


async def test_errors_after_authentication_are_logged(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.post(URL, json={"channel": "bvn"}, headers=account.headers)
    assert response.status_code == 400
    row = await log_row(app, response.headers["x-request-id"])
    assert row["status_code"] == 400 and row["org_id"] == account.org_id

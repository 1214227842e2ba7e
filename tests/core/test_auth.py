"""Authentication and authorisation, through the ASGI app on both databases."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import select

from hakiki.account import service as accounts
from hakiki.core.database import Database
from hakiki.core.tables import api_keys
from tests.conftest import AccountFactory

URL = "/v3/screening/aml-with-id"
BODY = {"channel": "bvn", "number": "22212345670"}


def assert_unauthorized(response: httpx.Response) -> None:
    assert response.status_code == 401
    body = response.json()
    assert body["error"] == "unauthorized"
    assert "required" in body["message"]
    assert "Authorization: Bearer <client_id>:<secret>" in body["message"]
    assert response.headers["x-request-id"].startswith("req_")


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer onlyclientid",
        "Bearer :secret",
        "Bearer hk_test_unknown:hks_whatever",
    ],
)
async def test_missing_malformed_or_unknown_credentials_are_401(
    client: httpx.AsyncClient, header: str | None
) -> None:
    headers = {} if header is None else {"Authorization": header}
    assert_unauthorized(await client.post(URL, json=BODY, headers=headers))


async def test_wrong_secret_is_401(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    headers = {"Authorization": f"Bearer {account.client_id}:hks_wrong"}
    assert_unauthorized(await client.post(URL, json=BODY, headers=headers))


async def test_revoked_key_is_401(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    assert (await client.post(URL, json=BODY, headers=account.headers)).status_code == 200
    await accounts.revoke_key(db, account.client_id)
    assert_unauthorized(await client.post(URL, json=BODY, headers=account.headers))


async def test_missing_scope_is_403(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["fraud:read"])
    response = await client.post(URL, json=BODY, headers=account.headers)
    assert response.status_code == 403
    assert response.json()["error"] == "insufficient_scope"
    assert "identity:read" in response.json()["message"]


async def test_live_key_of_unapproved_org_is_403_until_approved(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", approved=False, balance=10_000)
    response = await client.post(URL, json=BODY, headers=account.headers)
    assert response.status_code == 403
    assert response.json()["error"] == "account_not_approved"
    # Sandbox keys of the same unapproved organisation work.
    sandbox = await accounts.create_key(db, account.org_name, "sandbox")
    headers = {"Authorization": f"Bearer {sandbox.client_id}:{sandbox.secret}"}
    assert (await client.post(URL, json=BODY, headers=headers)).status_code == 200
    await accounts.approve_org(db, account.org_name)
    response = await client.post(URL, json=BODY, headers=account.headers)
    assert response.status_code != 403


async def test_secrets_are_stored_hashed(make_account: AccountFactory, db: Database) -> None:
    account = await make_account("sandbox")
    async with db.reader.connect() as conn:
        stored = (
            await conn.execute(
                select(api_keys.c.secret_hash).where(api_keys.c.client_id == account.client_id)
            )
        ).scalar_one()
    assert account.secret not in stored and len(stored) == 64
    assert account.client_id.startswith("hk_test_")


async def test_unknown_scope_is_refused(db: Database, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    from hakiki.core.errors import ApiError

    with pytest.raises(ApiError, match="Unknown scope"):
        await accounts.create_key(db, account.org_name, "sandbox", ["identity:write"])

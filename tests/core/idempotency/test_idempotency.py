"""Idempotency-Key: replay for 24 h, 409 on a different body, a replay never charges."""

from __future__ import annotations

import httpx
from sqlalchemy import select

from hakiki.core.database import Database
from hakiki.core.tables import idempotency_keys
from hakiki.core.wallet import service as wallet
from tests.conftest import AccountFactory, debit_count, unique
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

URL = "/v3/screening/aml-with-id"
PRICE = 5000


async def test_replay_returns_the_first_response_and_never_charges(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=PRICE * 5)
    headers = {**account.headers, "Idempotency-Key": unique("key")}
    body = {"channel": "bvn", "number": BVN_FOUND}
    first = await client.post(URL, json=body, headers=headers)
    second = await client.post(URL, json=body, headers=headers)
    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()  # the same request_id, reference and billing
    assert second.headers["idempotent-replayed"] == "true"
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_prembly.requests) == 1
    async with db.reader.connect() as conn:
        stored = (
            await conn.execute(
                select(idempotency_keys.c.response_body).where(
                    idempotency_keys.c.org_id == account.org_id
                )
            )
        ).scalar_one()
    assert stored.startswith("v1.")  # encrypted: it holds the verified identity
    assert "OKAFOR" not in stored.upper() and "08031234567" not in stored


async def test_same_key_with_another_body_is_409(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": unique("key")}
    ok = await client.post(URL, json={"channel": "bvn", "number": "22212345670"}, headers=headers)
    assert ok.status_code == 200
    clash = await client.post(
        URL, json={"channel": "bvn", "number": "22212345680"}, headers=headers
    )
    assert clash.status_code == 409
    assert clash.json()["error"] == "idempotency_conflict"


async def test_keys_are_per_organisation(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    key = unique("shared")
    one, two = await make_account("sandbox"), await make_account("sandbox")
    body = {"channel": "bvn", "number": "22212345670"}
    first = await client.post(URL, json=body, headers={**one.headers, "Idempotency-Key": key})
    second = await client.post(URL, json=body, headers={**two.headers, "Idempotency-Key": key})
    assert first.json()["request_id"] != second.json()["request_id"]


async def test_an_error_releases_the_key_for_a_retry(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=0)
    headers = {**account.headers, "Idempotency-Key": unique("key")}
    body = {"channel": "bvn", "number": BVN_FOUND}
    assert (await client.post(URL, json=body, headers=headers)).status_code == 402
    await wallet.credit(db, account.org_id, PRICE, "top-up")
    retry = await client.post(URL, json=body, headers=headers)
    assert retry.status_code == 200
    assert "idempotent-replayed" not in retry.headers
    assert await debit_count(db, account.org_id) == 1


async def test_overlong_key_is_400(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": "k" * 256}
    response = await client.post(
        URL, json={"channel": "bvn", "number": "22212345670"}, headers=headers
    )
    assert response.status_code == 400
    assert response.json()["details"][0]["field"] == "Idempotency-Key"

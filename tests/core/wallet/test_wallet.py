"""The wallet: one debit per billable live call, never negative under concurrency."""

from __future__ import annotations

import asyncio

import httpx
from sqlalchemy import select

from hakiki.core.database import Database
from hakiki.core.tables import wallet_holds, wallet_transactions, wallets
from hakiki.core.wallet import service as wallet
from tests.conftest import AccountFactory
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

URL = "/v3/screening/aml-with-id"
PRICE = 5000


async def test_concurrent_calls_never_overdraw(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    calls = 8
    account = await make_account("live", balance=PRICE * (calls - 1))
    body = {"channel": "bvn", "number": BVN_FOUND, "checks": ["sanction"]}  # complete: full price
    responses = await asyncio.gather(
        *(client.post(URL, json=body, headers=account.headers) for _ in range(calls))
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * (calls - 1) + [402], [r.text for r in responses]
    async with db.reader.connect() as conn:
        row = (await conn.execute(select(wallets).where(wallets.c.org_id == account.org_id))).one()
        ledger = (
            await conn.execute(
                select(wallet_transactions)
                .where(wallet_transactions.c.org_id == account.org_id)
                .order_by(wallet_transactions.c.seq)
            )
        ).all()
        holds = (
            await conn.execute(select(wallet_holds).where(wallet_holds.c.org_id == account.org_id))
        ).all()
    assert (row.balance, row.reserved) == (0, 0)
    assert holds == []
    assert [t.kind for t in ledger] == ["credit"] + ["debit"] * (calls - 1)
    assert all(t.balance_after >= 0 for t in ledger)
    assert [t.seq for t in ledger] == list(range(1, calls + 1))
    assert sum(t.amount for t in ledger) == 0
    # Each debit points at the request that caused it, and each request was charged once.
    request_ids = [t.request_id for t in ledger if t.kind == "debit"]
    assert len(set(request_ids)) == calls - 1
    charged = {r.json()["request_id"] for r in responses if r.status_code == 200}
    assert charged == set(request_ids)


async def test_wallet_endpoints(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox", balance=1234)
    response = await client.get("/v3/account/wallet", headers=account.headers)
    assert response.status_code == 200
    assert response.json()["balance"] == 1234
    assert response.json()["available"] == 1234
    assert response.json()["currency"] == "KES"


async def test_transactions_are_paginated_newest_first(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    for amount in range(1, 26):
        await wallet.credit(db, account.org_id, amount, f"top-up {amount}")
    first = (await client.get("/v3/account/wallet/transactions", headers=account.headers)).json()
    assert first["pagination"] == {
        "page": 1, "page_size": 20, "total_pages": 2, "total_items": 25,
    }  # fmt: skip
    assert [t["amount"] for t in first["data"][:3]] == [25, 24, 23]
    second = (
        await client.get(
            "/v3/account/wallet/transactions?page=2&page_size=20", headers=account.headers
        )
    ).json()
    assert [t["amount"] for t in second["data"]] == [5, 4, 3, 2, 1]
    assert second["data"][-1]["balance_after"] == 1


async def test_expired_holds_are_released(make_account: AccountFactory, db: Database) -> None:
    account = await make_account("live", balance=PRICE)
    await wallet.reserve(db, account.org_id, PRICE, "KES", "req_crashed", hold_seconds=-1)
    async with db.reader.connect() as conn:
        row = (await conn.execute(select(wallets).where(wallets.c.org_id == account.org_id))).one()
    assert row.reserved == PRICE
    assert await wallet.release_expired_holds(db) >= 1
    async with db.reader.connect() as conn:
        row = (await conn.execute(select(wallets).where(wallets.c.org_id == account.org_id))).one()
    assert (row.balance, row.reserved) == (PRICE, 0)

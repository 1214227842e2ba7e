"""Live calls' in-memory holds: 402 before upstream work in one process, and the settlement's
conditional debit keeping money exact when several processes (each with its own holds) charge
one wallet."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from hakiki.core.database import Database
from hakiki.core.errors import ApiError
from hakiki.core.settlement import Settlement, SettlementWriter
from hakiki.core.tables import wallet_holds
from hakiki.core.wallet import service as wallet
from hakiki.core.wallet.call_holds import CallHolds
from hakiki.core.wallet.service import Hold
from tests.conftest import AccountFactory
from tests.core.test_settlement import balance, ledger, settlement
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly, FaultMode

PRICE = 100


def held_settlement(hold: Hold) -> Settlement:
    """A billable call settling its in-memory hold, as ``finish_call`` submits it."""
    call = settlement(hold.org_id)
    assert call.charge is not None
    call.charge = replace(call.charge, amount=hold.amount)
    call.hold = hold
    return call


@pytest.fixture
async def two_processes(db: Database, app: FastAPI) -> Any:
    """Two settlement writers on one database, each with its own holds: two API processes."""
    writers = [SettlementWriter(db, app.state.runtime.vault) for _ in range(2)]
    for writer in writers:
        await writer.start()
    yield writers
    for writer in writers:
        await writer.stop()


async def test_holds_refuse_beyond_the_balance_and_end_with_the_settlement(
    db: Database, make_account: AccountFactory, two_processes: list[SettlementWriter]
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    writer = two_processes[0]
    holds = [await writer.holds.hold(account.org_id, PRICE, "KES") for _ in range(2)]
    with pytest.raises(ApiError) as refused:
        await writer.holds.hold(account.org_id, PRICE, "KES")
    assert refused.value.status_code == 402
    assert writer.holds.held(account.org_id) == PRICE * 2
    async with db.reader.connect() as conn:  # nothing written for a hold
        query = select(func.count()).where(wallet_holds.c.org_id == account.org_id)
        assert (await conn.execute(query)).scalar_one() == 0

    await asyncio.gather(*(writer.submit(held_settlement(h)) for h in holds))
    assert writer.holds.held(account.org_id) == 0
    assert await balance(db, account.org_id) == (0, 0)
    with pytest.raises(ApiError):  # the settlement told the holds the wallet is empty
        await writer.holds.hold(account.org_id, PRICE, "KES")

    # A top-up from elsewhere is seen at once: a refusal re-reads the wallet first.
    await wallet.credit(db, account.org_id, PRICE, "top-up")
    hold = await writer.holds.hold(account.org_id, PRICE, "KES")
    writer.holds.release(hold)
    writer.holds.release(hold)  # at most once
    assert writer.holds.held(account.org_id) == 0


async def test_two_processes_never_overdraw_one_wallet(
    db: Database, make_account: AccountFactory, two_processes: list[SettlementWriter]
) -> None:
    account = await make_account("live", balance=PRICE * 3)
    # Each process sees the whole balance and admits three calls: six holds for three prices.
    holds = [
        (writer, await writer.holds.hold(account.org_id, PRICE, "KES"))
        for writer in two_processes
        for _ in range(3)
    ]
    outcomes = await asyncio.gather(
        *(writer.submit(held_settlement(hold)) for writer, hold in holds),
        return_exceptions=True,
    )
    paid = [o for o in outcomes if isinstance(o, bytes)]
    refused = [o for o in outcomes if isinstance(o, ApiError)]
    assert len(paid) == 3 and len(refused) == 3, outcomes
    assert {r.status_code for r in refused} == {402}
    assert await balance(db, account.org_id) == (0, 0)
    rows = await ledger(db, account.org_id)
    assert [t.kind for t in rows] == ["credit", "debit", "debit", "debit"]
    assert [t.seq for t in rows] == [1, 2, 3, 4] and all(t.balance_after >= 0 for t in rows)
    assert all(writer.holds.held(account.org_id) == 0 for writer in two_processes)


async def test_a_job_reservation_counts_against_call_holds(
    db: Database, make_account: AccountFactory, two_processes: list[SettlementWriter]
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    await wallet.reserve(db, account.org_id, PRICE, "KES", "bulk_job", hold_seconds=60)
    holds = CallHolds(db)
    await holds.hold(account.org_id, PRICE, "KES")
    with pytest.raises(ApiError):
        await holds.hold(account.org_id, PRICE, "KES")


async def test_concurrent_holds_read_the_wallet_once(
    db: Database, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=PRICE * 5)
    holds = CallHolds(db)
    results = await asyncio.gather(
        *(holds.hold(account.org_id, PRICE, "KES") for _ in range(8)), return_exceptions=True
    )
    assert sum(isinstance(r, Hold) for r in results) == 5
    assert sum(isinstance(r, ApiError) for r in results) == 3
    assert holds.held(account.org_id) == PRICE * 5


async def test_an_unbilled_live_call_gives_its_hold_back(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    app: FastAPI,
    db: Database,
) -> None:
    account = await make_account("live", balance=5000)
    holds = app.state.runtime.settlements.holds
    fake_prembly.set_mode(FaultMode.HTTP_503)
    body = {"channel": "bvn", "number": BVN_FOUND, "checks": ["sanction"]}  # complete: full price
    response = await client.post("/v3/screening/aml-with-id", json=body, headers=account.headers)
    assert response.json()["status"] == "SOURCE_UNAVAILABLE"
    assert holds.held(account.org_id) == 0
    assert await balance(db, account.org_id) == (5000, 0)
    fake_prembly.set_mode(FaultMode.NORMAL)
    ok = await client.post("/v3/screening/aml-with-id", json=body, headers=account.headers)
    assert ok.status_code == 200, ok.text
    assert holds.held(account.org_id) == 0
    assert await balance(db, account.org_id) == (0, 0)

"""The settlement writer: many calls' charges, records and stored responses in one transaction,
each call answered with its own outcome."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.database import Database
from hakiki.core.errors import ApiError
from hakiki.core.request_log.service import log_row
from hakiki.core.settlement import Settlement, SettlementWriter
from hakiki.core.tables import request_logs, wallet_transactions, wallets
from hakiki.core.wallet import service as wallet
from hakiki.core.wallet.service import Charge, ChargeRequest
from hakiki.fraud import observations
from hakiki.screening.tables import screening_reviews
from tests.conftest import AccountFactory, unique

PRICE = 100


def settlement(
    org_id: str | None, *, hold_id: str | None = None, charge: bool = True
) -> Settlement:
    request_id = unique("req")
    caller = Principal("key", "client", "live", frozenset(), org_id or "org", "org", True, "KES")

    def row(paid: Charge | None) -> dict[str, Any]:
        transaction_id = paid.transaction_id if paid else None
        return log_row(
            request_id, caller, "POST", "/v3/test", 200, 0.0, transaction_id=transaction_id
        )

    def render(paid: Charge | None) -> bytes:
        return f"{request_id} {paid.balance_after if paid else '-'}".encode()

    money = None
    if org_id is not None:
        money = ChargeRequest(
            org_id, PRICE, "KES", hold_id, charge, "test.endpoint", request_id, "test call"
        )
    return Settlement(money, render, row, None, 200)


async def ledger(db: Database, org_id: str) -> list[Any]:
    async with db.reader.connect() as conn:
        query = select(wallet_transactions).where(wallet_transactions.c.org_id == org_id)
        return list((await conn.execute(query.order_by(wallet_transactions.c.seq))).all())


async def balance(db: Database, org_id: str) -> tuple[int, int]:
    async with db.reader.connect() as conn:
        row = (await conn.execute(select(wallets).where(wallets.c.org_id == org_id))).one()
    return int(row.balance), int(row.reserved)


@pytest.fixture
async def writer(db: Database, app: FastAPI) -> Any:
    settlements = SettlementWriter(db, app.state.runtime.vault)
    await settlements.start()
    yield settlements
    await settlements.stop()


async def test_one_batch_answers_each_call_with_its_own_outcome(
    db: Database, make_account: AccountFactory, writer: SettlementWriter
) -> None:
    rich = await make_account("live", balance=PRICE * 3)
    poor = await make_account("live", balance=PRICE)
    batch = [
        settlement(rich.org_id),
        settlement(poor.org_id),
        settlement(poor.org_id),  # the second call of the poor wallet finds it empty
        settlement(rich.org_id),
        settlement(None),  # a call that charges nothing still gets its record
    ]
    futures = [writer.submit(s) for s in batch]  # submitted before the writer runs: one batch
    outcomes = await asyncio.gather(*futures, return_exceptions=True)

    assert outcomes[0].endswith(f" {PRICE * 2}".encode())
    assert outcomes[1].endswith(b" 0")
    assert isinstance(outcomes[2], ApiError) and outcomes[2].status_code == 402
    assert outcomes[3].endswith(f" {PRICE}".encode())
    assert outcomes[4].endswith(b" -")
    assert await balance(db, rich.org_id) == (PRICE, 0)
    assert await balance(db, poor.org_id) == (0, 0)
    assert [t.seq for t in await ledger(db, rich.org_id)] == [1, 2, 3]  # gap-free
    assert [t.kind for t in await ledger(db, poor.org_id)] == ["credit", "debit"]
    # Every call but the refused one has its request record.
    expected = [s.log_row(None)["id"] for s in batch]
    async with db.reader.connect() as conn:
        query = select(request_logs.c.id).where(request_logs.c.id.in_(expected))
        logged = {row.id for row in await conn.execute(query)}
    assert logged == set(expected) - {expected[2]}


async def test_a_failing_write_does_not_sink_the_batch(
    db: Database, make_account: AccountFactory, writer: SettlementWriter
) -> None:
    account = await make_account("live", balance=PRICE * 2)

    async def broken(conn: AsyncConnection) -> None:
        await conn.execute(screening_reviews.insert().values(id="only-an-id"))  # NOT NULLs fail

    failing = settlement(account.org_id)
    failing.write = broken
    good = settlement(account.org_id)
    outcomes = await asyncio.gather(
        writer.submit(failing), writer.submit(good), return_exceptions=True
    )
    assert isinstance(outcomes[0], Exception)
    assert outcomes[1].endswith(f" {PRICE}".encode())
    assert await balance(db, account.org_id) == (PRICE, 0)  # only the good call paid


async def test_a_refused_call_writes_nothing_and_a_failed_write_is_not_charged(
    db: Database, make_account: AccountFactory, writer: SettlementWriter
) -> None:
    account = await make_account("live", balance=PRICE)

    def sighting(number: str) -> Any:
        async def write(conn: AsyncConnection) -> None:
            await observations.record(conn, "live", account.org_id, [number], [("name", "n")])

        return write

    async def broken(conn: AsyncConnection) -> None:
        await conn.execute(screening_reviews.insert().values(id="only-an-id"))  # NOT NULLs fail

    failing, paid, refused = (settlement(account.org_id) for _ in range(3))
    failing.write, paid.write, refused.write = broken, sighting("paid"), sighting("refused")
    outcomes = await asyncio.gather(
        *(writer.submit(s) for s in (failing, paid, refused)), return_exceptions=True
    )
    assert isinstance(outcomes[0], Exception) and not isinstance(outcomes[0], ApiError)
    assert outcomes[1].endswith(b" 0")  # the failed call was not charged: this one could pay
    assert isinstance(outcomes[2], ApiError) and outcomes[2].status_code == 402
    async with db.reader.connect() as conn:
        found = await observations.seen_with_many(conn, "live", ["paid", "refused"], "x")
    assert found["paid"].organisations == 1
    assert found["refused"].organisations == 0  # refused with 402: its write was not kept


async def test_holds_are_settled_or_released(
    db: Database, make_account: AccountFactory, writer: SettlementWriter
) -> None:
    account = await make_account("live", balance=PRICE * 3)
    paid = await wallet.reserve(db, account.org_id, PRICE, "KES", unique("req"), 60)
    unpaid = await wallet.reserve(db, account.org_id, PRICE, "KES", unique("req"), 60)
    assert await balance(db, account.org_id) == (PRICE * 3, PRICE * 2)
    await asyncio.gather(
        writer.submit(settlement(account.org_id, hold_id=paid.id)),
        writer.submit(settlement(account.org_id, hold_id=unpaid.id, charge=False)),
    )
    assert await balance(db, account.org_id) == (PRICE * 2, 0)
    # A hold that expired (gone) is still charged when the balance allows it.
    await writer.submit(settlement(account.org_id, hold_id="hold_gone"))
    assert await balance(db, account.org_id) == (PRICE, 0)

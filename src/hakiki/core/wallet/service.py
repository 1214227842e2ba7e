"""The prepaid wallet: holds, debits, credits, an append-only ledger (docs/decisions.md#wallet).

A live billable call first *reserves* its price (402 before any upstream call when the available
balance is short), then settles in the same database transaction as its request record: one debit
when the outcome is billable, none when it is not. Holds left by a crashed process expire and are
released by ``release_expired_holds``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.wallet import repository

logger = logging.getLogger("hakiki.wallet")


@dataclass(frozen=True)
class Hold:
    id: str
    org_id: str
    amount: int
    currency: str
    in_memory: bool = False  # a live call's hold (``call_holds``), not a database row


@dataclass(frozen=True)
class Charge:
    transaction_id: str
    amount: int
    currency: str
    balance_after: int


def insufficient_funds(amount: int, currency: str) -> ApiError:
    return ApiError(
        402,
        "insufficient_funds",
        f"The wallet's available balance is below this call's price of {amount} "
        f"{currency} minor units; top up the wallet and retry.",
    )


def _ledger_row(
    org_id: str,
    seq: int,
    kind: str,
    amount: int,
    balance_after: int,
    currency: str,
    description: str,
    *,
    endpoint: str | None = None,
    request_id: str | None = None,
) -> dict[str, Any]:
    return {
        "id": new_id("txn"),
        "seq": seq,
        "org_id": org_id,
        "kind": kind,
        "amount": amount,
        "balance_after": balance_after,
        "currency": currency,
        "endpoint": endpoint,
        "request_id": request_id,
        "description": description,
        "created_at": utcnow(),
    }


async def lock_wallet(conn: AsyncConnection, org_id: str) -> None:
    """The wallet row, locked until the transaction ends. Every transaction takes a wallet's
    row before that wallet's holds (as ``settle_many`` and ``reserve_in`` do), so two of them
    never wait for each other across a wallet and a hold."""
    await repository.lock_wallets(conn, [org_id])


async def reserve_in(
    conn: AsyncConnection,
    org_id: str,
    amount: int,
    currency: str,
    request_id: str,
    hold_seconds: int,
) -> Hold:
    """``reserve`` inside the caller's transaction."""
    hold = Hold(new_id("hold"), org_id, amount, currency)
    if not await repository.try_reserve(conn, org_id, amount):
        raise insufficient_funds(amount, currency)
    expires = utcnow() + timedelta(seconds=hold_seconds)
    await repository.insert_hold(conn, hold.id, org_id, amount, request_id, expires)
    return hold


async def draw_from_hold(conn: AsyncConnection, hold_id: str, org_id: str, amount: int) -> None:
    """Give back up to ``amount`` of a long-lived hold (a bulk scan's) so that the rows it
    covered can be debited from the available balance, in the caller's transaction. A hold
    that expired meanwhile gives nothing: the debits then need available funds."""
    await lock_wallet(conn, org_id)
    held = await repository.hold_amount(conn, hold_id)
    if not held:
        return
    taken = min(held, amount)
    await repository.set_hold_amount(conn, hold_id, held - taken)
    await repository.release_reserved(conn, org_id, taken)


async def close_hold(conn: AsyncConnection, hold_id: str, org_id: str) -> None:
    """Release what is left of a hold and delete it, in the caller's transaction."""
    await lock_wallet(conn, org_id)
    held = await repository.hold_amount(conn, hold_id)
    if held is None:
        return
    if await repository.delete_hold(conn, hold_id) and held:
        await repository.release_reserved(conn, org_id, held)


async def reserve(
    db: Database,
    org_id: str,
    amount: int,
    currency: str,
    request_id: str,
    hold_seconds: int,
) -> Hold:
    async with transaction(db) as conn:
        return await reserve_in(conn, org_id, amount, currency, request_id, hold_seconds)


@dataclass(frozen=True)
class ChargeRequest:
    """One finished call's money: settle its hold (if any) and debit its price if ``charge``."""

    org_id: str
    amount: int
    currency: str
    hold_id: str | None
    charge: bool
    endpoint: str
    request_id: str
    description: str


async def charge_many(
    conn: AsyncConnection, requests: list[ChargeRequest]
) -> list[Charge | ApiError | None]:
    """Settle many calls inside the caller's transaction with a constant number of statements:
    lock the wallets, close the holds, decide each call in order, write the wallets and the
    ledger rows. Per call: a Charge, None (nothing charged), or a 402 ApiError when a call
    without a database hold finds the available balance short."""
    return (await settle_many(conn, requests))[0]


async def settle_many(
    conn: AsyncConnection, requests: list[ChargeRequest]
) -> tuple[list[Charge | ApiError | None], dict[str, int]]:
    """``charge_many``, also giving each wallet's available balance (balance - reserved) as
    this transaction leaves it."""
    if not requests:
        return [], {}
    states = await repository.lock_wallets(conn, sorted({r.org_id for r in requests}))
    held = await repository.delete_holds(conn, [r.hold_id for r in requests if r.hold_id])
    results: list[Charge | ApiError | None] = []
    rows: list[dict[str, Any]] = []
    for request in requests:
        state = states.get(request.org_id)
        if state is None:
            results.append(ApiError(404, "not_found", "The organisation has no wallet."))
            continue
        if request.hold_id in held:
            state[1] -= request.amount
        elif request.hold_id:
            logger.warning("hold %s expired before settlement", request.hold_id)
        if not request.charge:
            results.append(None)
            continue
        if request.hold_id not in held and state[0] - state[1] < request.amount:
            if request.hold_id:  # the hold expired and the balance was spent meanwhile
                logger.error("request %s could not be debited: balance too low", request.request_id)
                results.append(None)
            else:
                results.append(insufficient_funds(request.amount, request.currency))
            continue
        state[0] -= request.amount
        state[2] += 1
        row = _ledger_row(
            request.org_id,
            state[2],
            "debit",
            -request.amount,
            state[0],
            request.currency,
            request.description,
            endpoint=request.endpoint,
            request_id=request.request_id,
        )
        rows.append(row)
        results.append(Charge(row["id"], request.amount, request.currency, state[0]))
    await repository.store_wallets(conn, states)
    await repository.insert_transactions(conn, rows)
    return results, {org: balance - reserved for org, (balance, reserved, _) in states.items()}


async def reverse(conn: AsyncConnection, transaction_id: str, description: str) -> str | None:
    """Refund a debit inside the caller's transaction with one ``reversal`` ledger row that
    credits its amount back; return the reversal's id. A debit is reversed at most once: a
    second call returns the first reversal's id and moves no money (the unique index on
    ``reverses_id`` backs this up against concurrent callers). None when there is no such debit.
    """
    debit = await repository.get_transaction(conn, transaction_id)
    if debit is None or debit["kind"] != "debit":
        return None
    existing = await repository.find_reversal(conn, transaction_id)
    if existing is not None:
        return existing
    org_id, amount = str(debit["org_id"]), -int(debit["amount"])
    changed = await repository.apply_change(conn, org_id, balance_delta=amount, reserved_delta=0)
    assert changed is not None  # a credit cannot make the balance negative
    balance, seq = changed
    row = _ledger_row(
        org_id,
        seq,
        "reversal",
        amount,
        balance,
        str(debit["currency"]),
        description,
        endpoint=debit["endpoint"],
        request_id=debit["request_id"],
    )
    row["reverses_id"] = transaction_id
    await repository.insert_transaction(conn, row)
    return str(row["id"])


async def debit_of(conn: AsyncConnection, org_id: str, request_id: str) -> Charge | None:
    """The charge of the call ``request_id``, if it was charged."""
    row = await repository.find_debit(conn, org_id, request_id)
    if row is None:
        return None
    return Charge(str(row["id"]), -int(row["amount"]), str(row["currency"]), row["balance_after"])


async def reversal_of(conn: AsyncConnection, transaction_id: str) -> str | None:
    return await repository.find_reversal(conn, transaction_id)


async def release(db: Database, hold: Hold) -> None:
    """Give a hold back when the call failed before it could settle."""
    async with transaction(db) as conn:
        await lock_wallet(conn, hold.org_id)
        if await repository.delete_hold(conn, hold.id):
            await repository.release_reserved(conn, hold.org_id, hold.amount)


async def credit(db: Database, org_id: str, amount: int, description: str) -> Charge:
    if amount <= 0:
        raise ApiError(400, "invalid_request", "A credit must be a positive amount.")
    async with transaction(db) as conn:
        wallet = await repository.get_wallet(conn, org_id)
        if wallet is None:
            raise ApiError(404, "not_found", "The organisation has no wallet.")
        changed = await repository.apply_change(
            conn, org_id, balance_delta=amount, reserved_delta=0
        )
        assert changed is not None  # a credit cannot make the balance negative
        balance, seq = changed
        currency = str(wallet["currency"])
        row = _ledger_row(org_id, seq, "credit", amount, balance, currency, description)
        await repository.insert_transaction(conn, row)
    return Charge(row["id"], amount, currency, balance)


async def release_expired_holds(db: Database) -> int:
    async with transaction(db) as conn:
        holds = await repository.expired_holds(conn, utcnow())
        if holds:
            await repository.lock_wallets(conn, sorted({str(hold["org_id"]) for hold in holds}))
        for hold in holds:
            if await repository.delete_hold(conn, hold["id"]):
                await repository.release_reserved(conn, hold["org_id"], int(hold["amount"]))
    return len(holds)


async def wallet_summary(conn: AsyncConnection, org_id: str) -> dict[str, Any]:
    wallet = await repository.get_wallet(conn, org_id)
    if wallet is None:
        raise ApiError(404, "not_found", "The organisation has no wallet.")
    balance, reserved = int(wallet["balance"]), int(wallet["reserved"])
    return {
        "currency": wallet["currency"],
        "balance": balance,
        "reserved": reserved,
        "available": balance - reserved,
        "updated_at": wallet["updated_at"],
    }

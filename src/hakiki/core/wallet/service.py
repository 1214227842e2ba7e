"""The prepaid wallet: holds, debits, credits, an append-only ledger (DESIGN §4).

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


async def _record(
    conn: AsyncConnection,
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
) -> str:
    """Append one ledger row; return its id."""
    transaction_id = new_id("txn")
    await repository.insert_transaction(
        conn,
        {
            "id": transaction_id,
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
        },
    )
    return transaction_id


async def reserve(
    db: Database,
    org_id: str,
    amount: int,
    currency: str,
    request_id: str,
    hold_seconds: int,
) -> Hold:
    hold = Hold(new_id("hold"), org_id, amount, currency)
    async with transaction(db) as conn:
        if not await repository.try_reserve(conn, org_id, amount):
            raise insufficient_funds(amount, currency)
        expires = utcnow() + timedelta(seconds=hold_seconds)
        await repository.insert_hold(conn, hold.id, org_id, amount, request_id, expires)
    return hold


async def settle(
    conn: AsyncConnection,
    hold: Hold,
    *,
    charge: bool,
    endpoint: str,
    request_id: str,
    description: str,
) -> Charge | None:
    """Close the hold inside the caller's transaction; debit once if ``charge``."""
    held = await repository.delete_hold(conn, hold.id)
    reserved_delta = -hold.amount if held else 0
    if not charge:
        if held:
            await repository.release_reserved(conn, hold.org_id, hold.amount)
        return None
    if not held:
        logger.warning("hold %s expired before settlement; debiting without it", hold.id)
    changed = await repository.apply_change(
        conn, hold.org_id, balance_delta=-hold.amount, reserved_delta=reserved_delta
    )
    if changed is None:
        # Only reachable when the hold had expired and the balance was spent meanwhile.
        logger.error("request %s could not be debited: balance too low", request_id)
        return None
    balance, seq = changed
    transaction_id = await _record(
        conn,
        hold.org_id,
        seq,
        "debit",
        -hold.amount,
        balance,
        hold.currency,
        description,
        endpoint=endpoint,
        request_id=request_id,
    )
    return Charge(transaction_id, hold.amount, hold.currency, balance)


async def debit(
    conn: AsyncConnection,
    org_id: str,
    amount: int,
    currency: str,
    *,
    endpoint: str,
    request_id: str,
    description: str,
) -> Charge:
    """Debit at once, inside the caller's transaction, for work that calls no upstream (local
    engines): one write per call. 402 when the available balance is short."""
    changed = await repository.apply_change(conn, org_id, balance_delta=-amount, reserved_delta=0)
    if changed is None:
        raise insufficient_funds(amount, currency)
    balance, seq = changed
    transaction_id = await _record(
        conn,
        org_id,
        seq,
        "debit",
        -amount,
        balance,
        currency,
        description,
        endpoint=endpoint,
        request_id=request_id,
    )
    return Charge(transaction_id, amount, currency, balance)


async def release(db: Database, hold: Hold) -> None:
    """Give a hold back when the call failed before it could settle."""
    async with transaction(db) as conn:
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
        transaction_id = await _record(
            conn, org_id, seq, "credit", amount, balance, currency, description
        )
    return Charge(transaction_id, amount, str(wallet["currency"]), balance)


async def release_expired_holds(db: Database) -> int:
    async with transaction(db) as conn:
        holds = await repository.expired_holds(conn, utcnow())
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

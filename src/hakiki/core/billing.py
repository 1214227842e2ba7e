"""Billing: the one module through which every endpoint and job moves money, with three verbs
(docs/architecture.md#billing). The wallet (``core/wallet``) is the ledger underneath.

- **Per call**: ``hold_for_call`` reserves a live call's price before upstream work (402 when
  the wallet is short; an in-memory hold, ``core/wallet/call_holds.py``) and ``call_charge``
  says what the call's settlement debits; the settlement writer (``core/settlement.py``)
  commits the debit with the call's own rows, many calls per transaction, and debits only
  what the wallet covers.
- **Jobs** (bulk scans now; statements and background checks next): ``reserve`` the whole
  job's price when it is accepted, ``charge_units`` as each batch of units finishes (one debit
  per unit, its reference unique, so a rerun never charges twice), ``close`` to release what is
  left.
- **Refund**: ``refund`` reverses a call's debit with one ledger row, at most once.

Sandbox never reaches this module: callers check ``principal.live`` (or the job's environment)
and the price first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.errors import ApiError
from hakiki.core.wallet import service as wallet
from hakiki.core.wallet.call_holds import CallHolds
from hakiki.core.wallet.service import Charge, ChargeRequest, Hold

__all__ = [
    "Charge",
    "Hold",
    "Unit",
    "call_charge",
    "charge_of",
    "charge_units",
    "close",
    "hold_for_call",
    "lock_wallet",
    "part_price",
    "refund",
    "refund_of",
    "release_call_hold",
    "reserve",
]


# Per call ------------------------------------------------------------------------------------


async def hold_for_call(holds: CallHolds, principal: Principal, price: int) -> Hold | None:
    """Reserve a live call's price; None for sandbox keys and free calls."""
    if not principal.live or price <= 0:
        return None
    return await holds.hold(principal.org_id, price, principal.currency)


def release_call_hold(holds: CallHolds, hold: Hold) -> None:
    """Give a call's hold back when it failed before it could settle."""
    holds.release(hold)


def call_charge(
    principal: Principal,
    *,
    key: str,
    price: int,
    hold: Hold | None,
    billable: bool,
    request_id: str,
    description: str,
) -> ChargeRequest | None:
    """What a finished call's settlement does with money: debit the call when the outcome is
    billable (its hold's amount, or the price when it holds nothing), only if the wallet's
    available balance covers it (else 402); else nothing (sandbox, free calls, a held call
    whose outcome is not billable: its in-memory hold just ends)."""
    stored = hold is not None and not hold.in_memory
    debit_now = principal.live and billable and price > 0
    if not stored and not debit_now:
        return None
    return ChargeRequest(
        org_id=principal.org_id,
        amount=hold.amount if hold and stored else price,  # a database hold settles its amount
        currency=principal.currency,
        hold_id=hold.id if hold and stored else None,
        charge=billable,
        endpoint=key,
        request_id=request_id,
        description=description,
    )


def part_price(price: int, done: int, parts: int) -> int:
    """The price of a call that did ``done`` of its ``parts`` (equal shares, rounded down in
    the customer's favour): what a call that could do only part of what was asked charges."""
    if parts <= 0 or done >= parts:
        return price
    return price * max(done, 0) // parts


# Jobs ----------------------------------------------------------------------------------------


async def reserve(
    conn: AsyncConnection,
    principal: Principal,
    amount: int,
    reference: str,
    hold_seconds: int,
) -> Hold:
    """Reserve a job's whole price in the caller's transaction: 402 now, not halfway through."""
    return await wallet.reserve_in(
        conn, principal.org_id, amount, principal.currency, reference, hold_seconds
    )


@dataclass(frozen=True)
class Unit:
    """One finished unit of a job's work: ``reference`` is unique per unit (``<job>:<row>``)."""

    reference: str
    description: str


async def charge_units(
    conn: AsyncConnection,
    *,
    org_id: str,
    currency: str,
    hold_id: str | None,
    price_key: str,
    price: int,
    units: Sequence[Unit],
    finished: int,
) -> list[Charge | ApiError | None]:
    """Debit each unit once, in the caller's transaction. ``finished`` units (the charged ones
    and those that ended in an error) are drawn from the reservation first, so the debits come
    out of the reserved money; per unit a Charge, or a 402 ApiError when the wallet could not
    pay it."""
    if hold_id:
        await wallet.draw_from_hold(conn, hold_id, org_id, price * finished)
    requests = [
        ChargeRequest(
            org_id=org_id,
            amount=price,
            currency=currency,
            hold_id=None,
            charge=True,
            endpoint=price_key,
            request_id=unit.reference,
            description=unit.description,
        )
        for unit in units
    ]
    return await wallet.charge_many(conn, requests)


async def lock_wallet(conn: AsyncConnection, org_id: str) -> None:
    """Lock the organisation's wallet row now, in the caller's transaction, when rows of its own
    come next and money may move after them: the wallet first is the order the settlement and
    the reservations take (docs/decisions.md#background-lock-order)."""
    await wallet.lock_wallet(conn, org_id)


async def close(conn: AsyncConnection, hold_id: str | None, org_id: str) -> None:
    """End a job's reservation: release what it did not spend, in the caller's transaction."""
    if hold_id:
        await wallet.close_hold(conn, hold_id, org_id)


# Refund --------------------------------------------------------------------------------------


async def charge_of(conn: AsyncConnection, org_id: str, request_id: str) -> Charge | None:
    """The debit of the call ``request_id``, if it was charged."""
    return await wallet.debit_of(conn, org_id, request_id)


async def refund_of(conn: AsyncConnection, charge: Charge | None) -> str | None:
    """The reversal that refunded ``charge``, if any."""
    return await wallet.reversal_of(conn, charge.transaction_id) if charge else None


async def refund(
    conn: AsyncConnection, org_id: str, request_id: str, description: str
) -> str | None:
    """Refund the call ``request_id``'s debit with one reversal (at most once); the reversal's
    id, or None when the call was not charged."""
    charge = await wallet.debit_of(conn, org_id, request_id)
    if charge is None:
        return None
    return await wallet.reverse(conn, charge.transaction_id, description)

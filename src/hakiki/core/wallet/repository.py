"""Wallet queries. Every balance change is one conditional UPDATE of the wallet row, which
takes that row's lock on PostgreSQL and the database's write lock on SQLite, so concurrent
calls serialise there and the balance can never go below zero."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.tables import wallet_holds, wallet_transactions, wallets


async def try_reserve(conn: AsyncConnection, org_id: str, amount: int) -> bool:
    result = await conn.execute(
        update(wallets)
        .where(wallets.c.org_id == org_id, wallets.c.balance - wallets.c.reserved >= amount)
        .values(reserved=wallets.c.reserved + amount, updated_at=utcnow())
    )
    return result.rowcount == 1


async def insert_hold(
    conn: AsyncConnection,
    hold_id: str,
    org_id: str,
    amount: int,
    request_id: str,
    expires_at: datetime,
) -> None:
    await conn.execute(
        insert(wallet_holds).values(
            id=hold_id,
            org_id=org_id,
            amount=amount,
            request_id=request_id,
            created_at=utcnow(),
            expires_at=expires_at,
        )
    )


async def delete_hold(conn: AsyncConnection, hold_id: str) -> bool:
    result = await conn.execute(delete(wallet_holds).where(wallet_holds.c.id == hold_id))
    return result.rowcount == 1


async def apply_change(
    conn: AsyncConnection, org_id: str, *, balance_delta: int, reserved_delta: int
) -> tuple[int, int] | None:
    """Move money; refuse (None) if the available balance would go negative.
    Returns (new balance, the new transaction's seq)."""
    available = wallets.c.balance - wallets.c.reserved
    row = (
        await conn.execute(
            update(wallets)
            .where(wallets.c.org_id == org_id, available + balance_delta - reserved_delta >= 0)
            .values(
                balance=wallets.c.balance + balance_delta,
                reserved=wallets.c.reserved + reserved_delta,
                last_seq=wallets.c.last_seq + 1,
                updated_at=utcnow(),
            )
            .returning(wallets.c.balance, wallets.c.last_seq)
        )
    ).first()
    return (int(row[0]), int(row[1])) if row else None


async def lock_wallets(conn: AsyncConnection, org_ids: list[str]) -> dict[str, list[int]]:
    """Balance, reserved and last seq of each wallet, locked until the transaction ends (row
    locks in id order on PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the write lock)."""
    rows = await conn.execute(
        select(wallets.c.org_id, wallets.c.balance, wallets.c.reserved, wallets.c.last_seq)
        .where(wallets.c.org_id.in_(org_ids))
        .order_by(wallets.c.org_id)
        .with_for_update()
    )
    return {row[0]: [int(row[1]), int(row[2]), int(row[3])] for row in rows}


async def store_wallets(conn: AsyncConnection, states: dict[str, list[int]]) -> None:
    """Write back the (balance, reserved, last seq) of wallets locked by ``lock_wallets``."""
    if states:
        now = utcnow()
        await conn.execute(
            update(wallets)
            .where(wallets.c.org_id == bindparam("w_org"))
            .values(
                balance=bindparam("w_balance"),
                reserved=bindparam("w_reserved"),
                last_seq=bindparam("w_seq"),
                updated_at=now,
            ),
            [
                {"w_org": org, "w_balance": b, "w_reserved": r, "w_seq": s}
                for org, (b, r, s) in states.items()
            ],
        )


async def delete_holds(conn: AsyncConnection, hold_ids: list[str]) -> set[str]:
    """Delete the holds that still exist; return their ids."""
    if not hold_ids:
        return set()
    rows = await conn.execute(
        delete(wallet_holds).where(wallet_holds.c.id.in_(hold_ids)).returning(wallet_holds.c.id)
    )
    return {row[0] for row in rows}


async def hold_amount(conn: AsyncConnection, hold_id: str) -> int | None:
    row = (
        await conn.execute(select(wallet_holds.c.amount).where(wallet_holds.c.id == hold_id))
    ).first()
    return int(row[0]) if row else None


async def set_hold_amount(conn: AsyncConnection, hold_id: str, amount: int) -> None:
    await conn.execute(
        update(wallet_holds).where(wallet_holds.c.id == hold_id).values(amount=amount)
    )


async def release_reserved(conn: AsyncConnection, org_id: str, amount: int) -> None:
    await conn.execute(
        update(wallets)
        .where(wallets.c.org_id == org_id)
        .values(reserved=wallets.c.reserved - amount, updated_at=utcnow())
    )


async def insert_transaction(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(wallet_transactions).values(**values))


async def insert_transactions(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(wallet_transactions), rows)


async def expired_holds(conn: AsyncConnection, now: datetime) -> list[dict[str, Any]]:
    rows = await conn.execute(select(wallet_holds).where(wallet_holds.c.expires_at < now))
    return [dict(r._mapping) for r in rows]


async def get_wallet(conn: AsyncConnection, org_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(wallets).where(wallets.c.org_id == org_id))).first()
    return dict(row._mapping) if row else None


async def count_transactions(conn: AsyncConnection, org_id: str) -> int:
    query = select(func.count()).where(wallet_transactions.c.org_id == org_id)
    return int((await conn.execute(query)).scalar_one())


async def list_transactions(
    conn: AsyncConnection, org_id: str, *, offset: int, limit: int
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(wallet_transactions)
        .where(wallet_transactions.c.org_id == org_id)
        .order_by(wallet_transactions.c.seq.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]


async def get_transaction(conn: AsyncConnection, transaction_id: str) -> dict[str, Any] | None:
    query = select(wallet_transactions).where(wallet_transactions.c.id == transaction_id)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def find_reversal(conn: AsyncConnection, transaction_id: str) -> str | None:
    """The id of the reversal of ``transaction_id``, if there is one."""
    query = select(wallet_transactions.c.id).where(
        wallet_transactions.c.reverses_id == transaction_id
    )
    found = (await conn.execute(query)).scalar_one_or_none()
    return str(found) if found is not None else None


async def find_debit(conn: AsyncConnection, org_id: str, request_id: str) -> dict[str, Any] | None:
    """The debit that charged the call ``request_id``, if it was charged."""
    query = select(wallet_transactions).where(
        wallet_transactions.c.request_id == request_id,
        wallet_transactions.c.org_id == org_id,
        wallet_transactions.c.kind == "debit",
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None

"""The organisation's records as the console shows them, read from core's tables: keys,
activity by day, the request log. Every query is bounded to one organisation."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.console.roles import SCOPES
from hakiki.console.tables import console_users
from hakiki.core.auth import new_credentials
from hakiki.core.clock import as_utc, utcnow
from hakiki.core.crypto import hash_secret
from hakiki.core.ids import new_id
from hakiki.core.tables import api_keys, request_logs, wallet_transactions

OVERVIEW_DAYS = 14
OVERVIEW_ROWS = 200_000  # calls counted at most per overview (a chart, not an audit)


async def keys_of(conn: AsyncConnection, org_id: str) -> list[dict[str, Any]]:
    query = (
        select(
            api_keys.c.id,
            api_keys.c.client_id,
            api_keys.c.environment,
            api_keys.c.scopes,
            api_keys.c.created_at,
            api_keys.c.revoked_at,
        )
        .where(api_keys.c.org_id == org_id)
        .order_by(api_keys.c.created_at.desc())
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def create_key(
    conn: AsyncConnection, org_id: str, environment: str, *, scopes: list[str], created_by: str
) -> tuple[str, str]:
    """A new keypair of ``created_by`` (a user id) with ``scopes``; (client_id, secret): the
    secret is never stored."""
    client_id, secret = new_credentials(environment)
    await conn.execute(
        insert(api_keys).values(
            id=new_id("key"),
            org_id=org_id,
            client_id=client_id,
            secret_hash=hash_secret(secret),
            environment=environment,
            scopes=scopes,
            created_at=utcnow(),
            created_by=created_by,
        )
    )
    return client_id, secret


async def creator_scopes(conn: AsyncConnection, user_id: str) -> frozenset[str] | None:
    """What a key made by ``user_id`` may do now: the user's role's scopes, or None when the
    user was removed or disabled (their keys stop working). core.auth.KeyCache asks it."""
    row = (
        await conn.execute(
            select(console_users.c.role).where(
                console_users.c.id == user_id, console_users.c.disabled_at.is_(None)
            )
        )
    ).first()
    return SCOPES.get(row.role, frozenset()) if row is not None else None


async def revoke_key(conn: AsyncConnection, org_id: str, key_id: str) -> bool:
    """Revoke the organisation's key ``key_id``; False if it has no such active key."""
    result = await conn.execute(
        update(api_keys)
        .where(
            api_keys.c.id == key_id, api_keys.c.org_id == org_id, api_keys.c.revoked_at.is_(None)
        )
        .values(revoked_at=utcnow())
    )
    return result.rowcount == 1


async def activity(conn: AsyncConnection, org_id: str, environment: str) -> list[dict[str, Any]]:
    """Calls, errors and charges of the last OVERVIEW_DAYS days, oldest first."""
    today = utcnow().date()
    since = datetime.combine(today - timedelta(days=OVERVIEW_DAYS - 1), datetime.min.time())
    since = as_utc(since)
    days: dict[date, dict[str, int]] = defaultdict(lambda: {"calls": 0, "errors": 0, "charged": 0})
    calls = await conn.execute(
        select(request_logs.c.created_at, request_logs.c.status_code)
        .where(
            request_logs.c.org_id == org_id,
            request_logs.c.environment == environment,
            request_logs.c.created_at >= since,
        )
        .limit(OVERVIEW_ROWS)
    )
    for created_at, status in calls:
        day = days[as_utc(created_at).date()]
        day["calls"] += 1
        day["errors"] += int(status >= 400)
    charges = await conn.execute(
        select(wallet_transactions.c.created_at, wallet_transactions.c.amount).where(
            wallet_transactions.c.org_id == org_id,
            wallet_transactions.c.kind.in_(("debit", "reversal")),
            wallet_transactions.c.created_at >= since,
        )
    )
    for created_at, amount in charges:
        days[as_utc(created_at).date()]["charged"] -= int(amount)
    return [
        {"day": d, **days[d]}
        for d in (today - timedelta(days=n) for n in range(OVERVIEW_DAYS - 1, -1, -1))
    ]


async def request_log(
    conn: AsyncConnection, org_id: str, *, reference: str | None, limit: int
) -> list[dict[str, Any]]:
    """The newest entries of the organisation's request log (already redacted when written),
    or the one whose request id is ``reference``."""
    query = select(
        request_logs.c.id,
        request_logs.c.environment,
        request_logs.c.method,
        request_logs.c.path,
        request_logs.c.status_code,
        request_logs.c.response_code,
        request_logs.c.channel,
        request_logs.c.request_body,
        request_logs.c.duration_ms,
        request_logs.c.transaction_id,
        request_logs.c.created_at,
    ).where(request_logs.c.org_id == org_id)
    if reference:
        query = query.where(request_logs.c.id == reference)
    query = query.order_by(request_logs.c.created_at.desc()).limit(limit)
    return [dict(r._mapping) for r in await conn.execute(query)]

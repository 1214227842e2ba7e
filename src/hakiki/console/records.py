"""The organisation's records as the console shows them, read from core's tables: keys,
activity by day, the request log. Every query is bounded to one organisation."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, insert, not_, select, update
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
            api_keys.c.name,
            api_keys.c.created_by,
        )
        .where(api_keys.c.org_id == org_id)
        .order_by(api_keys.c.created_at.desc())
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def create_key(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    *,
    scopes: list[str],
    created_by: str,
    name: str | None = None,
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
            name=name,
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


# ---------------------------------------------------------------------------------------------
# The request log, paginated and filtered (issue 36)

STATUS_CLASSES = {"2xx": (200, 300), "4xx": (400, 500), "5xx": (500, 600)}


def _own_reads(org_id: str) -> Any:
    """The console's own reads: GETs made with a console user's session (the shell pages'
    API reads), not calls anyone made on purpose."""
    users = select(console_users.c.id).where(console_users.c.org_id == org_id)
    return and_(request_logs.c.method == "GET", request_logs.c.api_key_id.in_(users))


def _log_conditions(org_id: str, filters: dict[str, Any]) -> list[Any]:
    conditions: list[Any] = [request_logs.c.org_id == org_id, not_(_own_reads(org_id))]
    if filters.get("reference"):
        conditions.append(request_logs.c.id == filters["reference"])
    if filters.get("environment"):
        conditions.append(request_logs.c.environment == filters["environment"])
    status = filters.get("status")
    if status in STATUS_CLASSES:
        low, high = STATUS_CLASSES[status]
        conditions += [request_logs.c.status_code >= low, request_logs.c.status_code < high]
    elif status:
        conditions.append(request_logs.c.status_code == int(status))
    if filters.get("endpoint"):
        conditions.append(request_logs.c.path.startswith(filters["endpoint"], autoescape=True))
    if filters.get("key_id"):
        conditions.append(request_logs.c.api_key_id == filters["key_id"])
    if filters.get("since"):
        conditions.append(request_logs.c.created_at >= filters["since"])
    if filters.get("until"):
        conditions.append(request_logs.c.created_at < filters["until"])
    return conditions


async def request_log_page(
    conn: AsyncConnection, org_id: str, filters: dict[str, Any], *, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the organisation's request log, newest first, and how many rows match."""
    conditions = _log_conditions(org_id, filters)
    total = (
        await conn.execute(select(func.count()).select_from(request_logs).where(*conditions))
    ).scalar_one()
    query = (
        select(
            request_logs.c.id,
            request_logs.c.api_key_id,
            request_logs.c.environment,
            request_logs.c.method,
            request_logs.c.path,
            request_logs.c.status_code,
            request_logs.c.response_code,
            request_logs.c.request_body,
            request_logs.c.duration_ms,
            request_logs.c.transaction_id,
            request_logs.c.error_message,
            request_logs.c.created_at,
        )
        .where(*conditions)
        .order_by(request_logs.c.created_at.desc(), request_logs.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in await conn.execute(query)], int(total)


async def endpoints_logged(conn: AsyncConnection, org_id: str) -> list[str]:
    """The paths of the organisation's newest calls, for the filter's choices."""
    newest = (
        select(request_logs.c.path)
        .where(request_logs.c.org_id == org_id)
        .order_by(request_logs.c.created_at.desc())
        .limit(2000)
        .subquery()
    )
    rows = await conn.execute(select(newest.c.path).distinct())
    return sorted(r.path for r in rows)


async def last_used(conn: AsyncConnection, org_id: str, key_ids: list[str]) -> dict[str, Any]:
    """When each key was last used (its newest request-log row), by key id."""
    if not key_ids:
        return {}
    query = (
        select(request_logs.c.api_key_id, func.max(request_logs.c.created_at))
        .where(request_logs.c.org_id == org_id, request_logs.c.api_key_id.in_(key_ids))
        .group_by(request_logs.c.api_key_id)
    )
    return {key: as_utc(when) for key, when in await conn.execute(query) if when is not None}


async def name_key(conn: AsyncConnection, org_id: str, key_id: str, name: str) -> bool:
    result = await conn.execute(
        update(api_keys)
        .where(api_keys.c.id == key_id, api_keys.c.org_id == org_id)
        .values(name=name)
    )
    return result.rowcount == 1

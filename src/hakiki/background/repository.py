"""Queries of background-check packages, requests, checks, timeline and documents."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NewType

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.background.tables import (
    background_checks,
    background_documents,
    background_packages,
    background_requests,
    background_timeline,
)
from hakiki.core import billing
from hakiki.core.scoping import owned_by

packages = background_packages
requests = background_requests
checks = background_checks
timeline = background_timeline


LockedRequest = NewType("LockedRequest", dict[str, Any])
"""A request row this transaction has locked (``lock_request``) or inserted: the functions that
write a request's rows (it, its checks, timeline, documents, webhook events) take only this,
so each transaction that writes them has taken the request's locks first, in one order."""


def _dicts(rows: Any) -> list[dict[str, Any]]:
    return [dict(row._mapping) for row in rows]


# Packages ----------------------------------------------------------------------------------


async def insert_package(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(packages).values(**row))


async def get_package(
    conn: AsyncConnection, org_id: str, environment: str, package_id: str
) -> dict[str, Any] | None:
    query = select(packages).where(*owned_by(packages, org_id, environment, {"id": package_id}))
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def name_taken(
    conn: AsyncConnection, org_id: str, environment: str, name_key: str, but: str | None
) -> bool:
    query = select(packages.c.id).where(
        *owned_by(packages, org_id, environment, {"name_key": name_key})
    )
    if but is not None:
        query = query.where(packages.c.id != but)
    return (await conn.execute(query)).first() is not None


async def count_packages(conn: AsyncConnection, org_id: str, environment: str) -> int:
    query = select(func.count()).where(*owned_by(packages, org_id, environment, {}))
    return int((await conn.execute(query)).scalar_one())


async def list_packages(
    conn: AsyncConnection, org_id: str, environment: str, offset: int, limit: int
) -> list[dict[str, Any]]:
    query = (
        select(packages)
        .where(*owned_by(packages, org_id, environment, {}))
        .order_by(packages.c.created_at.desc(), packages.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return _dicts(await conn.execute(query))


async def update_package(conn: AsyncConnection, package_id: str, values: dict[str, Any]) -> None:
    await conn.execute(update(packages).where(packages.c.id == package_id).values(**values))


async def delete_package(conn: AsyncConnection, package_id: str) -> None:
    await conn.execute(delete(packages).where(packages.c.id == package_id))


# Requests ----------------------------------------------------------------------------------


async def insert_request(
    conn: AsyncConnection, row: dict[str, Any], check_rows: list[dict[str, Any]]
) -> LockedRequest:
    """The new request, as good as locked: no other transaction sees it before this commits."""
    await conn.execute(insert(requests).values(**row))
    await conn.execute(insert(checks), check_rows)
    return LockedRequest(row)


async def get_request(conn: AsyncConnection, request_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(requests).where(requests.c.id == request_id))).first()
    return dict(row._mapping) if row else None


async def lock_request(conn: AsyncConnection, request_id: str) -> LockedRequest | None:
    """The request, locked until this transaction ends: the first thing each transaction that
    writes a request's rows does (docs/decisions.md#background-lock-order). On PostgreSQL it
    takes, in this order, a live request's wallet row (the settlement locks wallets before the
    calls' own rows, and a check's charge or the reservation's release comes later in this
    transaction) and the request row; then the timeline's next position, the checks and the
    webhook sequence are this transaction's alone. SQLite's write gate already runs one
    writer at a time."""
    owner = select(requests.c.org_id, requests.c.environment).where(requests.c.id == request_id)
    found = (await conn.execute(owner)).first()
    if found is None:
        return None
    if found.environment == "live":
        await billing.lock_wallet(conn, found.org_id)
    query = select(requests).where(requests.c.id == request_id).with_for_update()
    row = (await conn.execute(query)).first()
    return LockedRequest(dict(row._mapping)) if row else None


async def get_owned_request(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(requests).where(
        *owned_by(requests, org_id, environment, {"reference": reference})
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def by_token(conn: AsyncConnection, token_hash: str) -> dict[str, Any] | None:
    query = select(requests).where(requests.c.token_hash == token_hash)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


def _filtered(org_id: str, environment: str, filters: dict[str, Any]) -> list[Any]:
    conditions = owned_by(
        requests,
        org_id,
        environment,
        {"status": filters.get("status"), "package_id": filters.get("package_id")},
    )
    if filters.get("created_from") is not None:
        conditions.append(requests.c.created_at >= filters["created_from"])
    if filters.get("created_to") is not None:
        conditions.append(requests.c.created_at < filters["created_to"])
    return conditions


async def count_requests(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, Any]
) -> int:
    query = select(func.count()).where(*_filtered(org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_requests(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, Any],
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = (
        select(requests)
        .where(*_filtered(org_id, environment, filters))
        .order_by(requests.c.created_at.desc(), requests.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return _dicts(await conn.execute(query))


async def move(conn: AsyncConnection, row: LockedRequest, values: dict[str, Any]) -> bool:
    """Change the request only if it is still in the status ``row`` has (a compare-and-set:
    two timers or a timer and the candidate never both win)."""
    result = await conn.execute(
        update(requests)
        .where(requests.c.id == row["id"], requests.c.status == row["status"])
        .values(**values)
    )
    return bool(result.rowcount)


async def update_request(conn: AsyncConnection, row: LockedRequest, values: dict[str, Any]) -> None:
    await conn.execute(update(requests).where(requests.c.id == row["id"]).values(**values))


# Checks ------------------------------------------------------------------------------------


async def checks_of(conn: AsyncConnection, request_id: str) -> list[dict[str, Any]]:
    query = select(checks).where(checks.c.request_id == request_id).order_by(checks.c.code)
    return _dicts(await conn.execute(query))


async def update_check(
    conn: AsyncConnection,
    row: LockedRequest,
    code: str,
    values: dict[str, Any],
    *,
    unless_status: str | None = None,
) -> bool:
    query = update(checks).where(checks.c.request_id == row["id"], checks.c.code == code)
    if unless_status is not None:
        query = query.where(checks.c.status != unless_status)
    return bool((await conn.execute(query.values(**values))).rowcount)


# Timeline (append-only) --------------------------------------------------------------------


async def append(
    conn: AsyncConnection, row: LockedRequest, at: datetime, event: str, status: str, detail: str
) -> None:
    """The next entry: its position is free, the request's lock keeping other writers out."""
    last = select(func.coalesce(func.max(timeline.c.position), 0)).where(
        timeline.c.request_id == row["id"]
    )
    position = int((await conn.execute(last)).scalar_one()) + 1
    await conn.execute(
        insert(timeline).values(
            request_id=row["id"],
            position=position,
            at=at,
            event=event,
            status=status,
            detail=detail,
        )
    )


async def timeline_of(conn: AsyncConnection, request_id: str) -> list[dict[str, Any]]:
    query = (
        select(timeline).where(timeline.c.request_id == request_id).order_by(timeline.c.position)
    )
    return _dicts(await conn.execute(query))


# Documents ---------------------------------------------------------------------------------


async def insert_document(
    conn: AsyncConnection, row: LockedRequest, document: dict[str, Any]
) -> None:
    await conn.execute(insert(background_documents).values(**document, request_id=row["id"]))


async def documents_of(conn: AsyncConnection, request_id: str) -> list[dict[str, Any]]:
    query = select(
        background_documents.c.id,
        background_documents.c.kind,
        background_documents.c.content_type,
        background_documents.c.size,
        background_documents.c.sha256,
    ).where(background_documents.c.request_id == request_id)
    return _dicts(await conn.execute(query))

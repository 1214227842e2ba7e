"""Queries of bulk scans and their results."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.scoping import owned_by
from hakiki.fraud.bulk.tables import bulk_scan_results as results
from hakiki.fraud.bulk.tables import bulk_scans as scans

FINAL_STATES = ("completed", "failed")
# Everything but the (large) input, for listings and status.
SUMMARY_COLUMNS = [c for c in scans.c if c.name != "input_encrypted"]


async def insert_scan(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(scans).values(**row))


async def get_scan(conn: AsyncConnection, bulk_id: str) -> dict[str, Any] | None:
    """The whole record, input included (for the job)."""
    row = (await conn.execute(select(scans).where(scans.c.id == bulk_id))).first()
    return dict(row._mapping) if row else None


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, bulk_id: str
) -> dict[str, Any] | None:
    query = select(*SUMMARY_COLUMNS).where(*owned_by(scans, org_id, environment, {"id": bulk_id}))
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def count_owned(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, str | None]
) -> int:
    query = select(func.count()).where(*owned_by(scans, org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def list_owned(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, str | None],
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(*SUMMARY_COLUMNS)
        .where(*owned_by(scans, org_id, environment, filters))
        .order_by(scans.c.created_at.desc(), scans.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]


async def start(conn: AsyncConnection, bulk_id: str, now: datetime) -> None:
    await conn.execute(
        update(scans)
        .where(scans.c.id == bulk_id, scans.c.status == "pending")
        .values(status="processing", started_at=now, updated_at=now)
    )


async def claim_chunk(
    conn: AsyncConnection, bulk_id: str, processed: int, stamp: datetime, now: datetime
) -> bool:
    """Lock the scan for the chunk that starts at row index ``processed``: false when another
    worker has committed it already (or the scan has ended), so no row is recorded twice, or
    when the scan changed since the worker read it (``stamp``, its ``updated_at`` then: an
    erasure rewrote the file), so no erased row is recorded."""
    result = await conn.execute(
        update(scans)
        .where(
            scans.c.id == bulk_id,
            scans.c.processed_records == processed,
            scans.c.status.not_in(FINAL_STATES),
            scans.c.updated_at == stamp,
        )
        .values(updated_at=now)
    )
    return result.rowcount == 1


async def advance(
    conn: AsyncConnection,
    bulk_id: str,
    *,
    processed: int,
    successes: int,
    errors: int,
    charged: int,
    finished_at: datetime | None,
    now: datetime,
) -> None:
    values: dict[str, Any] = {
        "processed_records": scans.c.processed_records + processed,
        "success_count": scans.c.success_count + successes,
        "error_count": scans.c.error_count + errors,
        "charged_amount": scans.c.charged_amount + charged,
        "updated_at": now,
    }
    if finished_at is not None:
        values |= {"status": "completed", "completed_at": finished_at}
    await conn.execute(update(scans).where(scans.c.id == bulk_id).values(**values))


async def fail(conn: AsyncConnection, bulk_id: str, reason: str) -> bool:
    now = utcnow()
    result = await conn.execute(
        update(scans)
        .where(scans.c.id == bulk_id, scans.c.status.not_in(FINAL_STATES))
        .values(status="failed", failure_reason=reason, completed_at=now, updated_at=now)
    )
    return result.rowcount == 1


async def insert_results(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(results), rows)


def _results_of(bulk_id: str, status: str | None) -> list[Any]:
    conditions = [results.c.bulk_id == bulk_id]
    if status is not None:
        conditions.append(results.c.status == status)
    return conditions


async def count_results(conn: AsyncConnection, bulk_id: str, status: str | None) -> int:
    query = select(func.count()).where(*_results_of(bulk_id, status))
    return int((await conn.execute(query)).scalar_one())


async def page_results(
    conn: AsyncConnection, bulk_id: str, status: str | None, *, offset: int, limit: int
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(results)
        .where(*_results_of(bulk_id, status))
        .order_by(results.c.row_number)
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]


async def get_summary(conn: AsyncConnection, bulk_id: str) -> dict[str, Any] | None:
    """The record without its input."""
    row = (await conn.execute(select(*SUMMARY_COLUMNS).where(scans.c.id == bulk_id))).first()
    return dict(row._mapping) if row else None


async def list_results(
    conn: AsyncConnection, bulk_id: str, *, after_row: int, limit: int, status: str | None = None
) -> list[dict[str, Any]]:
    query = select(results).where(*_results_of(bulk_id, status), results.c.row_number > after_row)
    rows = await conn.execute(query.order_by(results.c.row_number).limit(limit))
    return [dict(r._mapping) for r in rows]


async def counts_by_level(conn: AsyncConnection, bulk_id: str) -> dict[str, int]:
    """How many of the scan's rows have each risk level (``error``: rows not scanned)."""
    rows = await conn.execute(
        select(results.c.status, results.c.risk_level, func.count())
        .where(results.c.bulk_id == bulk_id)
        .group_by(results.c.status, results.c.risk_level)
    )
    counts: dict[str, int] = {}
    for status, level, count in rows:
        name = "error" if status == "error" else (level or "unknown")
        counts[name] = counts.get(name, 0) + int(count)
    return counts


async def owned_inputs(
    conn: AsyncConnection, org_id: str, environment: str
) -> AsyncIterator[dict[str, Any]]:
    """The organisation's scans with their files, one at a time (a file may be large)."""
    ids = await conn.execute(
        select(scans.c.id).where(*owned_by(scans, org_id, environment, {})).order_by(scans.c.id)
    )
    for (bulk_id,) in ids.all():
        if (scan := await get_scan(conn, bulk_id)) is not None:
            yield scan


async def rewrite_input(conn: AsyncConnection, bulk_id: str, sealed: bytes) -> None:
    """The file replaced (an erasure); its stamp moves, so a running worker reads it again."""
    await conn.execute(
        update(scans)
        .where(scans.c.id == bulk_id)
        .values(input_encrypted=sealed, updated_at=utcnow())
    )

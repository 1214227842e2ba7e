"""Queries for consent records and the audit log. The audit log is only ever inserted into
and read: there is no update or delete here, and the database refuses them (migration 0029)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.privacy.tables import audit_log, consent_records


async def insert_consents(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    await conn.execute(insert(consent_records), rows)


async def consent(
    conn: AsyncConnection, owner: tuple[str, str], consent_id: str
) -> dict[str, Any] | None:
    environment, org_id = owner
    found = await conn.execute(
        select(consent_records).where(
            consent_records.c.id == consent_id,
            consent_records.c.org_id == org_id,
            consent_records.c.environment == environment,
        )
    )
    row = found.mappings().first()
    return dict(row) if row else None


async def insert_audit(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(audit_log), rows)


def _audit_filter(
    owner: tuple[str, str], since: datetime | None, until: datetime | None
) -> list[Any]:
    environment, org_id = owner
    where = [audit_log.c.org_id == org_id, audit_log.c.environment == environment]
    if since is not None:
        where.append(audit_log.c.created_at >= since)
    if until is not None:
        where.append(audit_log.c.created_at < until)
    return where


async def audit_page(
    conn: AsyncConnection,
    owner: tuple[str, str],
    since: datetime | None,
    until: datetime | None,
    offset: int,
    limit: int,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the organisation's audit log in this environment, newest first, and the
    number of rows in all."""
    where = _audit_filter(owner, since, until)
    total = await conn.scalar(select(func.count()).select_from(audit_log).where(*where))
    rows = await conn.execute(
        select(audit_log).where(*where).order_by(audit_log.c.id.desc()).offset(offset).limit(limit)
    )
    return [dict(r) for r in rows.mappings()], int(total or 0)


async def audit_after(
    conn: AsyncConnection,
    owner: tuple[str, str],
    since: datetime | None,
    until: datetime | None,
    after: str | None,
    limit: int,
) -> list[dict[str, Any]]:
    """Up to ``limit`` rows after the id ``after``, oldest first (an export's next batch)."""
    where = _audit_filter(owner, since, until)
    if after is not None:
        where.append(audit_log.c.id > after)
    rows = await conn.execute(select(audit_log).where(*where).order_by(audit_log.c.id).limit(limit))
    return [dict(r) for r in rows.mappings()]


async def consents_of_subject(
    conn: AsyncConnection, org_id: str, subject_hash: str | None, identifier_hash: str | None
) -> AsyncIterator[dict[str, Any]]:
    """A subject's consent records in every environment (for access and erasure requests)."""
    clauses = []
    if subject_hash is not None:
        clauses.append(consent_records.c.subject_hash == subject_hash)
    if identifier_hash is not None:
        clauses.append(consent_records.c.identifier_hash == identifier_hash)
    if not clauses:
        return

    rows = await conn.execute(
        select(consent_records).where(consent_records.c.org_id == org_id, or_(*clauses))
    )
    for row in rows.mappings():
        yield dict(row)

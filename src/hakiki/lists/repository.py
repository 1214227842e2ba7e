"""Queries on ``list_versions`` (one row per update attempt of one list), ``list_current`` (the
version of each list every process screens with), ``list_file_parts`` (its files) and
``list_update_slots`` (the scheduled update's periods)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.ids import new_id
from hakiki.lists.tables import list_current, list_file_parts, list_update_slots, list_versions


async def record_attempt(
    conn: AsyncConnection,
    *,
    code: str,
    fetched_at: datetime,
    status: str,
    version: str | None = None,
    entity_count: int | None = None,
    sha256: str | None = None,
    error: str | None = None,
) -> str:
    row_id = new_id("lv")
    await conn.execute(
        insert(list_versions).values(
            id=row_id,
            code=code,
            version=version,
            fetched_at=fetched_at,
            entity_count=entity_count,
            sha256=sha256,
            status=status,
            error=error,
        )
    )
    return row_id


def _row(row: Any) -> dict[str, Any]:
    data = dict(row._mapping)
    data["fetched_at"] = as_utc(data["fetched_at"])
    return data


async def latest_attempts(conn: AsyncConnection) -> dict[str, dict[str, Any]]:
    """The newest attempt of every list code."""
    return await _latest(conn, None)


async def latest_failures(conn: AsyncConnection) -> dict[str, dict[str, Any]]:
    """The newest failed attempt of every list code."""
    return await _latest(conn, "failed")


async def _latest(conn: AsyncConnection, status: str | None) -> dict[str, dict[str, Any]]:
    newest = select(
        list_versions.c.code, func.max(list_versions.c.fetched_at).label("fetched_at")
    ).group_by(list_versions.c.code)
    if status is not None:
        newest = newest.where(list_versions.c.status == status)
    sub = newest.subquery()
    query = (
        select(list_versions)
        .join(
            sub,
            (list_versions.c.code == sub.c.code) & (list_versions.c.fetched_at == sub.c.fetched_at),
        )
        .order_by(list_versions.c.code, list_versions.c.id)
    )
    if status is not None:
        query = query.where(list_versions.c.status == status)
    result: dict[str, dict[str, Any]] = {}
    for row in await conn.execute(query):
        result[row.code] = _row(row)  # ids sort by time: the last one wins on a tie
    return result


async def history(conn: AsyncConnection, code: str, limit: int = 20) -> list[dict[str, Any]]:
    query = (
        select(list_versions)
        .where(list_versions.c.code == code)
        .order_by(list_versions.c.fetched_at.desc(), list_versions.c.id.desc())
        .limit(limit)
    )
    return [_row(row) for row in await conn.execute(query)]


# ---------------------------------------------------------------------------------------------
# The version every process must screen with, and its files

PART_BYTES = 8 * 1024 * 1024  # a stored file's parts: no row holds a whole large export


def _dialect(conn: AsyncConnection) -> Any:
    return postgresql if conn.dialect.name == "postgresql" else sqlite


async def lock_current(conn: AsyncConnection, code: str) -> dict[str, Any] | None:
    """The current version of ``code``, its row locked until the transaction ends (on SQLite
    the write transaction already excludes every other writer); None when none was recorded.
    Two updates of one list so decide one after the other whether the version changed."""
    placeholder = {
        "code": code,
        "version": "",
        "folder": "",
        "sha256": "",
        "manifest": "{}",
        "changed_at": utcnow(),
    }
    # A row to lock even for the first version (an empty sha256 never matches a file set).
    await conn.execute(
        _dialect(conn).insert(list_current).values(placeholder).on_conflict_do_nothing()
    )
    row = (
        await conn.execute(
            select(list_current).where(list_current.c.code == code).with_for_update()
        )
    ).one()
    return dict(row._mapping) if row.sha256 else None


async def set_current(
    conn: AsyncConnection, *, code: str, version: str, folder: str, sha256: str, manifest: str
) -> None:
    await conn.execute(
        update(list_current)
        .where(list_current.c.code == code)
        .values(
            version=version, folder=folder, sha256=sha256, manifest=manifest, changed_at=utcnow()
        )
    )


async def current_versions(conn: AsyncConnection) -> list[dict[str, Any]]:
    """Every list's current version (the list watch's query: one row per list)."""
    query = select(list_current).where(list_current.c.sha256 != "").order_by(list_current.c.code)
    return [dict(row._mapping) for row in await conn.execute(query)]


async def has_files(conn: AsyncConnection, sha256: str) -> bool:
    query = select(list_file_parts.c.part).where(list_file_parts.c.sha256 == sha256).limit(1)
    return (await conn.execute(query)).first() is not None


async def save_file(conn: AsyncConnection, sha256: str, role: str, data: bytes) -> None:
    """One gzipped file of the version ``sha256``, in parts of :data:`PART_BYTES`."""
    parts = range(0, max(len(data), 1), PART_BYTES)
    for number, start in enumerate(parts):
        await conn.execute(
            insert(list_file_parts).values(
                sha256=sha256, role=role, part=number, data=data[start : start + PART_BYTES]
            )
        )


async def file_roles(conn: AsyncConnection, sha256: str) -> list[str]:
    query = (
        select(list_file_parts.c.role)
        .where(list_file_parts.c.sha256 == sha256)
        .group_by(list_file_parts.c.role)
        .order_by(list_file_parts.c.role)
    )
    return [str(role) for role in (await conn.execute(query)).scalars()]


async def file_parts(conn: AsyncConnection, sha256: str, role: str) -> AsyncIterator[bytes]:
    """The parts of one stored file, in order, one row at a time."""
    numbers = (
        (
            await conn.execute(
                select(list_file_parts.c.part)
                .where(list_file_parts.c.sha256 == sha256, list_file_parts.c.role == role)
                .order_by(list_file_parts.c.part)
            )
        )
        .scalars()
        .all()
    )
    for number in numbers:
        data = (
            await conn.execute(
                select(list_file_parts.c.data).where(
                    list_file_parts.c.sha256 == sha256,
                    list_file_parts.c.role == role,
                    list_file_parts.c.part == number,
                )
            )
        ).scalar_one()
        yield bytes(data)


async def claim_update_slot(conn: AsyncConnection, slot: int, every_seconds: int) -> bool:
    """Whether this transaction is the one that claimed the scheduled update's period ``slot``."""
    result = await conn.execute(
        _dialect(conn)
        .insert(list_update_slots)
        .values(slot=slot, every_seconds=every_seconds, queued_at=utcnow())
        .on_conflict_do_nothing()
    )
    return result.rowcount == 1

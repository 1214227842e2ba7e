"""Every SQL query of the verification sessions."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.scoping import owned_by
from hakiki.verification.tables import verification_frames as frames
from hakiki.verification.tables import verification_sessions as sessions


def _one(result: Any) -> dict[str, Any] | None:
    row = result.first()
    return dict(row._mapping) if row else None


async def insert_session(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(sessions).values(**row))


async def get(conn: AsyncConnection, session_id: str) -> dict[str, Any] | None:
    return _one(await conn.execute(select(sessions).where(sessions.c.id == session_id)))


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, session_id: str
) -> dict[str, Any] | None:
    query = select(sessions).where(*owned_by(sessions, org_id, environment, {"id": session_id}))
    return _one(await conn.execute(query))


async def by_token(conn: AsyncConnection, token_hash: str) -> dict[str, Any] | None:
    return _one(await conn.execute(select(sessions).where(sessions.c.token_hash == token_hash)))


async def lock(conn: AsyncConnection, session_id: str) -> dict[str, Any] | None:
    """The session, locked until this transaction ends (a live session's wallet row first:
    the settlement's lock order, since a step's charge may follow)."""
    found = await get(conn, session_id)
    if found is None:
        return None
    if found["environment"] == "live":
        await billing.lock_wallet(conn, found["org_id"])
    query = select(sessions).where(sessions.c.id == session_id).with_for_update()
    return _one(await conn.execute(query))


async def move(conn: AsyncConnection, session_id: str, status: str, values: dict[str, Any]) -> bool:
    """A compare-and-set on the status: two writers never both move one session."""
    result = await conn.execute(
        update(sessions)
        .where(sessions.c.id == session_id, sessions.c.status == status)
        .values(**values)
    )
    return bool(result.rowcount)


async def update_session(conn: AsyncConnection, session_id: str, values: dict[str, Any]) -> None:
    await conn.execute(update(sessions).where(sessions.c.id == session_id).values(**values))


def _filtered(org_id: str, environment: str, filters: dict[str, Any]) -> list[Any]:
    return owned_by(sessions, org_id, environment, filters)


async def count(
    conn: AsyncConnection, org_id: str, environment: str, filters: dict[str, Any]
) -> int:
    query = select(func.count()).where(*_filtered(org_id, environment, filters))
    return int((await conn.execute(query)).scalar_one())


async def listing(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    filters: dict[str, Any],
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = (
        select(sessions)
        .where(*_filtered(org_id, environment, filters))
        .order_by(sessions.c.created_at.desc(), sessions.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def seen_frames(conn: AsyncConnection, digests: list[str]) -> set[str]:
    """Which of ``digests`` were submitted before (by any session)."""
    if not digests:
        return set()
    query = select(frames.c.digest).where(frames.c.digest.in_(sorted(set(digests))))
    return {str(d) for d in (await conn.execute(query)).scalars()}


async def remember_frames(
    conn: AsyncConnection, session_id: str, digests: list[str], at: Any
) -> None:
    if digests:
        await conn.execute(
            insert(frames),
            [
                {"digest": d, "session_id": session_id, "created_at": at}
                for d in sorted(set(digests))
            ],
        )

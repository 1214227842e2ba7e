"""Queries for console users and sessions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.console.tables import console_sessions, console_users
from hakiki.core.tables import organisations


async def insert_user(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(console_users).values(**values))


async def user_by_email_hash(conn: AsyncConnection, email_hash: str) -> dict[str, Any] | None:
    query = select(console_users).where(console_users.c.email_hash == email_hash)
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def users_of(conn: AsyncConnection, org_id: str) -> list[dict[str, Any]]:
    query = (
        select(console_users)
        .where(console_users.c.org_id == org_id)
        .order_by(console_users.c.created_at)
    )
    return [dict(r._mapping) for r in await conn.execute(query)]


async def insert_session(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(console_sessions).values(**values))


async def live_session(conn: AsyncConnection, token_hash: str) -> dict[str, Any] | None:
    """The session of ``token_hash`` with its user and organisation, unless ended or the user
    disabled (expiry is the caller's to judge)."""
    query = (
        select(
            console_sessions.c.id.label("session_id"),
            console_sessions.c.environment,
            console_sessions.c.created_at,
            console_sessions.c.last_seen_at,
            console_sessions.c.expires_at,
            console_users.c.id.label("user_id"),
            console_users.c.role,
            console_users.c.email_encrypted,
            organisations.c.id.label("org_id"),
            organisations.c.name.label("org_name"),
            organisations.c.approved,
            organisations.c.currency,
        )
        .join(console_users, console_users.c.id == console_sessions.c.user_id)
        .join(organisations, organisations.c.id == console_users.c.org_id)
        .where(
            console_sessions.c.token_hash == token_hash,
            console_sessions.c.ended_at.is_(None),
            console_users.c.disabled_at.is_(None),
        )
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def touch_session(conn: AsyncConnection, session_id: str, now: datetime) -> None:
    await conn.execute(
        update(console_sessions).where(console_sessions.c.id == session_id).values(last_seen_at=now)
    )


async def set_environment(conn: AsyncConnection, session_id: str, environment: str) -> None:
    await conn.execute(
        update(console_sessions)
        .where(console_sessions.c.id == session_id)
        .values(environment=environment)
    )


async def end_session(conn: AsyncConnection, session_id: str, now: datetime) -> None:
    await conn.execute(
        update(console_sessions)
        .where(console_sessions.c.id == session_id, console_sessions.c.ended_at.is_(None))
        .values(ended_at=now)
    )


async def user_of_org(conn: AsyncConnection, org_id: str, user_id: str) -> dict[str, Any] | None:
    query = select(console_users).where(
        console_users.c.id == user_id, console_users.c.org_id == org_id
    )
    row = (await conn.execute(query)).first()
    return dict(row._mapping) if row else None


async def update_user(conn: AsyncConnection, user_id: str, **values: Any) -> None:
    await conn.execute(update(console_users).where(console_users.c.id == user_id).values(**values))


async def end_sessions_of(conn: AsyncConnection, user_id: str, now: datetime) -> None:
    await conn.execute(
        update(console_sessions)
        .where(console_sessions.c.user_id == user_id, console_sessions.c.ended_at.is_(None))
        .values(ended_at=now)
    )

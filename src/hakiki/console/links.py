"""One-use links sent by e-mail: an invitation to choose a first password (72 hours) and a
password reset (1 hour). The token is 256 bits, stored as a keyed hash; using it sets the
password, spends the link and every other link of the user, and ends the user's sessions."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import insert, select, update

from hakiki.console import passwords
from hakiki.console.tables import console_links, console_sessions, console_users
from hakiki.core.clock import as_utc, utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id

LIFETIME = {"invite": timedelta(hours=72), "reset": timedelta(hours=1)}
TOKEN_LENGTH = 43


def _hash(vault: Vault, token: str) -> str:
    return vault.lookup_hash("console-link", token)


async def issue(db: Database, vault: Vault, user_id: str, purpose: str) -> str:
    token = secrets.token_urlsafe(32)
    now = utcnow()
    async with transaction(db) as conn:
        await conn.execute(
            insert(console_links).values(
                id=new_id("lnk"),
                token_hash=_hash(vault, token),
                user_id=user_id,
                purpose=purpose,
                created_at=now,
                expires_at=now + LIFETIME[purpose],
            )
        )
    return token


async def find(db: Database, vault: Vault, token: str) -> dict[str, Any] | None:
    """The unused, unexpired link of ``token`` with its user's e-mail, or None."""
    if len(token) != TOKEN_LENGTH:
        return None
    query = (
        select(console_links, console_users.c.email_encrypted)
        .join(console_users, console_users.c.id == console_links.c.user_id)
        .where(
            console_links.c.token_hash == _hash(vault, token),
            console_links.c.used_at.is_(None),
            console_users.c.disabled_at.is_(None),
        )
    )
    async with read(db) as conn:
        row = (await conn.execute(query)).first()
    if row is None or as_utc(row.expires_at) <= utcnow():
        return None
    return {**dict(row._mapping), "email": vault.decrypt(row.email_encrypted)}


async def use(db: Database, vault: Vault, token: str, password: str) -> bool:
    """Set the password of ``token``'s user; False if the link was spent meanwhile."""
    link = await find(db, vault, token)
    if link is None:
        return False
    hashed = await passwords.hash_password(password)  # before the transaction: not under lock
    now = utcnow()
    async with transaction(db) as conn:
        spent = await conn.execute(
            update(console_links)
            .where(console_links.c.id == link["id"], console_links.c.used_at.is_(None))
            .values(used_at=now)
        )
        if spent.rowcount != 1:
            return False
        await conn.execute(
            update(console_links)
            .where(console_links.c.user_id == link["user_id"], console_links.c.used_at.is_(None))
            .values(used_at=now)
        )
        await conn.execute(
            update(console_users)
            .where(console_users.c.id == link["user_id"])
            .values(password_hash=hashed)
        )
        await conn.execute(
            update(console_sessions)
            .where(
                console_sessions.c.user_id == link["user_id"],
                console_sessions.c.ended_at.is_(None),
            )
            .values(ended_at=now)
        )
    return True

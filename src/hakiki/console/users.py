"""Console users: created by the operator (`hakiki users create`) or by an owner or admin in
the console; they sign in with their e-mail address and password."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from hakiki.console import passwords, repository
from hakiki.console.roles import ROLES
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.tables import organisations

EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]{1,190}\.[A-Za-z]{2,24}")


@dataclass(frozen=True)
class NewUser:
    id: str
    org_id: str
    email: str
    role: str
    password: str | None  # the generated one, shown once; None when the caller chose it


def email_hash(vault: Vault, email: str) -> str:
    return vault.lookup_hash("console-email", email.strip().lower())


def check_email(email: str) -> str:
    email = email.strip()
    if not EMAIL.fullmatch(email):
        raise invalid_request("email is not an e-mail address.", field="email")
    return email


def check_role(role: str) -> str:
    if role not in ROLES:
        raise invalid_request(f"role must be one of {', '.join(ROLES)}.", field="role")
    return role


async def create_user(
    db: Database,
    vault: Vault,
    *,
    org_id: str,
    email: str,
    role: str,
    password: str | None = None,
    invited: bool = False,
) -> NewUser:
    """A new user with ``password``, or a generated one (returned once), or, ``invited``,
    none yet: they choose it through the link e-mailed to them."""
    email = check_email(email)
    check_role(role)
    generated = passwords.generate() if password is None and not invited else None
    chosen = password if password is not None else generated
    if chosen is not None and (why := passwords.problem(chosen)) is not None:
        raise invalid_request(f"password {why}.", field="password")
    user_id = new_id("usr")
    hashed = await passwords.hash_password(chosen) if chosen is not None else None
    values: dict[str, Any] = {
        "id": user_id,
        "org_id": org_id,
        "email_hash": email_hash(vault, email),
        "email_encrypted": vault.encrypt(email),
        "role": role,
        "password_hash": hashed,
        "created_at": utcnow(),
    }
    try:
        async with transaction(db) as conn:
            await repository.insert_user(conn, values)
    except IntegrityError as exc:
        raise ApiError(409, "conflict", "A console user with this e-mail exists.") from exc
    return NewUser(user_id, org_id, email, role, generated)


async def org_id_named(db: Database, name: str) -> str:
    async with read(db) as conn:
        query = select(organisations.c.id).where(organisations.c.name == name)
        found = (await conn.execute(query)).scalar()
    if found is None:
        raise ApiError(404, "not_found", f"No organisation named {name!r}.")
    return str(found)


async def check_password(
    db: Database, vault: Vault, email: str, password: str
) -> dict[str, Any] | None:
    """The user whose e-mail and password these are, or None (the same work either way)."""
    user = await find_by_email(db, vault, email)
    stored = user["password_hash"] if user and user["disabled_at"] is None else None
    return user if await passwords.verify(stored, password) else None


async def find_by_email(db: Database, vault: Vault, email: str) -> dict[str, Any] | None:
    async with read(db) as conn:
        return await repository.user_by_email_hash(conn, email_hash(vault, email))


async def list_users(db: Database, vault: Vault, org_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await repository.users_of(conn, org_id)
    return [
        {
            "id": r["id"],
            "email": vault.decrypt(r["email_encrypted"]),
            "role": r["role"],
            "created_at": r["created_at"],
            "disabled": r["disabled_at"] is not None,
        }
        for r in rows
    ]


async def change_role(
    db: Database, org_id: str, user_id: str, role: str, *, by_role: str
) -> dict[str, Any]:
    """Give the organisation's user ``user_id`` another role: an admin can neither make an
    owner nor change an owner (an owner can); their keys follow the new role (core.auth)."""
    check_role(role)
    async with transaction(db) as conn:
        user = await repository.user_of_org(conn, org_id, user_id)
        if user is None or user["disabled_at"] is not None:
            raise ApiError(404, "not_found", "Your organisation has no such user.")
        if by_role != "owner" and "owner" in (role, user["role"]):
            raise ApiError(403, "insufficient_scope", "Only an owner can make or change owners.")
        await repository.update_user(conn, user_id, role=role)
    return user


async def remove_user(db: Database, org_id: str, user_id: str, *, by_role: str) -> None:
    """Remove the user: they cannot sign in, their sessions end and their keys stop working
    (core.auth). The row stays (disabled) so audit trails still name them."""
    now = utcnow()
    async with transaction(db) as conn:
        user = await repository.user_of_org(conn, org_id, user_id)
        if user is None or user["disabled_at"] is not None:
            raise ApiError(404, "not_found", "Your organisation has no such user.")
        if by_role != "owner" and user["role"] == "owner":
            raise ApiError(403, "insufficient_scope", "Only an owner can remove an owner.")
        await repository.update_user(conn, user_id, disabled_at=now)
        await repository.end_sessions_of(conn, user_id, now)


async def emails_by_id(db: Database, vault: Vault, org_id: str) -> dict[str, str]:
    """Every user of the organisation's e-mail address, by user id (audit trails name people)."""
    return {u["id"]: u["email"] for u in await list_users(db, vault, org_id)}

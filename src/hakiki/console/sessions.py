"""Server-side console sessions. The cookie holds a random token; the database only its keyed
hash. A session ends on sign-out, after ``console_idle_minutes`` unused, and
``console_session_hours`` after sign-in, whichever comes first. Its CSRF token is derived from
the session token (a keyed hash), so nothing more is stored and it dies with the session.

:func:`api_principal` is the check the composition root registers with core's authentication:
with it, the session cookie authenticates /v3 and /api/v1 calls with the role's scopes, in the
environment chosen in the console; an unsafe method must carry ``X-CSRF-Token``."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from fastapi import Request
from sqlalchemy import delete, or_

from hakiki.console import repository
from hakiki.console.roles import RUN_CALLS, SCOPES, may
from hakiki.console.tables import console_links, console_sessions
from hakiki.core.auth import SESSION_COOKIE, Principal
from hakiki.core.calls import runtime_of
from hakiki.core.clock import as_utc, utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError, unauthorized
from hakiki.core.ids import new_id
from hakiki.core.runtime import Runtime

CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_LENGTH = 43  # secrets.token_urlsafe(32)
TOUCH_EVERY = timedelta(seconds=30)  # last_seen_at is written at most this often


@dataclass(frozen=True)
class Session:
    id: str
    token: str
    user_id: str
    email: str
    role: str
    environment: str
    org_id: str
    org_name: str
    approved: bool
    currency: str

    def csrf(self, vault: Vault) -> str:
        return csrf_token(vault, self.token)

    def may(self, action: str) -> bool:
        return may(self.role, action)


def token_hash(vault: Vault, token: str) -> str:
    return vault.lookup_hash("console-session", token)


def csrf_token(vault: Vault, token: str) -> str:
    return vault.lookup_hash("console-csrf", token)


async def start(runtime: Runtime, user: dict[str, Any]) -> str:
    """A new session for ``user``, in the sandbox; its token (for the cookie)."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    async with transaction(runtime.db) as conn:
        await repository.insert_session(
            conn,
            {
                "id": new_id("ses"),
                "token_hash": token_hash(runtime.vault, token),
                "user_id": user["id"],
                "environment": "sandbox",
                "created_at": now,
                "last_seen_at": now,
                "expires_at": now + timedelta(hours=runtime.settings.console_session_hours),
            },
        )
    return token


async def current(runtime: Runtime, token: str | None) -> Session | None:
    """The live session of ``token``, its last use recorded; None if there is none (unknown,
    ended, idle too long or past its absolute expiry)."""
    if not token or len(token) != TOKEN_LENGTH:
        return None
    async with read(runtime.db) as conn:
        row = await repository.live_session(conn, token_hash(runtime.vault, token))
    if row is None:
        return None
    now = utcnow()
    idle = timedelta(minutes=runtime.settings.console_idle_minutes)
    last_seen = as_utc(row["last_seen_at"])
    if now >= as_utc(row["expires_at"]) or now - last_seen >= idle:
        await end(runtime, row["session_id"])
        return None
    if now - last_seen >= TOUCH_EVERY:
        async with transaction(runtime.db) as conn:
            await repository.touch_session(conn, row["session_id"], now)
    return Session(
        id=row["session_id"],
        token=token,
        user_id=row["user_id"],
        email=runtime.vault.decrypt(row["email_encrypted"]),
        role=row["role"],
        environment=row["environment"],
        org_id=row["org_id"],
        org_name=row["org_name"],
        approved=bool(row["approved"]),
        currency=row["currency"],
    )


async def end(runtime: Runtime, session_id: str) -> None:
    async with transaction(runtime.db) as conn:
        await repository.end_session(conn, session_id, utcnow())


async def choose_environment(runtime: Runtime, session: Session, environment: str) -> None:
    async with transaction(runtime.db) as conn:
        await repository.set_environment(conn, session.id, environment)


def csrf_matches(runtime: Runtime, session: Session, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(session.csrf(runtime.vault), sent or "")


async def api_principal(request: Request, token: str) -> Principal:
    """The caller a session cookie stands for (core.auth calls it when no Authorization header
    was sent): 401 without a live session, 403 for an unsafe method without the CSRF token or
    from a role that runs no calls."""
    runtime = runtime_of(request)
    session = await current(runtime, token)
    if session is None:
        raise unauthorized(
            f"The {SESSION_COOKIE} cookie is not a live console session; sign in again."
        )
    if request.method not in SAFE_METHODS:
        if not csrf_matches(runtime, session, request.headers.get(CSRF_HEADER)):
            raise ApiError(
                403,
                "csrf_failed",
                "A call authenticated by the console session must carry its X-CSRF-Token.",
            )
        if not session.may(RUN_CALLS):
            raise ApiError(
                403, "insufficient_scope", f"The {session.role} role cannot make this call."
            )
    return principal_of(session)


def principal_of(session: Session) -> Principal:
    """The caller a session stands for: the user, with the role's scopes, in the environment
    chosen in the console (also what the console's own pages act as when they call a
    domain's service)."""
    return Principal(
        key_id=session.user_id,
        client_id=f"console:{session.user_id}",
        environment=session.environment,
        scopes=SCOPES[session.role],
        org_id=session.org_id,
        org_name=session.org_name,
        approved=session.approved,
        currency=session.currency,
        user_email=session.email,
    )


async def purge_expired(db: Database) -> int:
    """Delete sessions that ended or passed their absolute expiry, and links that expired: a
    dead session's row has nothing left to check (housekeeping calls it)."""
    now = utcnow()
    async with transaction(db) as conn:
        sessions_gone = await conn.execute(
            delete(console_sessions).where(
                or_(console_sessions.c.expires_at < now, console_sessions.c.ended_at.is_not(None))
            )
        )
        await conn.execute(delete(console_links).where(console_links.c.expires_at < now))
    return int(sessions_gone.rowcount or 0)

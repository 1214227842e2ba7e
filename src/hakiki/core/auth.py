"""Bearer keypair authentication and scope checks (DESIGN §4).

Key look-ups are cached for ``HAKIKI_KEY_CACHE_SECONDS`` (5 s by default): the hot path then
costs one SHA-256 and a dict read. A revoked key therefore stops working within that time on
every process.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from hakiki.account.repository import find_key_with_org
from hakiki.core.crypto import secret_matches
from hakiki.core.database import Database, read
from hakiki.core.errors import ApiError, unauthorized


@dataclass(frozen=True)
class Principal:
    """Who is calling: the key, its environment and scopes, and its organisation."""

    key_id: str
    client_id: str
    environment: str  # sandbox | live
    scopes: frozenset[str]
    org_id: str
    org_name: str
    approved: bool
    currency: str

    @property
    def live(self) -> bool:
        return self.environment == "live"


class KeyCache:
    def __init__(self, db: Database, ttl_seconds: float) -> None:
        self._db = db
        self._ttl = ttl_seconds
        self._entries: dict[str, tuple[float, dict[str, Any] | None]] = {}
        self._loading: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    async def get(self, client_id: str) -> dict[str, Any] | None:
        entry = self._entries.get(client_id)
        if entry and entry[0] > time.monotonic():
            return entry[1]
        # One look-up per key at a time: when an entry expires under load, the concurrent
        # requests for that key wait for the same query instead of each running their own.
        loading = self._loading.get(client_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._loading[client_id] = future
        try:
            async with read(self._db) as conn:
                row = await find_key_with_org(conn, client_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters, if any, get it re-raised
            raise
        finally:
            self._loading.pop(client_id, None)
        if len(self._entries) > 10_000:
            self._entries.clear()
        self._entries[client_id] = (time.monotonic() + self._ttl, row)
        future.set_result(row)
        return row

    def forget(self, client_id: str) -> None:
        self._entries.pop(client_id, None)


def parse_bearer(header: str | None) -> tuple[str, str]:
    if not header:
        raise unauthorized("No Authorization header was sent.")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise unauthorized("The Authorization header is not a Bearer credential.")
    client_id, sep, secret = credentials.strip().partition(":")
    if not sep or not client_id or not secret:
        raise unauthorized("The credential must be client_id and secret joined by a colon.")
    return client_id, secret


async def authenticate(cache: KeyCache, header: str | None) -> Principal:
    client_id, secret = parse_bearer(header)
    row = await cache.get(client_id)
    # Compare even for an unknown id so timing does not reveal which client ids exist.
    stored = row["secret_hash"] if row else "0" * 64
    if not secret_matches(secret, stored) or row is None:
        raise unauthorized("The client_id or secret is not valid.")
    if row["revoked_at"] is not None:
        raise unauthorized("This key has been revoked.")
    return Principal(
        key_id=row["key_id"],
        client_id=row["client_id"],
        environment=row["environment"],
        scopes=frozenset(row["scopes"]),
        org_id=row["org_id"],
        org_name=row["org_name"],
        approved=bool(row["approved"]),
        currency=row["currency"],
    )


def require_scope(scope: str) -> Callable[[Request], Awaitable[Principal]]:
    """A FastAPI dependency: the caller, who must hold ``scope``."""

    async def dependency(request: Request) -> Principal:
        runtime = request.app.state.runtime
        principal = await authenticate(runtime.key_cache, request.headers.get("authorization"))
        request.state.principal = principal
        if scope not in principal.scopes:
            raise ApiError(
                403, "insufficient_scope", f"This key lacks the scope {scope!r} this call needs."
            )
        if principal.live and not principal.approved:
            raise ApiError(
                403,
                "account_not_approved",
                "Live keys work once an operator has approved the organisation; "
                "use a sandbox key until then.",
            )
        return principal

    return dependency

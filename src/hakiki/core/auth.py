"""Bearer keypair authentication, the key's rate limit, and scope checks
([docs/api.md](../../../docs/api.md#authentication)).

Key look-ups are cached for ``HAKIKI_KEY_CACHE_SECONDS`` (5 s by default): the hot path then
costs one SHA-256 and a dict read. A revoked key therefore stops working within that time on
every process.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from hakiki.core.auth_repository import find_key_with_org
from hakiki.core.cache import RefreshingCache
from hakiki.core.crypto import secret_matches
from hakiki.core.database import Database, read
from hakiki.core.errors import ApiError, rate_limited, unauthorized


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

    @property
    def owner(self) -> tuple[str, str]:
        """(environment, organisation): what the caller's records belong to."""
        return self.environment, self.org_id


class KeyCache:
    """Key look-ups, cached for ``ttl_seconds``: a revocation or approval reaches every
    process within about that time."""

    def __init__(self, db: Database, ttl_seconds: float) -> None:
        self._db = db
        self._cache: RefreshingCache[str, dict[str, Any] | None] = RefreshingCache(
            self._load, ttl_seconds
        )

    async def _load(self, client_id: str) -> dict[str, Any] | None:
        async with read(self._db) as conn:
            return await find_key_with_org(conn, client_id)

    async def get(self, client_id: str) -> dict[str, Any] | None:
        return await self._cache.get(client_id)


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


async def authenticate_request(request: Request) -> Principal:
    """The caller, counted against its key's rate limit: 429 over it, before any work.

    The quota goes on the request state, where the middleware turns it into RateLimit headers
    on whatever response the call ends with."""
    runtime = request.app.state.runtime
    principal = await authenticate(runtime.key_cache, request.headers.get("authorization"))
    request.state.principal = principal
    quota = await runtime.rate_limiter.hit(principal.key_id, principal.org_id)
    if quota is not None:
        request.state.rate_limit = quota
        if not quota.allowed:
            raise rate_limited(quota.window, quota.reset)
    return principal


def require_scope(scope: str) -> Callable[[Request], Awaitable[Principal]]:
    """A FastAPI dependency: the caller, who must hold ``scope``."""

    async def dependency(request: Request) -> Principal:
        principal = await authenticate_request(request)
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


async def any_key(request: Request) -> Principal:
    """Account reads need a valid key of the organisation, of either environment."""
    return await authenticate_request(request)

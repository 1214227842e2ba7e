"""Bearer keypair authentication, the key's rate limit, and scope checks
([docs/api.md](../../../docs/api.md#authentication)).

Key look-ups are cached for ``HAKIKI_KEY_CACHE_SECONDS`` (5 s by default): the hot path then
costs one SHA-256 and a dict read. A revoked key therefore stops working within that time on
every process.

Credentials have one format (:func:`new_credentials` issues them): a header that cannot be one
is refused before any look-up, so an unauthenticated caller never makes the server query or
remember what it sent; client ids that were looked up and not found are remembered in a
:class:`~hakiki.core.cache.MissCache` of at most ``MISS_CACHE_BYTES``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import request_body
from hakiki.core.auth_repository import find_key_with_org
from hakiki.core.cache import MissCache, RefreshingCache
from hakiki.core.crypto import secret_matches
from hakiki.core.database import Database, read
from hakiki.core.errors import ApiError, rate_limited, unauthorized
from hakiki.core.scopes import ACCOUNT_SCOPES


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
    user_email: str | None = None  # a console session's signed-in user

    @property
    def actor(self) -> str:
        """Who acts, for audit trails: the signed-in user's e-mail address (personal data:
        store it encrypted), else the key's client id. Never what a request body says."""
        return self.user_email or self.client_id

    @property
    def live(self) -> bool:
        return self.environment == "live"

    @property
    def owner(self) -> tuple[str, str]:
        """(environment, organisation): what the caller's records belong to."""
        return self.environment, self.org_id


# hk_test_ (sandbox) or hk_live_ (live), then 24 hex digits; the secret hks_ and 43 URL-safe
# base64 characters (256 bits).
CLIENT_ID_FORMAT = re.compile(r"hk_(?:test|live)_[0-9a-f]{24}")
SECRET_FORMAT = re.compile(r"hks_[A-Za-z0-9_-]{43}")
# "Bearer " + client id + ":" + secret is 87 characters; anything much longer is not a key.
MAX_AUTHORIZATION_LENGTH = 200
MISS_CACHE_BYTES = 1 << 20  # unknown client ids remembered: about 5,000 ids in 1 MiB
# A signed-in console user's cookie (the spec's interactive use). Core only knows its name:
# the composition root registers the check (Runtime.session_check) that turns it into a caller.
SESSION_COOKIE = "hakiki_session"
SessionCheck = Callable[[Request, str], Awaitable["Principal"]]
# The scopes a key's creator (a console user id) holds now; None when the user is gone or
# disabled. Registered by the composition root, like the session check: core knows no users.
CreatorScopes = Callable[[AsyncConnection, str], Awaitable[frozenset[str] | None]]


def new_credentials(environment: str) -> tuple[str, str]:
    """A new key's client id and secret, in the format :func:`parse_bearer` accepts."""
    marker = "test" if environment == "sandbox" else "live"
    return f"hk_{marker}_{secrets.token_hex(12)}", f"hks_{secrets.token_urlsafe(32)}"


@dataclass(frozen=True)
class StoredKey:
    """A key as its row has it: the secret's hash, whether it was revoked or its creator
    removed, and who it is. ``cap`` (its creator's role's scopes now; None: no creator) bounds
    the key's own scopes."""

    secret_hash: str
    revoked: bool
    principal: Principal
    creator_gone: bool = False

    @classmethod
    def of(
        cls, row: dict[str, Any], cap: frozenset[str] | None = None, *, creator_gone: bool = False
    ) -> StoredKey:
        scopes = frozenset(row["scopes"])
        if cap is not None:
            scopes &= cap
        return cls(
            secret_hash=row["secret_hash"],
            revoked=row["revoked_at"] is not None,
            creator_gone=creator_gone,
            principal=Principal(
                key_id=row["key_id"],
                client_id=row["client_id"],
                environment=row["environment"],
                scopes=scopes,
                org_id=row["org_id"],
                org_name=row["org_name"],
                approved=bool(row["approved"]),
                currency=row["currency"],
            ),
        )


class KeyCache:
    """Key look-ups, cached for ``ttl_seconds``: a revocation or approval reaches every
    process within about that time. Keys found are cached (there are as many as the database
    holds); ids not found go in a miss cache bounded in bytes."""

    def __init__(
        self,
        db: Database,
        ttl_seconds: float,
        *,
        miss_cache_bytes: int = MISS_CACHE_BYTES,
        creator_scopes: CreatorScopes | None = None,
    ) -> None:
        self._db = db
        self._creator_scopes = creator_scopes
        self._found: RefreshingCache[str, StoredKey | None] = RefreshingCache(
            self._load, ttl_seconds, keep=lambda key: key is not None
        )
        self.misses = MissCache(ttl_seconds, miss_cache_bytes)

    async def _load(self, client_id: str) -> StoredKey | None:
        async with read(self._db) as conn:
            row = await find_key_with_org(conn, client_id)
            if row is None:
                return None
            creator = row.get("created_by")
            if creator is None or self._creator_scopes is None:
                return StoredKey.of(row)
            cap = await self._creator_scopes(conn, creator)
            return StoredKey.of(row, cap, creator_gone=cap is None)

    async def get(self, client_id: str) -> StoredKey | None:
        if client_id in self.misses:
            return None
        key = await self._found.get(client_id)
        if key is None:
            self.misses.add(client_id)
        return key


def parse_bearer(header: str | None) -> tuple[str, str]:
    """The client id and secret of an ``Authorization`` header, refused (401) unless both have
    the format keys are issued in: nothing malformed reaches the key look-up."""
    if not header:
        raise unauthorized("No Authorization header was sent.")
    if len(header) > MAX_AUTHORIZATION_LENGTH:
        raise unauthorized(
            f"The Authorization header is {len(header):,} characters long; a Hakiki credential "
            f"is under {MAX_AUTHORIZATION_LENGTH}."
        )
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise unauthorized("The Authorization header is not a Bearer credential.")
    client_id, sep, secret = credentials.strip().partition(":")
    if not sep or not client_id or not secret:
        raise unauthorized("The credential must be client_id and secret joined by a colon.")
    if not CLIENT_ID_FORMAT.fullmatch(client_id):
        raise unauthorized(
            "The client_id is malformed: it is hk_test_ (sandbox) or hk_live_ (live) followed "
            "by 24 hexadecimal characters."
        )
    if not SECRET_FORMAT.fullmatch(secret):
        raise unauthorized(
            "The secret is malformed: it is hks_ followed by 43 URL-safe base64 characters."
        )
    return client_id, secret


async def authenticate(cache: KeyCache, header: str | None) -> Principal:
    client_id, secret = parse_bearer(header)
    key = await cache.get(client_id)
    # Compare even for an unknown id so timing does not reveal which client ids exist.
    stored = key.secret_hash if key else "0" * 64
    if not secret_matches(secret, stored) or key is None:
        raise unauthorized("The client_id or secret is not valid.")
    if key.revoked:
        raise unauthorized("This key has been revoked.")
    if key.creator_gone:
        raise unauthorized(
            "This key's creator no longer belongs to the organisation, so the key stopped "
            "working; an owner or admin can create a new one."
        )
    return key.principal


async def authenticate_request(request: Request) -> Principal:
    """The caller, counted against its key's rate limit: 429 over it, before any work. With no
    Authorization header, a console session cookie is the credential (when a check is
    registered); the key's rate limit is then the user's.

    The quota goes on the request state, where the middleware turns it into RateLimit headers
    on whatever response the call ends with."""
    runtime = request.app.state.runtime
    header = request_body.header(request.scope, b"authorization")
    session = request.cookies.get(SESSION_COOKIE) if header is None else None
    if session and runtime.session_check is not None:
        principal = await runtime.session_check(request, session)
    else:
        principal = await authenticate(runtime.key_cache, header)
    request.state.principal = principal
    quota = await runtime.rate_limiter.hit(principal.key_id, principal.org_id)
    if quota is not None:
        request.state.rate_limit = quota
        if not quota.allowed:
            raise rate_limited(quota.window, quota.reset)
    return principal


def authorise(principal: Principal, scope: str | None) -> None:
    """403 unless the caller may call an endpoint of ``scope``: it must hold the scope, and a
    live key's organisation must be approved. ``None`` (the account surface): any key of the
    organisation, approved or not; so do the account surface's own scopes (ACCOUNT_SCOPES)."""
    if scope is None:
        return
    if scope not in principal.scopes:
        raise ApiError(
            403, "insufficient_scope", f"This key lacks the scope {scope!r} this call needs."
        )
    if principal.live and not principal.approved and scope not in ACCOUNT_SCOPES:
        raise ApiError(
            403,
            "account_not_approved",
            "Live keys work once an operator has approved the organisation; "
            "use a sandbox key until then.",
        )


async def admit(request: Request, scope: str | None) -> Principal:
    """The caller of an endpoint of ``scope``: 401, then 429, then 403, all before the body is
    read (the route mechanism calls it first)."""
    principal = await authenticate_request(request)
    authorise(principal, scope)
    return principal

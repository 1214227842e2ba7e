"""``Idempotency-Key`` on every POST (docs/decisions.md#idempotency).

The first request with a key claims it; its 200 response is stored, encrypted (it can hold a
verified identity or a webhook secret), in the same transaction as its request record and wallet
debit, and replayed for 24 hours. A different body under the same key,
or a retry while the first is still running, answers 409 ``idempotency_conflict``. A request that
ends in an error releases its claim, so the client can retry it with the same key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, transaction
from hakiki.core.errors import ApiError
from hakiki.core.idempotency import repository

MAX_KEY_LENGTH = 255


@dataclass(frozen=True)
class Claim:
    org_id: str
    environment: str
    key: str


@dataclass(frozen=True)
class Replay:
    status_code: int
    body: bytes


def request_fingerprint(method: str, path: str, payload: Any) -> str:
    canonical = orjson.dumps([method, path, payload], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(canonical).hexdigest()


def _conflict(message: str) -> ApiError:
    return ApiError(409, "idempotency_conflict", message)


async def claim(
    db: Database,
    vault: Vault,
    org_id: str,
    environment: str,
    key: str,
    fingerprint: str,
    ttl_hours: int,
) -> Claim | Replay:
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ApiError(
            400,
            "invalid_request",
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters.",
            details=[{"field": "Idempotency-Key", "problem": "bad length"}],
        )
    now = utcnow()
    for _attempt in range(2):
        try:
            async with transaction(db) as conn:
                row = await repository.find(conn, org_id, environment, key)
                if row and as_utc(row["expires_at"]) <= now:
                    await repository.remove(conn, org_id, environment, key)
                    row = None
                if row is None:
                    await repository.insert_claim(
                        conn,
                        org_id,
                        environment,
                        key,
                        fingerprint,
                        now,
                        now + timedelta(hours=ttl_hours),
                    )
                    return Claim(org_id, environment, key)
        except IntegrityError:
            continue  # another request claimed the key between our read and insert
        if row["request_hash"] != fingerprint:
            raise _conflict(
                "This Idempotency-Key was used with a different request; use a new key."
            )
        if row["state"] != "complete":
            raise _conflict("A request with this Idempotency-Key is still being processed.")
        return Replay(int(row["status_code"]), _opened(vault, str(row["response_body"])))
    raise _conflict("A request with this Idempotency-Key is still being processed.")


def _opened(vault: Vault, stored: str) -> bytes:
    if stored.startswith("{"):  # stored in clear by a release before 2026-11-24
        return stored.encode()
    return vault.decrypt(stored).encode()


async def complete_many(
    conn: AsyncConnection, vault: Vault, completions: list[tuple[Claim, int, bytes]]
) -> None:
    """Store the responses of claimed keys, encrypted, inside the transaction that charged
    their calls."""
    await repository.complete_many(
        conn,
        [
            {
                "org": claim.org_id,
                "environment": claim.environment,
                "key": claim.key,
                "status": status_code,
                "body": vault.encrypt(body.decode()),
            }
            for claim, status_code, body in completions
        ],
    )


async def abandon(db: Database, claim: Claim) -> None:
    async with transaction(db) as conn:
        await repository.remove(conn, claim.org_id, claim.environment, claim.key)


async def purge_expired(db: Database) -> int:
    async with transaction(db) as conn:
        return await repository.purge_expired(conn, utcnow())

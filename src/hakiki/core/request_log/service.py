"""The request log: one row per API call, with the body reduced to its endpoint's allow-list
(every other value masked) and the subject's identity number encrypted beside a keyed hash for
look-ups (docs/decisions.md#request-log-and-personal-data).

Billed calls write their row inside the transaction that debits the wallet. Other calls are
buffered and written in batches (every 200 ms or 500 rows), which keeps sandbox traffic off the
database's single writer; a hard crash can lose the last fraction of a second of those rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.request_log import repository

if TYPE_CHECKING:
    from hakiki.core.auth import Principal

logger = logging.getLogger("hakiki.request_log")


def redact(payload: Mapping[str, Any], logged_fields: Collection[str] = ()) -> dict[str, Any]:
    """The request body as the log keeps it: the values at the paths of ``logged_fields`` (the
    endpoint's allow-list, ``Endpoint.logged_fields``) as sent, every other value masked to its
    type and size, at any depth. A path names a leaf with dots (``subject.country``); a list's
    items share their list's path (``subject.identifiers.type``). Nothing else is kept: a field
    an endpoint did not list, or one added later, is masked."""
    allowed = frozenset(logged_fields)
    return {field: _redact(value, field, allowed) for field, value in payload.items()}


def _redact(value: Any, path: str, allowed: frozenset[str]) -> Any:
    if isinstance(value, Mapping):
        return {key: _redact(item, f"{path}.{key}", allowed) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(item, path, allowed) for item in value]
    if path in allowed:
        return value
    return masked(value)


def masked(value: Any) -> Any:
    """What the log keeps of a value it may not show: its type, and a string's length
    (``"<str:11>"``); null stays null. No characters of it, and no hash that a guess could be
    tested against."""
    if value is None:
        return None
    if isinstance(value, str):
        return f"<str:{len(value)}>"
    return f"<{type(value).__name__}>"


def log_row(
    request_id: str,
    principal: Principal,
    method: str,
    path: str,
    status_code: int,
    started: float,
    **fields: Any,
) -> dict[str, Any]:
    """One request-log row; ``fields`` fills the optional columns."""
    return {
        "id": request_id,
        "org_id": principal.org_id,
        "api_key_id": principal.key_id,
        "environment": principal.environment,
        "method": method,
        "path": path,
        "status_code": status_code,
        "response_code": None,
        "channel": None,
        "subject_hash": None,
        "subject_encrypted": None,
        "request_body": None,
        "transaction_id": None,
        "error_message": None,
        "duration_ms": int((time.perf_counter() - started) * 1000),
        "created_at": utcnow(),
        **fields,
    }


class RequestLogWriter:
    def __init__(self, db: Database, *, interval: float = 0.2, batch: int = 500) -> None:
        self._db = db
        self._interval = interval
        self._batch = batch
        self._pending: list[dict[str, Any]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def add(self, entry: dict[str, Any]) -> None:
        self._pending.append(entry)
        if len(self._pending) >= self._batch:
            self._wake.set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="request-log-writer")

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._interval)
            self._wake.clear()
            await self.flush()

    async def flush(self) -> None:
        while self._pending:
            entries, self._pending = self._pending[: self._batch], self._pending[self._batch :]
            try:
                async with transaction(self._db) as conn:
                    await repository.insert_many(conn, entries, alone=True)
            except Exception:
                logger.exception("could not write %d request-log rows", len(entries))
                return

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.flush()


async def purge_expired(db: Database, retention_days: int) -> int:
    async with transaction(db) as conn:
        return await repository.purge_older_than(conn, utcnow() - timedelta(days=retention_days))

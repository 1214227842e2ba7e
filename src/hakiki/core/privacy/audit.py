"""The audit log's writer (docs/privacy.md#audit-log): one row for each successful call of an
audited endpoint (``Endpoint.audited``), by the route mechanism, and for what hosted pages
record. Rows hold who, what, when and the request id: never a value of the subject's data.

Rows are written in batches, like the request log (a read must not wait on a write
transaction); ``flush`` writes what is pending (tests, shutdown)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from hakiki.core.auth import Principal
from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.endpoints import Endpoint
from hakiki.core.ids import new_id
from hakiki.core.privacy import repository

logger = logging.getLogger("hakiki.audit")

ACTIONS = {"GET": "read", "POST": "create", "PUT": "update", "PATCH": "update", "DELETE": "delete"}


def resource_type(endpoint_key: str) -> str:
    """What an endpoint reads or changes, from its key: ``verification.sessions.read`` ->
    ``verification.sessions``, ``kyc.verify`` -> ``kyc``."""
    parts = endpoint_key.split(".")
    return ".".join(parts[:-1]) if len(parts) > 2 else parts[0]


def actor_of(principal: Principal) -> tuple[str, str]:
    """(actor_type, actor_id): a console user by their user id, else the API key's id."""
    return ("user" if principal.user_email else "api_key"), principal.key_id


def row(
    *,
    org_id: str,
    environment: str,
    actor: tuple[str, str],
    action: str,
    resource: str,
    resource_id: str | None,
    endpoint: str,
    request_id: str,
) -> dict[str, Any]:
    return {
        "id": new_id("aud"),
        "org_id": org_id,
        "environment": environment,
        "actor_type": actor[0],
        "actor_id": actor[1][:60],
        "action": action,
        "resource_type": resource[:40],
        "resource_id": resource_id[:80] if resource_id else None,
        "endpoint": endpoint[:80],
        "request_id": request_id,
        "created_at": utcnow(),
    }


def call_row(
    principal: Principal,
    spec: Endpoint,
    request_id: str,
    resource_id: str | None,
    *,
    exported: bool = False,
) -> dict[str, Any]:
    """The row of one successful call of ``spec`` (``exported``: a read answered as a file)."""
    return row(
        org_id=principal.org_id,
        environment=principal.environment,
        actor=actor_of(principal),
        action="export" if exported else ACTIONS.get(spec.method, "read"),
        resource=resource_type(spec.key),
        resource_id=resource_id,
        endpoint=spec.key,
        request_id=request_id,
    )


class AuditWriter:
    """Batches audit rows and inserts them every ``interval`` seconds (a runtime part)."""

    def __init__(self, db: Database, *, interval: float = 0.2, batch: int = 500) -> None:
        self._db = db
        self._interval = interval
        self._batch = batch
        self._pending: list[dict[str, Any]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()  # a flush returns once what was pending is written

    def add(self, entry: dict[str, Any]) -> None:
        self._pending.append(entry)
        if len(self._pending) >= self._batch:
            self._wake.set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="audit-log-writer")

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._interval)
            self._wake.clear()
            await self.flush()

    async def flush(self) -> None:
        async with self._writing:
            await self._flush()

    async def _flush(self) -> None:
        while self._pending:
            entries, self._pending = self._pending[: self._batch], self._pending[self._batch :]
            try:
                async with transaction(self._db) as conn:
                    await repository.insert_audit(conn, entries)
            except Exception:
                logger.exception("could not write %d audit-log rows", len(entries))
                self._pending = entries + self._pending  # kept for the next try
                return

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.flush()

"""Group commit for finished calls: many calls' charges, request records and stored idempotent
responses in one database transaction.

Every live call ends with writes that must commit together before it answers (DESIGN §4).
Done one transaction per call, the wallet row (PostgreSQL) or the database write lock (SQLite)
is held across several event-loop round trips per call, and calls serialise there: about 150
calls/s. Here calls queue their settlement; one task writes everything queued so far with a
constant number of statements, commits, then answers each call. A call still answers only after
its own writes are durable; nothing is batched across a commit that has not happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.database import Database, transaction
from hakiki.core.idempotency import service as idempotency
from hakiki.core.request_log.repository import insert_many
from hakiki.core.wallet.service import Charge, ChargeRequest, charge_many

logger = logging.getLogger("hakiki.settlement")
MAX_BATCH = 500


@dataclass
class Settlement:
    """What one finished call writes; ``render`` and ``log_row`` get the call's charge."""

    charge: ChargeRequest | None
    render: Callable[[Charge | None], bytes]
    log_row: Callable[[Charge | None], dict[str, Any]]
    claim: idempotency.Claim | None
    status_code: int
    write: Callable[[AsyncConnection], Awaitable[None]] | None = None  # the call's own rows
    done: asyncio.Future[bytes] = field(init=False)

    def __post_init__(self) -> None:
        self.done = asyncio.get_running_loop().create_future()


class SettlementWriter:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._pending: list[Settlement] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="settlement-writer")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        while self._pending:
            await self._write_next()

    def submit(self, settlement: Settlement) -> asyncio.Future[bytes]:
        """Queue the settlement; the future gives the call's body once it is committed."""
        if self._task is None:
            raise RuntimeError("the settlement writer is not running")
        self._pending.append(settlement)
        self._wake.set()
        return settlement.done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                await self._write_next()

    async def _write_next(self) -> None:
        batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
        try:
            outcomes = await self._write(batch)
        except Exception as error:  # the whole batch rolled back: every call learns it
            logger.exception("could not write a batch of %d settlements", len(batch))
            for settlement in batch:
                if not settlement.done.done():
                    settlement.done.set_exception(error)
            return
        for settlement, outcome in zip(batch, outcomes, strict=True):
            if settlement.done.done():
                continue
            if isinstance(outcome, Exception):
                settlement.done.set_exception(outcome)
            else:
                settlement.done.set_result(outcome)

    async def _write(self, batch: list[Settlement]) -> list[bytes | Exception]:
        async with transaction(self._db) as conn:
            failed = await _run_own_writes(conn, batch)
            charging = [s for s in batch if s.charge is not None and id(s) not in failed]
            charges = await charge_many(conn, [s.charge for s in charging if s.charge])
            outcome_of: dict[int, Charge | Exception | None] = {
                **failed,
                **{id(s): c for s, c in zip(charging, charges, strict=True)},
            }
            outcomes: list[bytes | Exception] = []
            rows, completions = [], []
            for settlement in batch:
                charge = outcome_of.get(id(settlement))
                if isinstance(charge, Exception):
                    outcomes.append(charge)
                    continue
                body = settlement.render(charge)
                outcomes.append(body)
                rows.append(settlement.log_row(charge))
                if settlement.claim is not None:
                    completions.append((settlement.claim, settlement.status_code, body))
            await insert_many(conn, rows)
            await idempotency.complete_many(conn, completions)
        return outcomes


async def _run_own_writes(conn: AsyncConnection, batch: list[Settlement]) -> dict[int, Exception]:
    """Each call's own writes in a savepoint, so one failing call does not sink the batch."""
    failed: dict[int, Exception] = {}
    for settlement in batch:
        if settlement.write is None:
            continue
        try:
            async with conn.begin_nested():
                await settlement.write(conn)
        except Exception as error:
            failed[id(settlement)] = error
    return failed

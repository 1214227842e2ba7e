"""Group commit for finished calls: many calls' charges, request records and stored idempotent
responses in one database transaction.

Every live call ends with writes that must commit together before it answers
(docs/decisions.md#wallet).
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

from hakiki.core.crypto import Vault
from hakiki.core.database import Database, transaction
from hakiki.core.idempotency import service as idempotency
from hakiki.core.privacy.repository import insert_consents
from hakiki.core.request_log.repository import insert_many
from hakiki.core.wallet.call_holds import CallHolds
from hakiki.core.wallet.service import Charge, ChargeRequest, Hold, settle_many

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
    hold: Hold | None = None  # the call's in-memory hold, ended when this commits
    # The consent the call carried, as its row, from the answer (core/privacy/consent.py).
    consent_row: Callable[[bytes], dict[str, Any]] | None = None
    done: asyncio.Future[bytes] = field(init=False)

    def __post_init__(self) -> None:
        self.done = asyncio.get_running_loop().create_future()


class SettlementWriter:
    def __init__(self, db: Database, vault: Vault) -> None:
        self._db = db
        self._vault = vault
        self.holds = CallHolds(db)  # live calls' holds: settled here, so known here
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
        failed: dict[int, Exception] = {}
        while True:
            try:
                return await self._write_once(batch, failed)
            except _OwnWriteFailed:
                continue  # the whole batch again, without the call whose write failed

    async def _write_once(
        self, batch: list[Settlement], failed: dict[int, Exception]
    ) -> list[bytes | Exception]:
        """One transaction: the charges first, then each charged (or free) call's own rows, so
        a call refused with 402 writes nothing and a call whose own write fails is not charged
        (its exception is noted and the transaction rolled back, to be run again without it:
        no savepoint per call, which on PostgreSQL cost two round trips each)."""
        async with transaction(self._db) as conn:
            live = [s for s in batch if id(s) not in failed]
            charging = [s for s in live if s.charge is not None]
            charges, available = await settle_many(conn, [s.charge for s in charging if s.charge])
            outcome_of: dict[int, Charge | Exception | None] = {
                **failed,
                **{id(s): c for s, c in zip(charging, charges, strict=True)},
            }
            for settlement in live:
                if settlement.write is None or isinstance(
                    outcome_of.get(id(settlement)), Exception
                ):
                    continue
                try:
                    await settlement.write(conn)
                except Exception as error:
                    failed[id(settlement)] = error
                    raise _OwnWriteFailed from error
            outcomes: list[bytes | Exception] = []
            rows, completions, consents = [], [], []
            for settlement in batch:
                charge = outcome_of.get(id(settlement))
                if isinstance(charge, Exception):
                    outcomes.append(charge)
                    continue
                body = settlement.render(charge)
                outcomes.append(body)
                rows.append(settlement.log_row(charge))
                if settlement.consent_row is not None:
                    consents.append(settlement.consent_row(body))
                if settlement.claim is not None:
                    completions.append((settlement.claim, settlement.status_code, body))
            await insert_many(conn, rows)
            if consents:
                await insert_consents(conn, consents)
            await idempotency.complete_many(conn, self._vault, completions)
        self.holds.settled((s.hold for s in batch if s.hold is not None), available)
        return outcomes


class _OwnWriteFailed(Exception):
    """A call's own write raised: the batch's transaction is rolled back and run again."""

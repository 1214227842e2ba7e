"""Workers that stop for good inside a transaction, for the killed-worker tests: the kill then
lands mid-job by construction, not by timing. A `hakiki worker` started with
``job_processes.start(..., before="from tests.support import halt; halt.<hook>(...)")`` runs
the real job until the hook's point, prints ``HALTED`` and waits there, its transaction open
(rows written, nothing committed), until the test kills it."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.fraud.bulk import scanners
from hakiki.statements import tasks as statement_tasks

HALTED = "halted inside the transaction"


async def _wait_forever() -> None:
    print(HALTED, flush=True)
    await asyncio.Event().wait()


def bulk_id_scan_after(rows: int) -> None:
    """The bulk ID scan commits its first ``rows`` rows (a multiple of the chunk size); the
    next chunk is claimed, recorded and charged in its transaction, which never commits."""
    scan = scanners.SCANNERS["id"]
    scanned = 0

    async def scan_then_halt(
        runtime: Any, owner: scanners.BulkOwner, chunk: list[dict[str, Any]]
    ) -> scanners.ChunkScan:
        nonlocal scanned
        found = await scan(runtime, owner, chunk)
        scanned += len(chunk)
        if scanned <= rows:
            return found

        async def write_then_halt(conn: AsyncConnection) -> None:
            if found.write is not None:
                await found.write(conn)
            await _wait_forever()

        return scanners.ChunkScan(found.results, write_then_halt)

    scanners.SCANNERS["id"] = scan_then_halt


def statement_completion() -> None:
    """The statement analysis is read to its end, then ended, charged and its event written in
    its final transaction, which never commits."""
    complete = statement_tasks._complete

    async def complete_then_halt(*args: Any) -> None:
        await complete(*args)
        await _wait_forever()

    statement_tasks._complete = complete_then_halt

"""The bulk scan job: the file's rows in chunks; each chunk's results, charges, sightings and
progress are committed in one transaction that first checks the chunk is still to do. A worker
killed midway loses at most its uncommitted chunk, which the next attempt scans again: no row is
recorded or charged twice."""

from __future__ import annotations

import logging
import zlib
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.billing import Charge
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read, transaction
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.core.runtime import Runtime
from hakiki.fraud.bulk import repository
from hakiki.fraud.bulk.scanners import SCANNERS, BulkOwner, ChunkScan, RowResult
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.bulk")

BULK_TASK = "fraud.bulk_scan"
FACE_CHUNK_ROWS = 16
ERASED = "erased"  # the error code of a row erased from the file before it was scanned


def encode_rows(vault: Vault, rows: list[dict[str, Any]]) -> bytes:
    return vault.seal(zlib.compress(orjson.dumps(rows), 6))


def decode_rows(vault: Vault, sealed: bytes) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = orjson.loads(zlib.decompress(vault.unseal(sealed)))
    return rows


def erased(row: dict[str, Any]) -> bool:
    """A row a subject's erasure replaced by its placeholder (``{"row": n, "erased": true}``,
    hakiki.privacy.files): it keeps its position and is recorded as an error, never scanned."""
    return row.get("erased") is True


def price_key(scan_type: str) -> str:
    return f"fraud.bulk_scan.{scan_type}"


def event_data(scan: dict[str, Any]) -> dict[str, Any]:
    return {
        "bulk_id": scan["id"],
        "scan_type": scan["scan_type"],
        "status": scan["status"],
        "total_records": scan["total_records"],
        "processed_records": scan["processed_records"],
        "success_count": scan["success_count"],
        "error_count": scan["error_count"],
    }


async def _give_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    await _fail(conn, str(payload["bulk_id"]), f"the scan stopped: {error}")


@task(BULK_TASK, max_attempts=5, backoff=(5, 30, 120, 600), on_give_up=_give_up)
async def run_bulk_scan(context: JobContext, payload: dict[str, Any]) -> None:
    """A failure is retried; after the last attempt (or a PermanentError) the job's give-up
    ends the scan failed."""
    await _run(context.runtime, str(payload["bulk_id"]))


async def _run(runtime: Runtime, bulk_id: str) -> None:
    async with read(runtime.db) as conn:
        summary = await repository.get_summary(conn, bulk_id)
    if summary is None:
        raise PermanentError(f"no bulk scan {bulk_id}")
    if summary["status"] in repository.FINAL_STATES:
        return
    async with transaction(runtime.db) as conn:
        await repository.start(conn, bulk_id, utcnow())
    scan, rows = await _load(runtime, bulk_id)
    if scan is None:
        return
    owner = BulkOwner(bulk_id, scan["environment"], scan["org_id"], scan["scan_type"])
    step = runtime.settings.bulk_chunk_rows
    if owner.scan_type == "face":
        step = min(step, FACE_CHUNK_ROWS)
    done = int(scan["processed_records"])
    stamp = scan["updated_at"]
    while done < len(rows):
        chunk = rows[done : done + step]
        scanned = await _scan_chunk(runtime, owner, chunk)
        now = utcnow()
        async with transaction(runtime.db) as conn:
            committed = await _commit(conn, runtime, scan, done, stamp, now, scanned)
        if not committed:
            # Another worker got there first, or an erasure rewrote the file (its stamp moved):
            # carry on from where the scan is, with the file as it is now.
            scan, rows = await _load(runtime, bulk_id)
            if scan is None:
                return
            done, stamp = int(scan["processed_records"]), scan["updated_at"]
            continue
        done, stamp = done + len(chunk), now


async def _load(runtime: Runtime, bulk_id: str) -> tuple[dict[str, Any] | None, list[Any]]:
    """The scan and its file's rows as they are now; no scan while it has ended."""
    async with read(runtime.db) as conn:
        scan = await repository.get_scan(conn, bulk_id)
    if scan is None or scan["status"] in repository.FINAL_STATES:
        return None, []
    try:
        return scan, decode_rows(runtime.vault, scan["input_encrypted"])
    except Exception as error:
        raise PermanentError("the stored file could not be read back") from error


async def _scan_chunk(runtime: Runtime, owner: BulkOwner, chunk: list[dict[str, Any]]) -> ChunkScan:
    """The chunk's rows scanned, but the erased ones: those are recorded as errors."""
    live = [row for row in chunk if not erased(row)]
    scanned = await SCANNERS[owner.scan_type](runtime, owner, live) if live else ChunkScan([])
    if len(live) == len(chunk):
        return scanned
    gone = [
        RowResult(
            int(row["row"]),
            {"row": row["row"], "error": "the row was erased at its data subject's request"},
            None,
            ERASED,
        )
        for row in chunk
        if erased(row)
    ]
    results = sorted(scanned.results + gone, key=lambda result: result.row)
    return ChunkScan(results, scanned.write)


async def _charge(
    conn: AsyncConnection, scan: dict[str, Any], results: list[RowResult]
) -> dict[int, Charge]:
    """Debit each scanned row once (live); a row the wallet cannot pay becomes an error."""
    price = int(scan["price"])
    if price <= 0 or scan["environment"] != "live":
        return {}
    billable = [r for r in results if r.ok]
    outcomes = await billing.charge_units(
        conn,
        org_id=scan["org_id"],
        currency=scan["currency"],
        hold_id=scan["hold_id"],
        price_key=price_key(scan["scan_type"]),
        price=price,
        units=[
            billing.Unit(
                f"{scan['id']}:{r.row}",
                f"Bulk {scan['scan_type']} scan {scan['id']}, row {r.row}",
            )
            for r in billable
        ],
        finished=len(results),
    )
    charges: dict[int, Charge] = {}
    for result, outcome in zip(billable, outcomes, strict=True):
        if isinstance(outcome, Charge):
            charges[result.row] = outcome
        else:
            result.error_code = "insufficient_funds"
            result.body["error"] = "the wallet could not pay for this row"
    return charges


async def _commit(
    conn: AsyncConnection,
    runtime: Runtime,
    scan: dict[str, Any],
    done: int,
    stamp: datetime,
    now: datetime,
    scanned: ChunkScan,
) -> bool:
    if not await repository.claim_chunk(conn, scan["id"], done, stamp, now):
        return False
    results = scanned.results
    charges = await _charge(conn, scan, results)
    vault = runtime.vault
    await repository.insert_results(
        conn,
        [
            {
                "bulk_id": scan["id"],
                "row_number": result.row,
                "status": "success" if result.ok else "error",
                "risk_score": result.risk.score if result.ok and result.risk else None,
                "risk_level": result.risk.level if result.ok and result.risk else None,
                "error_code": result.error_code,
                "transaction_id": charges[result.row].transaction_id
                if result.row in charges
                else None,
                "body_encrypted": vault.encrypt(orjson.dumps(result.body).decode()),
            }
            for result in results
        ],
    )
    if scanned.write is not None:
        await scanned.write(conn)
    finished = done + len(results) >= int(scan["total_records"])
    successes = sum(1 for r in results if r.ok)
    await repository.advance(
        conn,
        scan["id"],
        processed=len(results),
        successes=successes,
        errors=len(results) - successes,
        charged=sum(charge.amount for charge in charges.values()),
        finished_at=now if finished else None,
        now=now,
    )
    if finished:
        await _close(conn, scan, "bulk_scan.completed")
    return True


async def _close(conn: AsyncConnection, scan: dict[str, Any], event_type: str) -> None:
    """Release what is left of the reservation and tell the customer, in the transaction that
    ends the scan."""
    await billing.close(conn, scan["hold_id"], scan["org_id"])
    ended = await repository.get_summary(conn, scan["id"])
    assert ended is not None
    await emit(
        conn,
        org_id=scan["org_id"],
        environment=scan["environment"],
        event_type=event_type,
        resource_id=scan["id"],
        data=event_data(ended),
    )


async def _fail(conn: AsyncConnection, bulk_id: str, reason: str) -> None:
    scan = await repository.get_scan(conn, bulk_id)
    if scan is None or not await repository.fail(conn, bulk_id, reason):
        return
    await _close(conn, scan, "bulk_scan.failed")
    logger.warning("bulk scan %s failed: %s", bulk_id, reason)

"""Reading the privacy records: a consent record decrypted, the audit log paged or exported."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import orjson

from hakiki.account.privacy.schemas import (
    AUDIT_COLUMNS,
    AuditEntry,
    AuditLogPage,
    ConsentRecordOut,
)
from hakiki.core.auth import Principal
from hakiki.core.clock import as_utc
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.pagination import PageRequest, parse_day
from hakiki.core.privacy import repository

EXPORT_BATCH = 1000


async def consent(db: Database, vault: Vault, principal: Principal, consent_id: str) -> Any:
    async with read(db) as conn:
        row = await repository.consent(conn, principal.owner, consent_id)
    if row is None:  # another organisation's, environment's, or none
        raise ApiError(404, "not_found", f"No consent record {consent_id[:60]!r} of yours.")
    body = orjson.loads(vault.decrypt(row["consent_encrypted"]))
    return ConsentRecordOut(
        id=row["id"],
        live=row["environment"] == "live",
        request_id=row["request_id"],
        endpoint=row["endpoint"],
        reference=row["reference"],
        source=row["source"],
        obtained_at=as_utc(datetime.fromisoformat(body["obtained_at"])),
        method=body["method"],
        notice_version=body.get("notice_version"),
        notice_url=body.get("notice_url"),
        notice_text=body.get("notice_text"),
        purposes=body["purposes"],
        language=body.get("language"),
        subject_reference=body.get("subject_reference"),
        attested_by=body.get("attested_by"),
        recorded_at=row["created_at"],
    )


def period(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    start, end = parse_day(since, "from"), parse_day(until, "to")
    if start is not None and end is not None and end <= start:
        raise invalid_request("to: must be after from.", field="to", problem="not after from")
    return start, end


async def audit_page(
    db: Database,
    principal: Principal,
    window: tuple[datetime | None, datetime | None],
    page: PageRequest,
) -> AuditLogPage:
    async with read(db) as conn:
        rows, total = await repository.audit_page(
            conn, principal.owner, *window, page.offset, page.page_size
        )
    return AuditLogPage(
        data=[AuditEntry(**_entry(row)) for row in rows], pagination=page.describe(total)
    )


def _entry(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in AUDIT_COLUMNS}


async def _batches(
    db: Database, principal: Principal, window: tuple[datetime | None, datetime | None]
) -> AsyncIterator[list[dict[str, Any]]]:
    after: str | None = None
    while True:
        async with read(db) as conn:
            rows = await repository.audit_after(conn, principal.owner, *window, after, EXPORT_BATCH)
        if not rows:
            return
        yield [_entry(row) for row in rows]
        after = rows[-1]["id"]


async def export_jsonl(
    db: Database, principal: Principal, window: tuple[datetime | None, datetime | None]
) -> AsyncIterator[bytes]:
    """Every row in the window, oldest first, one JSON object a line."""
    async for batch in _batches(db, principal, window):
        yield b"".join(
            orjson.dumps(AuditEntry(**row).model_dump(mode="json")) + b"\n" for row in batch
        )


async def export_csv(
    db: Database, principal: Principal, window: tuple[datetime | None, datetime | None]
) -> AsyncIterator[bytes]:
    """Every row in the window, oldest first, as CSV with a header row."""
    yield (",".join(AUDIT_COLUMNS) + "\r\n").encode()
    async for batch in _batches(db, principal, window):
        out = io.StringIO()
        writer = csv.writer(out)
        for row in batch:
            dumped = AuditEntry(**row).model_dump(mode="json")
            writer.writerow(["" if dumped[c] is None else dumped[c] for c in AUDIT_COLUMNS])
        yield out.getvalue().encode()

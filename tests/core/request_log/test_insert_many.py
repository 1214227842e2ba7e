"""Writing log rows in batches: by COPY on PostgreSQL, and never outside the transaction that
writes them with a settlement's other rows."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select, text

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id
from hakiki.core.request_log.repository import insert_many
from hakiki.core.tables import request_logs


class _RolledBack(Exception):
    pass


def _rows(count: int) -> list[dict[str, Any]]:
    return [
        {
            "id": new_id("req"),
            "org_id": "org_insert_many",
            "api_key_id": "key_test",
            "environment": "sandbox",
            "method": "POST",
            "path": "/v3/screening/aml-with-id",
            "status_code": 200,
            "response_code": "00",
            "channel": "NG:bvn",
            "subject_hash": "f" * 64,
            "subject_encrypted": "v1.sealed",
            "request_body": {"channel": "bvn", "number": "<str:11>", "nested": [1, None]},
            "duration_ms": 3,
            "transaction_id": None,
            "error_message": None,
            "created_at": utcnow(),
        }
        for _ in range(count)
    ]


async def _stored(db: Database, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = [row["id"] for row in rows]
    async with read(db) as conn:
        found = await conn.execute(select(request_logs).where(request_logs.c.id.in_(ids)))
        return sorted((dict(row._mapping) for row in found), key=lambda row: str(row["id"]))


async def test_a_batch_alone_is_stored_whole(db: Database) -> None:
    rows = _rows(300)
    async with transaction(db) as conn:
        await insert_many(conn, rows, alone=True)
    stored = await _stored(db, rows)
    assert [row["id"] for row in stored] == sorted(row["id"] for row in rows)
    first = stored[0]
    assert first["request_body"] == {"channel": "bvn", "number": "<str:11>", "nested": [1, None]}
    assert first["created_at"].utcoffset() is not None  # read back as an aware UTC time


@pytest.mark.parametrize("began", [True, False], ids=["after-a-statement", "first-statement"])
async def test_rows_roll_back_with_their_transaction(db: Database, began: bool) -> None:
    rows = _rows(5)
    with pytest.raises(_RolledBack):
        async with transaction(db) as conn:
            if began:
                await conn.execute(text("SELECT 1"))
            await insert_many(conn, rows)
            raise _RolledBack
    assert await _stored(db, rows) == []

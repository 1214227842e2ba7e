"""A bulk scan's row erased from its file at its data subject's request (hakiki.privacy.files)
is recorded as an error ``erased`` and never screened, whether the erasure came before the scan
reached it or while the scan was working on its chunk (the file is read again before the chunk
is committed). On both databases, through the real job runner and the real erasure."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.clock import utcnow
from hakiki.core.database import transaction
from hakiki.core.ids import new_id
from hakiki.core.runtime import Runtime
from hakiki.fraud.bulk import repository, runner
from hakiki.fraud.bulk.scanners import SCANNERS, BulkOwner, ChunkScan
from hakiki.privacy import files
from hakiki.privacy.matching import Needles
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import URL, changed

SUBJECT_NUMBER = "20000000"
ROWS = [
    {"row": 2, "reference": "loan-a", "number": "22222222220", "channel": "bvn",
     "country_code": "NG"},
    {"row": 3, "reference": "loan-subject", "number": SUBJECT_NUMBER, "channel": "national_id",
     "country_code": "KE"},
    {"row": 4, "reference": "loan-b", "number": "22222222225", "channel": "bvn",
     "country_code": "NG"},
]  # fmt: skip


async def _scan_of(runtime: Runtime, org_id: str) -> str:
    """A pending sandbox ID scan of ROWS, as an upload stores it (no job queued: the test
    runs the scan itself)."""
    now = utcnow()
    bulk_id = new_id("bsc")
    async with transaction(runtime.db) as conn:
        await repository.insert_scan(
            conn,
            {
                "id": bulk_id, "org_id": org_id, "environment": "sandbox",
                "api_key_id": "key_test", "request_id": new_id("req"), "scan_type": "id",
                "status": "pending", "file_name": "loans.csv", "file_format": "csv",
                "total_records": len(ROWS), "processed_records": 0, "success_count": 0,
                "error_count": 0, "price": 0, "charged_amount": 0, "currency": "KES",
                "hold_id": None, "input_encrypted": runner.encode_rows(runtime.vault, ROWS),
                "failure_reason": None, "created_at": now, "started_at": None,
                "completed_at": None, "updated_at": now,
            },
        )  # fmt: skip
    return bulk_id


async def _erase_subject(runtime: Runtime, org_id: str) -> dict[str, int]:
    needles = Needles.of(id_numbers=[SUBJECT_NUMBER])
    async with transaction(runtime.db) as conn:
        found = await files.find(conn, runtime.vault, org_id, "sandbox", needles)
        return await files.erase(conn, runtime.vault, found)


async def _results(
    client: httpx.AsyncClient, headers: dict[str, str], bulk_id: str
) -> dict[str, Any]:
    response = await client.get(f"{URL}/{bulk_id}", headers=headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()["data"]
    return found


def _check(done: dict[str, Any]) -> None:
    assert (done["state"], done["processed_records"]) == ("completed", 3), done
    assert (done["success_count"], done["error_count"]) == (2, 1), done
    by_row = {r["row"]: r for r in done["results"]}
    assert by_row[3]["status"] == "error" and by_row[3]["error"]["code"] == "erased"
    assert by_row[3]["input"] == {} and by_row[3]["reference"] is None
    assert SUBJECT_NUMBER not in str(done)
    assert [by_row[n]["reference"] for n in (2, 4)] == ["loan-a", "loan-b"]
    assert by_row[2]["status"] == by_row[4]["status"] == "success"


async def test_a_row_erased_before_the_scan_reaches_it_is_recorded_as_erased(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    bulk_id = await _scan_of(runtime, account.org_id)
    assert await _erase_subject(runtime, account.org_id) == {
        "files_rewritten": 1,
        "file_rows_removed": 1,
    }
    await runner._run(runtime, bulk_id)
    _check(await _results(client, account.headers, bulk_id))


async def test_a_row_erased_while_its_chunk_is_scanned_is_not_recorded(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The erasure commits between the worker's reading of the file and its chunk's commit:
    the chunk's claim fails (the scan's stamp moved), the worker reads the file again and
    records the row as erased, never its screening."""
    account = await make_account("sandbox")
    bulk_id = await _scan_of(runtime, account.org_id)
    scan_ids = SCANNERS["id"]
    erasures: list[dict[str, int]] = []

    async def erasing(runtime: Runtime, owner: BulkOwner, rows: list[dict[str, Any]]) -> ChunkScan:
        scanned = await scan_ids(runtime, owner, rows)
        if any(row.get("number") == SUBJECT_NUMBER for row in rows) and not erasures:
            erasures.append(await _erase_subject(runtime, account.org_id))
        return scanned

    monkeypatch.setitem(SCANNERS, "id", erasing)
    with changed(runtime.settings, bulk_chunk_rows=2):
        await runner._run(runtime, bulk_id)
    assert erasures == [{"files_rewritten": 1, "file_rows_removed": 1}]
    _check(await _results(client, account.headers, bulk_id))

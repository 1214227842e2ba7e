"""Helpers of the bulk scan tests: uploads over HTTP, waiting for the job, sheets built in
memory, and the webhook receiver fixtures."""

from __future__ import annotations

import asyncio
import csv
import io
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from openpyxl import Workbook

from hakiki.core.settings import Settings
from tests.support.envelope import envelope_problems
from tests.webhooks.conftest import _forget_endpoints, receiver  # noqa: F401  (fixtures)

URL = "/v3/fraud/bulk-scan"


def csv_bytes(rows: list[list[Any]], delimiter: str = ",") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return out.getvalue().encode()


def xlsx_bytes(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# The envelope's status of a scan's state (docs/api.md#bulk-scans).
_OUTCOMES = {
    "pending": "PENDING",
    "processing": "PENDING",
    "completed": "COMPLETED",
    "failed": "FAILED",
}


async def post_file(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    content: bytes,
    scan_type: str,
    name: str = "scan.csv",
    **form: str,
) -> httpx.Response:
    return await client.post(
        f"{URL}/upload",
        files={"file": (name, content, "application/octet-stream")},
        data={"scan_type": scan_type, **form},
        headers=headers,
    )


async def upload(
    client: httpx.AsyncClient, headers: dict[str, str], content: bytes, scan_type: str, **form: str
) -> dict[str, Any]:
    response = await post_file(client, headers, content, scan_type, **form)
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    assert envelope_problems(body, live=body["live"]) == [], body
    assert (body["status"], body["async_pending"]) == ("PENDING", True)
    scan: dict[str, Any] = body["data"]
    assert scan["state"] == "pending" and scan["processed_records"] == 0
    assert body["reference"] == scan["bulk_id"]
    return scan


async def finished(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    bulk_id: str,
    within: float = 60,
    **params: Any,
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        response = await client.get(f"{URL}/{bulk_id}", params=params, headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert envelope_problems(body, live=body["live"]) == [], body
        scan: dict[str, Any] = body["data"]
        assert body["status"] == _OUTCOMES[scan["state"]], body
        if scan["state"] in ("completed", "failed"):
            return scan
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.05)


@contextmanager
def changed(settings: Settings, **values: Any) -> Iterator[None]:
    """The running app's settings changed for one test."""
    before = {name: getattr(settings, name) for name in values}
    for name, value in values.items():
        setattr(settings, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(settings, name, value)

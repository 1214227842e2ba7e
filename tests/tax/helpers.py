"""Helpers for the tax tests: calls, polling, and the completion job of a pending check."""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.core.database import Database
from tests.support import registry_checks


async def post(
    client: httpx.AsyncClient, check: str, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post(f"/v3/tax/{check}", json=body, headers=headers)


async def status(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str
) -> httpx.Response:
    return await registry_checks.get_status(client, "tax", headers, reference)


async def wait_final(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str, seconds: float = 15
) -> dict[str, Any]:
    return await registry_checks.wait_final(client, "tax", headers, reference, seconds)


async def completion_job(db: Database, org_id: str, reference: str) -> dict[str, Any]:
    row = await registry_checks.check_row(db, org_id, reference)
    assert row is not None
    return await registry_checks.completion_job(db, row["id"])


async def stored_rows(db: Database, org_id: str) -> list[dict[str, Any]]:
    return await registry_checks.category_rows(db, org_id, "tax")

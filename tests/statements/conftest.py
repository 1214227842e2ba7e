"""Helpers of the statement tests: uploads over HTTP and waiting for the analysis job."""

from __future__ import annotations

import asyncio
import time
from importlib import resources
from typing import Any

import httpx
from sqlalchemy import insert, select

from hakiki.core.database import Database
from hakiki.core.ids import new_id
from hakiki.statements.tables import statement_analyses as table
from tests.support.consent import CONSENT_FORM
from tests.support.envelope import envelope_problems

URL = "/v3/statements"
# The envelope's status of an analysis's state, and its verdict (docs/api.md#verdicts).
OUTCOMES = {
    "pending": "PENDING",
    "processing": "PENDING",
    "completed": "COMPLETED",
    "failed": "FAILED",
}
VERDICTS = {"genuine": "PASS", "suspicious": "REVIEW", "tampered": "FAIL"}


async def post_statement(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    content: bytes,
    name: str = "statement.pdf",
    **form: Any,
) -> httpx.Response:
    return await client.post(
        f"{URL}/analyze",
        files={"file": (name, content, "application/octet-stream")},
        data={"statement_type": "auto", "consent": CONSENT_FORM, **form},
        headers=headers,
    )


async def analyze(
    client: httpx.AsyncClient, headers: dict[str, str], content: bytes, **form: Any
) -> dict[str, Any]:
    response = await post_statement(client, headers, content, **form)
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    assert envelope_problems(body, live=body["live"]) == [], body
    assert (body["status"], body["async_pending"]) == ("PENDING", True)
    analysis: dict[str, Any] = body["data"]
    assert analysis["state"] == "pending" and analysis["progress"] == 0
    assert body["reference"] == analysis["analysis_id"]
    return analysis


async def finished(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    analysis_id: str,
    within: float = 60,
    **params: Any,
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        response = await client.get(f"{URL}/{analysis_id}", params=params, headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert envelope_problems(body, live=body["live"]) == [], body
        analysis: dict[str, Any] = body["data"]
        assert body["status"] == OUTCOMES[analysis["state"]], body
        assert body["verdict"] == VERDICTS.get(analysis["verdict"]), body
        if analysis["state"] in ("completed", "failed"):
            return analysis
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.05)


async def sandbox_analysis(
    client: httpx.AsyncClient, headers: dict[str, str], sample: str, **form: Any
) -> dict[str, Any]:
    """A documented sample (hakiki/statements/sandbox_data) uploaded and analysed to the end."""
    content = (resources.files("hakiki.statements") / "sandbox_data" / sample).read_bytes()
    started = await analyze(client, headers, content, statement_type="mpesa", **form)
    done = await finished(client, headers, started["analysis_id"])
    assert done["state"] == "completed", done
    return done


async def unfinished_copy(db: Database, analysis_id: str, status: str) -> str:
    """A copy of a stored analysis left ``status`` (pending/running/failed), no job queued: an
    analysis the worker has not finished (or gave up on)."""
    async with db.reader.connect() as conn:
        row = (await conn.execute(select(table).where(table.c.id == analysis_id))).one()
    record = dict(row._mapping)
    record.update(
        id=new_id("sta"), status=status, result_sealed=None, verdict=None, completed_at=None
    )
    async with db.writer.begin() as conn:
        await conn.execute(insert(table).values(**record))
    return str(record["id"])

"""Helpers of the background-check tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from sqlalchemy import select, update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.jobs.tables import jobs
from hakiki.webhooks.tables import webhook_events
from tests.support.consent import CONSENT
from tests.support.envelope import envelope_problems


def candidate(email: str = "wanjiru@example.com", **extra: Any) -> dict[str, Any]:
    return {"first_name": "Wanjiru", "last_name": "Kamau", "email": email, **extra}


async def invite(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    package_id: str = "spk_ke_basic_identity",
    *people: dict[str, Any],
) -> httpx.Response:
    body = {
        "package_id": package_id,
        "candidates": list(people) or [candidate()],
        "consent": CONSENT,
    }
    made = await client.post("/v3/background/candidates", json=body, headers=headers)
    if made.status_code == 201:
        answer = made.json()
        assert envelope_problems(answer, live=answer["live"]) == [], answer
        assert answer["status"] == "PENDING"
        assert answer["reference"] == answer["data"]["requests"][0]["reference"]
    return made


# The envelope's status of a request's state, and its result's verdict (docs/api.md#verdicts).
OUTCOMES = {"completed": "COMPLETED", "expired": "FAILED"}
VERDICTS = {"clear": "PASS", "consider": "REVIEW", "unverifiable": "REVIEW"}


def request_of(body: dict[str, Any]) -> dict[str, Any]:
    """The request in an answer (a read, a reinitiate, a recorded result), once the envelope
    around it is checked."""
    assert envelope_problems(body, live=body["live"]) == [], body
    request: dict[str, Any] = body["data"]
    assert body["reference"] == request["reference"]
    assert body["status"] == OUTCOMES.get(request["state"], "PENDING"), body
    completed = request["state"] == "completed"
    assert body["verdict"] == (VERDICTS[request["result"]] if completed else None), body
    return request


async def until(
    check: Callable[[], Awaitable[Any]], seconds: float = 20, what: str = "condition"
) -> Any:
    """Poll ``check`` until it returns something truthy."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        found = await check()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def status_becomes(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str, status: str
) -> dict[str, Any]:
    async def look() -> dict[str, Any] | None:
        got = await client.get(f"/v3/background/candidates/{reference}", headers=headers)
        body = request_of(got.json())
        return body if body["state"] == status else None

    result: dict[str, Any] = await until(look, what=f"{reference} to become {status}")
    return result


async def events(db: Database, org_id: str, reference: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events)
            .where(webhook_events.c.org_id == org_id, webhook_events.c.resource_id == reference)
            .order_by(webhook_events.c.sequence)
        )
        return [dict(r._mapping) for r in rows]


async def request_id_of(db: Database, reference: str) -> str:
    from hakiki.background.tables import background_requests as requests

    async with read(db) as conn:
        query = select(requests.c.id).where(requests.c.reference == reference)
        return str((await conn.execute(query)).scalar_one())


async def queued_jobs(db: Database, task_name: str, reference: str) -> list[dict[str, Any]]:
    """The queued jobs of ``task_name`` about the request ``reference``."""
    request_id = await request_id_of(db, reference)
    async with read(db) as conn:
        rows = await conn.execute(
            select(jobs.c.id, jobs.c.payload, jobs.c.run_after).where(
                jobs.c.task == task_name, jobs.c.status == "queued"
            )
        )
        return [dict(r._mapping) for r in rows if r.payload.get("request_id") == request_id]


async def run_due_now(db: Database, task_name: str, reference: str) -> int:
    """Let the clock "pass" for the queued ``task_name`` jobs of one request: due now."""
    ids = [job["id"] for job in await queued_jobs(db, task_name, reference)]
    async with transaction(db) as conn:
        await conn.execute(update(jobs).where(jobs.c.id.in_(ids)).values(run_after=utcnow()))
    return len(ids)


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def link_path(url: str) -> str:
    return url.removeprefix("http://hakiki.test")


async def open_form(client: httpx.AsyncClient, url: str) -> tuple[httpx.Response, str]:
    """GET the invitation page; its CSRF token (the hidden field; the cookie is kept by the
    client)."""
    page = await client.get(link_path(url))
    marker = 'name=csrf_token value="'
    start = page.text.index(marker) + len(marker)
    return page, page.text[start : page.text.index('"', start)]


async def post_form(
    client: httpx.AsyncClient,
    url: str,
    csrf: str | None,
    fields: dict[str, str],
    files: dict[str, tuple[str, bytes, str]] | None = None,
) -> httpx.Response:
    data = dict(fields)
    if csrf is not None:
        data["csrf_token"] = csrf
    return await client.post(
        link_path(url), data=data, files=files or {"_": ("", b"", "text/plain")}
    )


DRIVER_FORM = {
    "id_number": "20000000",
    "date_of_birth": "1990-08-23",
    "referees": "Achieng Otieno +254711000000\nJuma Mwangi +254722000000",
    "consent": "yes",
}


async def wallet_of(db: Database, org_id: str) -> dict[str, Any]:
    from hakiki.core.wallet.service import wallet_summary

    async with read(db) as conn:
        return await wallet_summary(conn, org_id)


def shift_clock(monkeypatch: Any, by: Any) -> None:
    """Move the clock the background checks read (``hakiki.core.clock.utcnow``)."""
    from hakiki.core import clock

    real = clock.utcnow
    monkeypatch.setattr(clock, "utcnow", lambda: real() + by)

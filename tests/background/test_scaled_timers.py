"""The background timers in scaled mode (HAKIKI_JOBS_BACKEND=procrastinate on PostgreSQL): a
real server queues the invitation e-mail, the reminder and the expiry as procrastinate jobs
scheduled at their due time, and a real `hakiki worker` runs them when they are due: the
candidate gets both e-mails (a local SMTP sink), the request expires, and the expiry reaches
the request's callback_url."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from hakiki.account import service as accounts
from hakiki.core.clock import as_utc
from hakiki.core.database import create_database
from hakiki.core.jobs import service as jobs
from hakiki.core.settings import Settings
from tests.background.conftest import Sink
from tests.background.helpers import candidate
from tests.support.cli import free_port
from tests.support.consent import CONSENT
from tests.support.databases import isolated_settings
from tests.support.job_processes import start, stop, wait_for_line
from tests.webhooks.receiver import run_receiver

pytestmark = pytest.mark.processes

EXPIRES_IN = 8.0  # seconds
REMIND_BEFORE = 4.0


@pytest.mark.postgresql
async def test_reminder_and_expiry_fire_under_procrastinate(
    tmp_path: Path, smtp_server: tuple[Sink, int]
) -> None:
    sink, smtp_port = smtp_server
    settings = await isolated_settings(
        "postgresql", tmp_path / "data", "bgscaled", jobs_backend="procrastinate"
    )
    db = create_database(settings)
    await accounts.create_org(db, "Scaled Hiring", approved=True)
    key = await accounts.create_key(db, "Scaled Hiring", "sandbox")
    env = {
        "HAKIKI_BACKGROUND_INVITATION_DAYS": repr(EXPIRES_IN / 86400),
        "HAKIKI_BACKGROUND_REMINDER_HOURS": repr(REMIND_BEFORE / 3600),
        "HAKIKI_SMTP_HOST": "127.0.0.1",
        "HAKIKI_SMTP_PORT": str(smtp_port),
        "HAKIKI_SMTP_STARTTLS": "false",
        "HAKIKI_WEBHOOKS_ALLOW_PRIVATE": "true",
    }
    port = free_port()
    server = start(settings, "serve", "--port", str(port), **env)
    worker = start(settings, "worker", **env)
    email = "otieno.scaled@example.com"
    sink.messages.clear()
    try:
        with run_receiver() as receiver:
            wait_for_line(server, "Application startup complete")
            wait_for_line(worker, "worker started")
            headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            body = {
                "package_id": "spk_ke_basic_identity",
                "consent": CONSENT,
                "candidates": [candidate(email)],
                "callback_url": receiver.url,
            }
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                made = await http.post("/v3/background/candidates", json=body, headers=headers)
                assert made.status_code == 201, made.text
                receiver.secrets = [made.json()["data"]["callback_secret"]]
                reference = made.json()["data"]["requests"][0]["reference"]
                created = time.monotonic()
                queued = await _background_jobs(settings)
                expiry = queued["background.expire"]
                assert expiry["status"] == "queued"  # waiting in procrastinate's table
                assert as_utc(expiry["run_after"]) - as_utc(expiry["created_at"]) > timedelta(
                    seconds=EXPIRES_IN - 2
                )
                reminder = queued["background.mail"]  # the reminder (the invitation ran)
                assert reminder["run_after"] < expiry["run_after"]

                request = await _until_status(http, headers, reference, "expired")
                took = time.monotonic() - created
                await _until(
                    lambda: any(m.json["data"]["status"] == "expired" for m in receiver.accepted())
                )
    finally:
        stop(server)
        stop(worker)
    assert EXPIRES_IN - 1 < took < EXPIRES_IN + 15  # not early; within the worker's polling
    steps = [e["event"] for e in request["timeline"]]
    assert steps == ["invited", "invitation_sent", "reminder_sent", "expire"]
    subjects = [m["Subject"] for m in sink.to(email)]
    assert subjects == [
        "Scaled Hiring: background check",
        "Scaled Hiring: background check (reminder)",
    ]
    assert {m.problem for m in receiver.received} == {None}
    finished = await _background_jobs(settings)
    assert {j["status"] for j in finished.values()} == {"succeeded"}
    await db.dispose()


async def _background_jobs(settings: Settings) -> dict[str, dict[str, Any]]:
    """The newest procrastinate job of each background task."""
    db = create_database(settings)
    try:
        listed = await jobs.list_jobs(db, status=None, task=None, limit=50)
    finally:
        await db.dispose()
    newest: dict[str, dict[str, Any]] = {}
    for job in listed:  # newest first
        if str(job["task"]).startswith("background."):
            newest.setdefault(str(job["task"]), job)
    return newest


async def _until_status(
    http: httpx.AsyncClient, headers: dict[str, str], reference: str, status: str
) -> dict[str, object]:
    async def look() -> dict[str, object] | None:
        got = await http.get(f"/v3/background/candidates/{reference}", headers=headers)
        found: dict[str, object] = got.json()["data"]
        return found if found["state"] == status else None

    result: dict[str, object] = await _until(look)
    return result


async def _until(check: Callable[[], Any], seconds: float = 40) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.2)

"""Two transactions on one background request, interleaved on purpose: the candidate's submit
holds the request row while a timer's transaction (the invitation e-mail's timeline note)
starts. Every such transaction locks the request row first (docs/decisions.md), so the timer
waits for the submit instead of deadlocking with it (the note's timeline insert used to wait
on the submit's row lock through its foreign key, while the submit waited on the note's
uncommitted timeline position: PostgreSQL aborted one of them, a 500 on the form)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from hakiki.background import timers
from hakiki.core.database import Database, read
from hakiki.core.jobs.registry import TASKS, JobContext
from hakiki.core.runtime import Runtime
from tests.background.helpers import (
    candidate,
    invite,
    open_form,
    post_form,
    request_id_of,
    request_of,
    until,
)
from tests.conftest import AccountFactory

BASE = "/v3/background/candidates"
FORM = {"id_number": "20000000", "date_of_birth": "1990-08-23", "consent": "yes"}


async def _timeline(client: httpx.AsyncClient, headers: dict[str, str], reference: str) -> Any:
    answer = await client.get(f"{BASE}/{reference}", headers=headers)
    return request_of(answer.json())["timeline"]


async def _someone_waits_for_a_lock(db: Database) -> bool:
    """A backend of this database waits for a row or transaction lock (PostgreSQL)."""
    query = text(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    async with read(db) as conn:
        return bool((await conn.execute(query)).scalar_one())


async def test_a_timer_note_during_the_submit_waits_for_the_request_lock(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if db.is_sqlite:
        pytest.skip("SQLite's write gate runs one write transaction at a time: no interleaving")
    account = await make_account()
    made = await invite(client, account.headers, "spk_ke_basic_identity", candidate())
    request = made.json()["data"]["requests"][0]
    reference, url = request["reference"], request["invitation_url"]

    async def noted() -> bool:
        timeline = await _timeline(client, account.headers, reference)
        return "email_not_sent" in [e["event"] for e in timeline]  # no SMTP here

    await until(noted, what="the invitation e-mail's job")
    _page, csrf = await open_form(visitor, url)

    submit_holds_the_request, timer_waits = asyncio.Event(), asyncio.Event()
    real_submit = timers.submit

    async def submit_once_the_timer_waits(*args: Any) -> Any:
        submit_holds_the_request.set()  # the form's transaction has locked the request row
        await timer_waits.wait()
        return await real_submit(*args)

    monkeypatch.setattr(timers, "submit", submit_once_the_timer_waits)
    submitting = asyncio.create_task(post_form(visitor, url, csrf, FORM))
    await submit_holds_the_request.wait()
    # The invitation e-mail's job again (at least once delivery), while the submit holds on.
    payload = {
        "request_id": await request_id_of(db, reference),
        "invitation": 1,
        "kind": "invitation",
        "url": runtime.vault.encrypt(url),
    }
    context = JobContext(runtime, "job_lock_order", 1, TASKS[timers.MAIL_TASK])
    mailing = asyncio.create_task(timers.send_mail(context, payload))
    await until(lambda: _someone_waits_for_a_lock(db), what="the timer to wait for a lock")
    timer_waits.set()

    answer, _ = await asyncio.gather(submitting, mailing)
    assert answer.status_code == 200, answer.text
    assert "id=done" in answer.text
    timeline = await _timeline(client, account.headers, reference)
    assert [e["event"] for e in timeline][:3] == ["invited", "email_not_sent", "submit"]
    late_note = [e for e in timeline if e["event"] == "email_not_sent"][1]
    assert late_note["status"] == "in_progress"  # written after the submit committed

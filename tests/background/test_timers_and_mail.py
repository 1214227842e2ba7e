"""Timers as durable jobs, driven by a moved clock: the reminder and the expiry of an unused
invitation, the SLA of a manual check (stalled), reinitiate from stalled; the e-mails through
a local SMTP sink."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from hakiki.background import runners
from hakiki.core.clock import as_utc, utcnow
from hakiki.core.database import Database
from hakiki.core.jobs.registry import PermanentError
from hakiki.core.runtime import Runtime
from tests.background.conftest import Sink
from tests.background.helpers import (
    DRIVER_FORM,
    PDF,
    candidate,
    invite,
    open_form,
    post_form,
    queued_jobs,
    request_of,
    run_due_now,
    shift_clock,
    status_becomes,
    until,
)
from tests.conftest import AccountFactory

BASE = "/v3/background/candidates"
POLICE = {"police_clearance": ("pcc.pdf", PDF, "application/pdf")}


async def test_invitation_and_reminder_emails_then_expiry(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    made = await invite(client, account.headers, "spk_tz_driver", candidate("juma@example.com"))
    request = made.json()["data"]["requests"][0]

    async def mailed() -> list[object]:
        return smtp.to("juma@example.com")  # type: ignore[return-value]

    first = (await until(mailed, what="the invitation e-mail"))[0]
    assert account.org_name in first["Subject"]
    text = Sink.text(first)
    assert request["invitation_url"] in text and "Dear Wanjiru" in text
    assert request["reference"] not in text
    # two days before expiry: the reminder
    shift_clock(monkeypatch, timedelta(days=5, hours=1))
    assert await run_due_now(db, "background.mail", request["reference"]) == 1

    async def reminded() -> bool:
        return len(smtp.to("juma@example.com")) == 2

    await until(reminded, what="the reminder")
    reminder = smtp.to("juma@example.com")[1]
    assert "reminder" in reminder["Subject"]
    assert request["invitation_url"] in Sink.text(reminder)
    # past expires_at: the expiry timer runs, the link dies
    shift_clock(monkeypatch, timedelta(days=7, seconds=1))
    assert await run_due_now(db, "background.expire", request["reference"]) == 1
    expired = await status_becomes(client, account.headers, request["reference"], "expired")
    steps = [e["event"] for e in expired["timeline"]]
    assert steps == ["invited", "invitation_sent", "reminder_sent", "expire"]
    page = await visitor.get(request["invitation_url"].removeprefix("http://hakiki.test"))
    assert page.status_code == 404


async def test_an_early_expiry_timer_waits(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    account = await make_account()
    made = await invite(client, account.headers, "spk_ng_driver", candidate())
    reference = made.json()["data"]["requests"][0]["reference"]
    await run_due_now(db, "background.expire", reference)  # the clock has not moved

    async def requeued() -> bool:  # the job ran and queued itself again for expires_at
        queued = await queued_jobs(db, "background.expire", reference)
        return len(queued) == 1 and as_utc(queued[0]["run_after"]) > utcnow() + timedelta(days=6)

    await until(requeued, what="the expiry to be queued again")
    got = await client.get(f"{BASE}/{reference}", headers=account.headers)
    assert request_of(got.json())["state"] == "pending"


async def test_sla_stalls_then_reinitiate_restarts(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    made = await invite(client, account.headers, "spk_ke_driver", candidate("k@example.com"))
    request = made.json()["data"]["requests"][0]
    url, reference = request["invitation_url"], request["reference"]
    _page, csrf = await open_form(visitor, url)
    assert (await post_form(visitor, url, csrf, DRIVER_FORM, POLICE)).status_code == 200
    await status_becomes(client, account.headers, reference, "in_progress")

    async def identity_done() -> bool:
        got = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
        return any(c["code"] == "identity" and c["result"] for c in got["checks"])

    await until(identity_done, what="the identity check")
    # the analyst records references, not the police clearance; 72 h pass
    recorded = await client.post(
        f"{BASE}/{reference}/checks/references/result",
        json={"result": "clear", "evidence": {"notes": "two referees"}},
        headers=account.headers,
    )
    assert recorded.status_code == 200
    shift_clock(monkeypatch, timedelta(hours=72, seconds=1))
    assert await run_due_now(db, "background.sla", reference) == 3  # identity too
    stalled = await status_becomes(client, account.headers, reference, "stalled")
    assert stalled["timeline"][-1]["detail"] == "criminal_record passed its SLA without a result"
    again = await client.post(f"{BASE}/{reference}/reinitiate", headers=account.headers)
    assert again.status_code == 200
    fresh = request_of(again.json())
    assert fresh["state"] == "pending" and fresh["invitation_url"] != url
    assert (await visitor.get(url.removeprefix("http://hakiki.test"))).status_code == 404
    body = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
    checks = {c["code"]: c for c in body["checks"]}
    assert checks["references"]["result"] == "clear"  # a result stands
    assert checks["criminal_record"]["status"] == "pending"  # the unfinished one restarts
    assert body["submitted_at"] is None


async def test_checks_that_cannot_run_stall_the_request_at_once(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def broken(runtime: Runtime, who: runners.Candidate) -> runners.CheckOutcome:
        raise PermanentError("the engine is broken")

    monkeypatch.setitem(runners.RUNNERS, "identity", broken)
    account = await make_account()
    made = await invite(client, account.headers, "spk_ke_driver", candidate("b@example.com"))
    request = made.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    assert (
        await post_form(visitor, request["invitation_url"], csrf, DRIVER_FORM, POLICE)
    ).status_code == 200
    stalled = await status_becomes(client, account.headers, request["reference"], "stalled")
    assert stalled["timeline"][-1]["detail"] == "the automated checks could not run; reinitiate"
    identity = next(c for c in stalled["checks"] if c["code"] == "identity")
    assert identity["status"] == "running" and identity["due_at"] is not None


@pytest.mark.parametrize(
    ("host", "mailed"), [("evil.example", None), ("127.0.0.1:8080", "http://127.0.0.1:8080")]
)
async def test_without_a_public_base_url_only_a_loopback_host_gets_its_link_mailed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
    host: str,
    mailed: str | None,
) -> None:
    monkeypatch.setattr(runtime.settings, "public_base_url", None)
    account = await make_account()
    address = f"forged-{host.split('.')[0].split(':')[0]}@example.com"
    made = await invite(
        client, {**account.headers, "Host": host}, "spk_ke_basic_identity", candidate(address)
    )
    assert made.status_code == 201, made.text
    reference = made.json()["data"]["requests"][0]["reference"]

    async def mail_job_ran() -> list[dict[str, str]]:
        got = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
        done = ("invitation_sent", "email_not_sent")
        return [e for e in got["timeline"] if e["event"] in done]

    [event] = await until(mail_job_ran, what="the invitation e-mail job")
    if mailed is None:
        assert smtp.to(address) == []
        assert event["event"] == "email_not_sent"
        assert "HAKIKI_PUBLIC_BASE_URL" in event["detail"], event
    else:
        [message] = smtp.to(address)
        assert f"{mailed}/invitations/" in Sink.text(message)

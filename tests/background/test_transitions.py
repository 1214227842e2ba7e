"""The state machine's moves not covered by the path tests, through the API and the timers:
a late result completes a stalled request (allowed); reinitiate of a request in progress, an
expiry timer on a submitted request, a submission past expires_at (before the timer ran), a
submission on a stalled request and the old invitation's timers after reinitiate (refused:
nothing moves)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.background.helpers import (
    DRIVER_FORM,
    PDF,
    candidate,
    events,
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
VERDICT = {"result": "clear", "evidence": {"notes": "seen"}}


def moves(request: dict[str, Any]) -> list[str]:
    return [e["event"] for e in request["timeline"] if e["event"] in _MOVES]


_MOVES = {"invited", "submit", "complete", "stall", "expire", "reinitiate"}


async def _submitted(
    client: httpx.AsyncClient, visitor: httpx.AsyncClient, headers: dict[str, str], email: str
) -> dict[str, Any]:
    """A driver check (identity, criminal_record, references) the candidate submitted, its
    identity check done."""
    made = await invite(client, headers, "spk_ke_driver", candidate(email))
    request: dict[str, Any] = made.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    sent = await post_form(visitor, request["invitation_url"], csrf, DRIVER_FORM, POLICE)
    assert sent.status_code == 200

    async def identity_done() -> bool:
        got = request_of(
            (await client.get(f"{BASE}/{request['reference']}", headers=headers)).json()
        )
        return any(c["code"] == "identity" and c["result"] for c in got["checks"])

    await until(identity_done, what="the identity check")
    return request


async def test_a_late_result_completes_a_stalled_request(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    request = await _submitted(client, visitor, account.headers, "late@example.com")
    reference = request["reference"]
    record = f"{BASE}/{reference}/checks"
    took = await client.post(f"{record}/references/result", json=VERDICT, headers=account.headers)
    assert took.status_code == 200
    shift_clock(monkeypatch, timedelta(hours=72, seconds=1))
    assert await run_due_now(db, "background.sla", reference) == 3
    await status_becomes(client, account.headers, reference, "stalled")
    # stalled -> completed: the police clearance arrives late, and it was the last check
    late = await client.post(
        f"{record}/criminal_record/result", json=VERDICT, headers=account.headers
    )
    assert late.status_code == 200, late.text
    done = request_of(late.json())
    assert (done["state"], done["result"]) == ("completed", "clear")
    assert moves(done) == ["invited", "submit", "stall", "complete"]
    assert done["timeline"][-1]["status"] == "completed"
    sent = await events(db, account.org_id, reference)
    assert [e["type"] for e in sent[-2:]] == [
        "background_check.updated",
        "background_check.completed",
    ]
    # completed is final: no reinitiate, no second result
    refused = await client.post(f"{BASE}/{reference}/reinitiate", headers=account.headers)
    assert refused.status_code == 409 and "is completed" in refused.json()["message"]
    again = await client.post(
        f"{record}/criminal_record/result", json=VERDICT, headers=account.headers
    )
    assert again.status_code == 409


async def test_a_request_in_progress_neither_reinitiates_nor_expires(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    request = await _submitted(client, visitor, account.headers, "busy@example.com")
    reference = request["reference"]
    refused = await client.post(f"{BASE}/{reference}/reinitiate", headers=account.headers)
    assert refused.status_code == 409
    assert refused.json()["details"] == [{"field": "status", "problem": "in_progress"}]
    # expires_at passes: the expiry timer runs and moves nothing (in_progress -> expired is no
    # move); the SLA timers are left waiting.
    shift_clock(monkeypatch, timedelta(days=7, seconds=1))
    assert await run_due_now(db, "background.expire", reference) == 1

    async def expiry_ran() -> bool:
        return not await queued_jobs(db, "background.expire", reference)

    await until(expiry_ran, what="the expiry job to run")
    got = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
    assert got["state"] == "in_progress"
    assert moves(got) == ["invited", "submit"]


async def test_the_link_refuses_a_submission_once_expires_at_has_passed(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    made = await invite(client, account.headers, "spk_ke_driver", candidate("slow@example.com"))
    request = made.json()["data"]["requests"][0]
    url = request["invitation_url"]
    _page, csrf = await open_form(visitor, url)
    shift_clock(monkeypatch, timedelta(days=7, seconds=1))  # the expiry timer has not run yet
    late = await post_form(visitor, url, csrf, DRIVER_FORM, POLICE)
    assert late.status_code == 404 and "not valid any more" in late.text
    got = request_of(
        (await client.get(f"{BASE}/{request['reference']}", headers=account.headers)).json()
    )
    assert got["state"] == "pending" and got["submitted_at"] is None
    assert moves(got) == ["invited"]


async def test_a_stalled_request_takes_no_new_submission_and_old_timers_do_nothing(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    request = await _submitted(client, visitor, account.headers, "stuck@example.com")
    url, reference = request["invitation_url"], request["reference"]
    shift_clock(monkeypatch, timedelta(hours=72, seconds=1))
    assert await run_due_now(db, "background.sla", reference) == 3
    await status_becomes(client, account.headers, reference, "stalled")
    # the same link cannot submit again: stalled -> in_progress is no move
    page = await visitor.get(url.removeprefix("http://hakiki.test"))
    assert "already been submitted" in page.text
    fresh = await client.post(f"{BASE}/{reference}/reinitiate", headers=account.headers)
    assert fresh.status_code == 200
    # the first invitation's expiry falls due (the new one's, 7 days from now, has not): it
    # does nothing (the clock is now 3 days + 1 s after the invitation; 4 days more)
    shift_clock(monkeypatch, timedelta(days=4, seconds=1))
    assert await run_due_now(db, "background.expire", reference) == 2

    async def settled() -> bool:
        queued = await queued_jobs(db, "background.expire", reference)
        return len(queued) == 1 and queued[0]["payload"]["invitation"] == 2

    await until(settled, what="the old expiry to end and the new one to wait")
    got = request_of((await client.get(f"{BASE}/{reference}", headers=account.headers)).json())
    assert got["state"] == "pending"
    assert moves(got) == ["invited", "submit", "stall", "reinitiate"]

"""Verification sessions over HTTP on both databases: create, the hosted page's calls (consent,
challenge, submit), each step's result, the decision, the webhook, billing per step from the
reservation, a replayed submission, and the sandbox's documented inputs. Live sessions run the
real engines on a rendered ID card with a real portrait and real face photos turned in depth
(tests/verification/faces.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.webhooks.tables import webhook_events
from tests.background.helpers import until
from tests.conftest import AccountFactory
from tests.support.consent import CONSENT
from tests.verification.faces import jpeg, portrait
from tests.verification.helpers import (
    Page,
    after_challenge,
    capture,
    card,
    create,
    data_url,
    read_session,
)

BASE = "/v3/verification/sessions"


async def events(db: Database, org_id: str, session_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events)
            .where(webhook_events.c.org_id == org_id, webhook_events.c.resource_id == session_id)
            .order_by(webhook_events.c.sequence)
        )
        return [dict(r._mapping) for r in rows]


def results(session: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["step"]: r for r in session["results"]}


async def _run(
    client: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    *,
    id_number: str | None = "23456780",
    document: bytes | None = None,
    face: str = "obama2.jpg",
    shown: list[str] | None = None,
) -> tuple[httpx.Response, dict[str, Any]]:
    page = Page(client, url)
    assert (await page.start()).status_code == 200
    challenge = await page.challenge()
    frames = capture(face, challenge["steps"] if shown is None else shown, challenge["steps"])
    after_challenge(monkeypatch, challenge)
    body = {
        "nonce": challenge["nonce"],
        "id_number": id_number,
        "document_image": data_url(document or card(), "png"),
        "frames": frames,
    }
    return await page.submit(body), body


async def test_a_sandbox_session_from_link_to_webhook_and_a_replay_fails(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account()
    session = await create(
        client, account.headers, customer={"first_name": "Wanjiru", "last_name": "Kamau"},
        redirect_url="https://lender.example/done",
    )  # fmt: skip
    assert session["state"] == "created" and session["live"] is False
    assert session["url"].startswith("http://hakiki.test/verify/")
    page = await client.get(session["url"].removeprefix("http://hakiki.test"))
    assert page.status_code == 200 and "Identity verification" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    swahili = await client.get(session["url"].removeprefix("http://hakiki.test") + "?lang=sw")
    assert "Uthibitisho wa utambulisho" in swahili.text
    answer, body = await _run(client, monkeypatch, session["url"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "completed"
    assert answer.json()["redirect_url"].startswith("https://lender.example/done?session_id=vss_")
    got = await read_session(client, account.headers, session["id"])
    assert got["state"] == "completed" and got["decision"] == "approved", got
    assert got["url"] is None and got["consent_at"] and got["submitted_at"]
    assert {s: r["status"] for s, r in results(got).items()} == {
        "id_number": "passed", "document": "passed", "selfie_liveness": "passed",
        "screening": "passed",
    }  # fmt: skip
    assert got["charged_amount"] == 0
    sent = await events(db, account.org_id, session["id"])
    assert [e["type"] for e in sent] == ["verification_session.completed"]
    assert sent[0]["data"]["decision"] == "approved"
    # The same submission again: the link was used.
    again = await Page(client, session["url"]).submit(body)
    assert again.status_code == 409 and again.json()["error"] == "already_submitted"
    # The same frames into a fresh session, with that session's own nonce: a replay.
    other = await create(client, account.headers, "cust-2")
    page2 = Page(client, other["url"])
    await page2.start()
    fresh = await page2.challenge()
    stale = await page2.submit(body)  # the first session's nonce
    assert stale.status_code == 409 and stale.json()["error"] == "challenge_mismatch"
    after_challenge(monkeypatch, fresh)
    replayed = await page2.submit(body | {"nonce": fresh["nonce"]})
    assert replayed.json()["status"] == "failed"
    failed = await read_session(client, account.headers, other["id"])
    assert failed["decision"] == "declined"
    assert results(failed)["selfie_liveness"]["reason"].startswith("replayed:")
    listed = (await client.get(BASE, headers=account.headers, params={"page_size": 1})).json()
    assert listed["pagination"]["total_items"] == 2 and listed["data"][0]["id"] == other["id"]


@pytest.mark.parametrize(
    ("reference", "id_number", "step", "status"),
    [
        ("cust+liveness_fail", "23456780", "selfie_liveness", "failed"),
        ("cust+face_mismatch", "23456780", "selfie_liveness", "failed"),
        ("cust+document_fail", "23456780", "document", "failed"),
        ("cust", "23456785", "id_number", "failed"),  # 5: not found
        ("cust", "23456710", "screening", "review"),  # second-to-last 1: a PEP hit
        ("cust", "23456788", "id_number", "review"),  # 8: the register unavailable
    ],
)
async def test_the_sandbox_inputs_drive_each_outcome(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
    id_number: str,
    step: str,
    status: str,
) -> None:
    account = await make_account()
    session = await create(client, account.headers, reference)
    answer, _ = await _run(client, monkeypatch, session["url"], id_number=id_number)
    assert answer.status_code == 200, answer.text
    got = await read_session(client, account.headers, session["id"])
    assert results(got)[step]["status"] == status, got
    assert got["decision"] == ("declined" if status == "failed" else "review")
    assert any(r.startswith(f"{step}: ") for r in got["reasons"])


async def test_a_sandbox_link_expires_unused(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account()
    session = await create(client, account.headers, "cust+expire")

    async def expired() -> dict[str, Any] | None:
        got = await read_session(client, account.headers, session["id"])
        return got if got["state"] == "expired" else None

    await until(expired, what="the session to expire")
    sent = await events(db, account.org_id, session["id"])
    assert [e["type"] for e in sent] == ["verification_session.expired"]
    gone = await client.get(session["url"].removeprefix("http://hakiki.test"))
    assert gone.status_code == 404


async def test_create_refuses_what_cannot_run(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account()
    for body, field in [
        ({"steps": ["selfie_liveness"], "customer_reference": "c"}, "steps"),
        ({"steps": ["id_number"], "customer_reference": "c"}, "id_channel"),
        ({"steps": ["id_number"], "id_channel": "bvn", "customer_reference": "c"}, "id_channel"),
    ]:
        got = await client.post(BASE, json=body | {"consent": CONSENT}, headers=account.headers)
        assert got.status_code == 400 and got.json()["details"][0]["field"] == field, got.text
    other = await make_account()
    session = await create(client, account.headers)
    assert (await client.get(f"{BASE}/{session['id']}", headers=other.headers)).status_code == 404


LIVE_STEPS = ["document", "selfie_liveness", "screening"]


async def test_live_sessions_run_the_engines_and_bill_each_step_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account("live", balance=100_000)
    customer = {"first_name": "Akinyi", "last_name": "Wanjiru"}

    async def session_for(reference: str) -> dict[str, Any]:
        made = await create(client, account.headers, reference, steps=LIVE_STEPS, customer=customer)
        assert made["price"] == 1500 + 1000 + 1000
        return made

    live = await session_for("live-1")
    answer, _ = await _run(client, monkeypatch, live["url"], id_number=None)
    assert answer.status_code == 200, answer.text
    got = await read_session(client, account.headers, live["id"])
    selfie = results(got)["selfie_liveness"]
    assert selfie["status"] == "passed", got
    assert selfie["evidence"]["observed"] == selfie["evidence"]["challenge"]
    assert selfie["evidence"]["distance"] < 0.6
    assert got["state"] == "completed", got
    # This server has no live PEP list: screening asks for review and is not charged.
    assert results(got)["screening"]["status"] == "review"
    assert results(got)["screening"]["reason"].startswith("not every list could be screened")
    assert got["charged_amount"] == 2500
    assert [r["charged"] for r in got["results"]] == [True, True, False]
    sent = await events(db, account.org_id, live["id"])
    assert sent[-1]["type"] == "verification_session.completed"

    # A still face and the wrong order: tests/engines/face/test_liveness.py and the browser.
    cases = [("other", "biden.jpg", None, "not the document's holder")]
    for name, face, shown, reason in cases:
        made = await session_for(f"live-{name}")
        answer, _ = await _run(
            client, monkeypatch, made["url"], id_number=None, face=face, shown=shown
        )
        got = await read_session(client, account.headers, made["id"])
        assert got["state"] == "failed", got
        assert reason in results(got)["selfie_liveness"]["reason"], got
        sent = await events(db, account.org_id, made["id"])
        assert sent[-1]["type"] == "verification_session.failed"


async def test_a_live_sequence_in_the_wrong_order_fails(
    client: httpx.AsyncClient, make_account: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = await make_account("live", balance=100_000)
    made = await create(
        client, account.headers, "live-order", steps=["document", "selfie_liveness"]
    )
    page = Page(client, made["url"])
    await page.start()
    challenge = await page.challenge()
    flipped = ["turn_right" if s == "turn_left" else "turn_left" for s in challenge["steps"]]
    frames = capture("obama2.jpg", flipped, challenge["steps"])
    after_challenge(monkeypatch, challenge)
    answer = await page.submit(
        {"nonce": challenge["nonce"], "document_image": data_url(card(), "png"), "frames": frames}
    )
    assert answer.json()["status"] == "failed"
    got = await read_session(client, account.headers, made["id"])
    assert "step 1 asked to turn" in results(got)["selfie_liveness"]["reason"]
    assert got["charged_amount"] == 2500  # both steps ran: each charged once


def test_the_rendered_face_is_a_camera_frame() -> None:
    assert len(jpeg(portrait("obama2.jpg"))) < 40_000


async def test_a_retried_create_with_its_idempotency_key_is_the_same_session(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    body = {
        "steps": ["document", "selfie_liveness"],
        "customer_reference": "retry-1",
        "consent": CONSENT,
    }
    headers = account.headers | {"Idempotency-Key": "create-retry-1"}
    first = await client.post(BASE, json=body, headers=headers)
    again = await client.post(BASE, json=body, headers=headers)
    assert first.status_code == again.status_code == 201, again.text
    assert first.json()["data"]["id"] == again.json()["data"]["id"]
    assert first.json()["data"]["url"] == again.json()["data"]["url"]
    listed = (await client.get(BASE, headers=account.headers)).json()
    assert listed["pagination"]["total_items"] == 1
    # The reservation was made once: 2,500 of 10,000 held, so three more sessions fit, and
    # the fifth is 402 (a second reservation for the retry would make it the fourth).
    made = 1
    for n in range(5):
        more = {
            "steps": ["document", "selfie_liveness"],
            "customer_reference": f"more-{n}",
            "consent": CONSENT,
        }
        got = await client.post(BASE, json=more, headers=account.headers)
        if got.status_code == 402:
            break
        assert got.status_code == 201, got.text
        made += 1
    assert made == 4


class _Crash(Exception):
    """The process dying while the submission's steps run."""


async def test_a_submission_whose_run_dies_ends_failed_uncharged_by_its_job(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Steps run inside the submit request: when that run never finishes, the job queued with
    the move to submitted ends the session (decision review, every step not run, nothing
    charged, the failed webhook) instead of leaving it submitted for ever."""
    from hakiki.verification import service, steps

    async def dies(*_args: Any, **_kwargs: Any) -> Any:
        raise _Crash

    monkeypatch.setattr(steps, "run_all", dies)
    monkeypatch.setattr(service, "INTERRUPTED_AFTER_SECONDS", 0)
    account = await make_account("live", balance=100_000)
    session = await create(
        client, account.headers, "cust-crash", steps=LIVE_STEPS,
        customer={"first_name": "Akinyi", "last_name": "Wanjiru"},
    )  # fmt: skip
    try:
        answer, _ = await _run(client, monkeypatch, session["url"], id_number=None)
        assert answer.status_code == 500
    except _Crash:
        pass

    async def ended() -> dict[str, Any] | None:
        got = await read_session(client, account.headers, session["id"])
        return got if got["state"] != "submitted" else None

    got = await until(ended, what="the interrupted session to end")
    assert got["state"] == "failed" and got["decision"] == "review", got
    assert {r["status"] for r in got["results"]} == {"not_run"}
    assert all("interrupted" in r for r in got["reasons"]) and got["charged_amount"] == 0
    sent = await events(db, account.org_id, session["id"])
    assert [e["type"] for e in sent] == ["verification_session.failed"]
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == 100_000, wallet


def test_a_step_that_did_not_run_is_never_approved() -> None:
    from hakiki.verification.service import decide
    from hakiki.verification.steps import StepOutcome

    passed, unrun = StepOutcome("passed", "ok"), StepOutcome("not_run", "no list")
    assert decide({"document": passed, "screening": unrun})[:2] == ("completed", "review")
    assert decide({"document": unrun})[:2] == ("failed", "review")
    assert decide({"document": passed})[:2] == ("completed", "approved")

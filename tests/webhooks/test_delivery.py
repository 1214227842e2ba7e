"""Deliveries: retries on the backoff schedule (the clock moved by hand), exhaustion and
resend, timeouts and redirects, rotated secrets, deleted endpoints."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.jobs import repository as jobs
from hakiki.core.runtime import Runtime
from hakiki.webhooks.delivery import BACKOFF, MAX_ATTEMPTS
from hakiki.webhooks.signing import signed_headers
from tests.conftest import AccountFactory
from tests.webhooks.conftest import (
    create_endpoint,
    deliveries,
    delivery_after,
    delivery_job,
    emit_now,
    eventually,
    hurry,
)
from tests.webhooks.receiver import Receiver, verify

RESEND = "/v3/account/webhooks/deliveries/{}/resend"


def test_the_schedule_spans_about_a_day() -> None:
    assert MAX_ATTEMPTS == 8
    assert timedelta(hours=24) < timedelta(seconds=sum(BACKOFF)) < timedelta(hours=30)


async def test_a_receiver_failing_twice_gets_the_third_attempt(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    receiver.fail_with = [500, 302]
    event_id = await emit_now(db, account)

    first = await delivery_after(client, db, account, event_id, 1)
    assert first["status"] == "pending"
    job = await delivery_job(db, first["id"])
    assert timedelta(seconds=3) < as_utc(job["run_after"]) - utcnow() <= timedelta(seconds=5)
    await hurry(db, first["id"])
    second = await delivery_after(client, db, account, event_id, 2)
    job = await delivery_job(db, first["id"])
    assert as_utc(job["run_after"]) - utcnow() > timedelta(minutes=4)  # 5 min
    await hurry(db, first["id"])
    third = await delivery_after(client, db, account, event_id, 3)

    assert second["status"] == "pending" and third["status"] == "delivered"
    log = [(a["status_code"], a["error"]) for a in third["attempts"]]
    assert log == [
        (500, "HTTP 500"),
        (302, "HTTP 302 (redirects are not followed)"),
        (200, None),
    ]
    assert len(receiver.received) == 3  # the redirect was not followed
    assert {m.headers["webhook-id"] for m in receiver.received} == {event_id}
    assert all(m.problem is None for m in receiver.received)


async def test_exhausted_deliveries_fail_and_can_be_resent(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    receiver.fail_with = [503] * MAX_ATTEMPTS
    event_id = await emit_now(db, account)
    for attempt in range(1, MAX_ATTEMPTS):
        delivery = await delivery_after(client, db, account, event_id, attempt)
        assert delivery["status"] == "pending"
        await hurry(db, delivery["id"])
    failed = await delivery_after(client, db, account, event_id, MAX_ATTEMPTS)
    assert failed["status"] == "failed" and failed["delivered_at"] is None
    assert [a["status_code"] for a in failed["attempts"]] == [503] * MAX_ATTEMPTS
    assert (await delivery_job(db, failed["id"]))["status"] == "failed"
    listed = await client.get(
        "/v3/account/webhooks/deliveries",
        params={"status": "failed", "endpoint_id": endpoint["id"]},
        headers=account.headers,
    )
    assert [d["id"] for d in listed.json()["data"]] == [failed["id"]]

    resent = await client.post(RESEND.format(failed["id"]), headers=account.headers)
    assert resent.status_code == 202 and resent.json()["status"] == "pending"
    delivered = await delivery_after(client, db, account, event_id, MAX_ATTEMPTS + 1)
    assert delivered["status"] == "delivered"
    assert len(receiver.accepted()) == 1

    # A delivered one is sent again only when asked, with the same webhook-id and body.
    again = await client.post(RESEND.format(failed["id"]), headers=account.headers)
    assert again.status_code == 202
    await delivery_after(client, db, account, event_id, MAX_ATTEMPTS + 2)
    first, second = receiver.accepted()
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == event_id
    assert first.body == second.body

    missing = await client.post(RESEND.format("whd_nope"), headers=account.headers)
    assert missing.status_code == 404
    stranger = await make_account("sandbox")
    assert (
        await client.post(RESEND.format(failed["id"]), headers=stranger.headers)
    ).status_code == 404


async def test_a_slow_receiver_times_out_and_is_tried_again(
    client: httpx.AsyncClient,
    db: Database,
    make_account: AccountFactory,
    receiver: Receiver,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        runtime, "settings", runtime.settings.model_copy(update={"webhook_timeout_seconds": 0.3})
    )
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    receiver.delay = 1.0
    event_id = await emit_now(db, account)
    slow = await delivery_after(client, db, account, event_id, 1)
    [attempt] = slow["attempts"]
    assert attempt["status_code"] is None and attempt["error"] == "timed out after 0.3 s"
    assert attempt["latency_ms"] >= 250
    receiver.delay = 0
    await hurry(db, slow["id"])
    assert (await delivery_after(client, db, account, event_id, 2))["status"] == "delivered"


async def test_after_a_rotation_both_secrets_sign_during_the_grace_period(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    old = endpoint["secret"]
    rotated = await client.post(
        f"/v3/account/webhooks/{endpoint['id']}/rotate-secret", headers=account.headers
    )
    new = rotated.json()["secret"]
    receiver.secrets = [new]  # the receiver switched to the new secret at once
    await emit_now(db, account)
    [message] = await eventually(receiver.accepted)
    assert message.problem is None
    assert len(message.headers["webhook-signature"].split(" ")) == 2
    # A receiver still holding the old secret accepts it too.
    assert verify([old], message.headers, message.body) is None
    assert verify(["whsec_" + "A" * 43 + "="], message.headers, message.body) is not None


async def test_a_deleted_endpoint_gets_nothing_more(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    receiver.fail_with = [500]
    event_id = await emit_now(db, account)
    delivery = await delivery_after(client, db, account, event_id, 1)
    deleted = await client.delete(f"/v3/account/webhooks/{endpoint['id']}", headers=account.headers)
    assert deleted.status_code == 204
    await hurry(db, delivery["id"])
    await eventually(lambda: _job_status(db, delivery["id"], "succeeded"))
    [after] = await deliveries(client, account, event_id=event_id)
    assert after["status"] == "failed" and after["attempt_count"] == 1
    assert len(receiver.received) == 1
    resent = await client.post(RESEND.format(delivery["id"]), headers=account.headers)
    assert resent.status_code == 409


async def _job_status(db: Database, delivery_id: str, status: str) -> bool:
    return (await delivery_job(db, delivery_id))["status"] == status


def test_the_receiver_refuses_stale_or_forged_messages() -> None:
    secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = '{"id":"evt_1"}'
    stale = signed_headers("evt_1", datetime.now(UTC) - timedelta(minutes=6), body, [secret])
    assert verify([secret], stale, body.encode()) == "timestamp outside the tolerance"
    fresh = signed_headers("evt_1", datetime.now(UTC), body, [secret])
    assert verify([secret], fresh, body.encode()) is None
    assert verify([secret], fresh, b'{"id":"evt_2"}') == "no matching signature"
    assert verify([secret], {**fresh, "webhook-id": "evt_2"}, body.encode()) is not None
    assert int(fresh["webhook-timestamp"]) == pytest.approx(time.time(), abs=2)


async def test_a_delivery_whose_job_died_every_time_ends_failed_and_can_be_resent(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    receiver.fail_with = [503]
    event_id = await emit_now(db, account)
    delivery = await delivery_after(client, db, account, event_id, 1)
    job = await delivery_job(db, delivery["id"])
    # As a process killed during the last attempt leaves it: running, lease expired.
    async with transaction(db) as conn:
        await conn.execute(
            update(jobs.jobs)
            .where(jobs.jobs.c.id == job["id"])
            .values(
                status="running",
                attempts=MAX_ATTEMPTS,
                lease_token="lease_dead",
                lease_until=utcnow() - timedelta(seconds=1),
            )
        )

    async def given_up() -> dict[str, Any] | None:
        found = (await deliveries(client, account, event_id=event_id))[0]
        return found if found["status"] == "failed" else None

    failed = await eventually(given_up)
    assert failed["attempt_count"] == 1  # the dead attempts never reached the receiver
    assert (await delivery_job(db, delivery["id"]))["status"] == "failed"
    resent = await client.post(RESEND.format(delivery["id"]), headers=account.headers)
    assert resent.status_code == 202, resent.text
    assert (await delivery_after(client, db, account, event_id, 2))["status"] == "delivered"

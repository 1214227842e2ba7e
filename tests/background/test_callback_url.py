"""A request's callback_url receives that request's events through the webhooks machinery:
signed with the callback_secret of the 201 (verified with the standardwebhooks library and
with the spec-written receiver), retried after a failure, logged and resendable, in sequence,
never another request's events, and not listed with the organisation's endpoints."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest_asyncio
from sqlalchemy import select, update
from standardwebhooks.webhooks import Webhook

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.runtime import Runtime
from hakiki.webhooks.tables import webhook_endpoints
from tests.background.helpers import candidate, events, status_becomes
from tests.conftest import AccountFactory
from tests.support.consent import CONSENT
from tests.webhooks.conftest import (
    create_endpoint,
    deliveries,
    delivery_job,
    eventually,
    hurry,
)
from tests.webhooks.receiver import Receiver, run_receiver

BASE = "/v3/background/candidates"


@pytest_asyncio.fixture
async def receiver(db: Database) -> AsyncIterator[Receiver]:
    """A local receiver; afterwards the endpoints and callbacks are deleted, so nothing is
    retried towards it once it has stopped."""
    with run_receiver() as running:
        yield running
    async with transaction(db) as conn:
        await conn.execute(
            update(webhook_endpoints)
            .where(webhook_endpoints.c.deleted_at.is_(None))
            .values(deleted_at=utcnow())
        )


def of(receiver: Receiver, reference: str) -> list[dict[str, Any]]:
    """The events the receiver took for one request, in the order they arrived."""
    return [m.json for m in receiver.accepted() if m.json["resource_id"] == reference]


async def test_callback_receives_every_event_of_its_request_signed_and_in_sequence(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    receiver: Receiver,
) -> None:
    account = await make_account()
    body = {
        "package_id": "spk_ke_basic_identity",
        "consent": CONSENT,
        "candidates": [candidate("wanjiru+complete@example.com"), candidate("juma@example.com")],
        "callback_url": receiver.url,
    }
    made = await client.post(BASE, json=body, headers=account.headers)
    assert made.status_code == 201, made.text
    secret = made.json()["data"]["callback_secret"]
    assert secret.startswith("whsec_") and len(secret) > 40
    receiver.secrets = [secret]
    done_ref, waiting_ref = (r["reference"] for r in made.json()["data"]["requests"])
    assert {r["callback_url"] for r in made.json()["data"]["requests"]} == {receiver.url}
    await status_becomes(client, account.headers, done_ref, "completed")
    stored = await events(db, account.org_id, done_ref)
    await eventually(lambda: len(of(receiver, done_ref)) == len(stored))

    got = of(receiver, done_ref)
    assert sorted(e["sequence"] for e in got) == list(range(1, len(stored) + 1))
    assert [e["id"] for e in sorted(got, key=lambda e: e["sequence"])] == [e["id"] for e in stored]
    assert max(got, key=lambda e: e["sequence"])["type"] == "background_check.completed"
    assert {m.problem for m in receiver.received} == {None}  # the spec's own verification
    for message in receiver.received:
        verified = Webhook(secret).verify(message.body, message.headers)
        assert verified["resource_id"] in (done_ref, waiting_ref)
    # The other candidate's request has its own callback: its invitation, nothing of the first.
    assert [e["data"]["status"] for e in of(receiver, waiting_ref)] == ["pending"]
    assert len(receiver.received) == len(stored) + 1  # each event once
    listed = await client.get("/v3/account/webhooks", headers=account.headers)
    assert listed.json()["data"] == []  # callbacks are not the organisation's endpoints
    async with read(db) as conn:
        stored_secrets = (
            await conn.execute(
                select(webhook_endpoints.c.secret_encrypted).where(
                    webhook_endpoints.c.resource_id.in_([done_ref, waiting_ref])
                )
            )
        ).scalars()
        kept = list(stored_secrets)
    assert len(kept) == 2 and all(secret not in value for value in kept)
    assert {runtime.vault.decrypt(value) for value in kept} == {secret}  # encrypted at rest


async def test_a_failed_callback_is_retried_logged_and_resendable(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    receiver: Receiver,
) -> None:
    account = await make_account()
    receiver.fail_with = [500]
    body = {
        "package_id": "spk_ke_basic_identity",
        "consent": CONSENT,
        "candidates": [candidate()],
        "callback_url": receiver.url,
    }
    made = await client.post(BASE, json=body, headers=account.headers)
    assert made.status_code == 201, made.text
    receiver.secrets = [made.json()["data"]["callback_secret"]]
    [first] = await eventually(lambda: deliveries(client, account))

    async def attempted(count: int) -> dict[str, Any] | None:
        [found] = await deliveries(client, account)
        return found if found["attempt_count"] >= count else None

    failed_once = await eventually(lambda: attempted(1))
    assert failed_once["status"] == "pending"
    assert failed_once["attempts"][0]["status_code"] == 500
    await eventually(lambda: _queued(db, first["id"]))
    await hurry(db, first["id"])  # the 5 s backoff "passes"
    delivered = await eventually(lambda: attempted(2))
    assert delivered["status"] == "delivered"
    assert [a["status_code"] for a in delivered["attempts"]] == [500, 200]
    assert [m.status for m in receiver.received] == [500, 200]
    assert receiver.received[0].headers["webhook-id"] == receiver.received[1].headers["webhook-id"]

    resend = f"/v3/account/webhooks/deliveries/{first['id']}/resend"
    again = await client.post(resend, headers=account.headers)
    assert again.status_code == 202, again.text
    await eventually(lambda: len(receiver.accepted()) == 2)
    assert (
        receiver.received[-1].json["resource_id"] == made.json()["data"]["requests"][0]["reference"]
    )
    stranger = await make_account()
    assert (await client.post(resend, headers=stranger.headers)).status_code == 404
    # the callback is not one of the organisation's endpoints: it cannot be read, deleted or
    # rotated through them
    callback = f"/v3/account/webhooks/{first['endpoint_id']}"
    assert (await client.get(callback, headers=account.headers)).status_code == 404
    assert (await client.delete(callback, headers=account.headers)).status_code == 404
    rotate = await client.post(f"{callback}/rotate-secret", headers=account.headers)
    assert rotate.status_code == 404


async def _queued(db: Database, delivery_id: str) -> bool:
    return bool((await delivery_job(db, delivery_id))["status"] == "queued")


async def test_organisation_endpoints_and_the_callback_both_receive_with_one_sequence(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    receiver: Receiver,
) -> None:
    account = await make_account()
    with run_receiver() as organisation:
        endpoint = await create_endpoint(client, account, organisation.url)
        organisation.secrets = [endpoint["secret"]]
        body = {
            "package_id": "spk_ke_basic_identity",
            "consent": CONSENT,
            "candidates": [candidate("achieng+expire@example.com")],
            "callback_url": receiver.url,
        }
        headers = account.headers | {"Idempotency-Key": "callback-once"}
        made = await client.post(BASE, json=body, headers=headers)
        replay = await client.post(BASE, json=body, headers=headers)
        assert made.status_code == replay.status_code == 201
        assert replay.json() == made.json()  # the same secret, no second request
        receiver.secrets = [made.json()["data"]["callback_secret"]]
        reference = made.json()["data"]["requests"][0]["reference"]
        await status_becomes(client, account.headers, reference, "expired")
        await eventually(lambda: len(receiver.accepted()) == len(organisation.accepted()) == 2)
    for got in (receiver, organisation):
        assert sorted((m.json["sequence"], m.json["data"]["status"]) for m in got.accepted()) == [
            (1, "pending"),
            (2, "expired"),
        ]
        assert {m.problem for m in got.received} == {None}
    assert (
        receiver.received[0].headers["webhook-id"] == organisation.received[0].headers["webhook-id"]
    )

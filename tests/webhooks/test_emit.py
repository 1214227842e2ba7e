"""emit(): the event and its deliveries exist exactly when the business transaction commits;
sequences count per resource; only subscribed endpoints of the same environment get it."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import func, select

from hakiki.core.database import Database, read, transaction
from hakiki.webhooks.service import emit
from hakiki.webhooks.tables import webhook_deliveries, webhook_events
from tests.conftest import AccountFactory
from tests.webhooks.conftest import create_endpoint, deliveries, emit_now, eventually
from tests.webhooks.receiver import Receiver


async def test_an_emitted_event_is_delivered_signed(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    event_id = await emit_now(
        db, account, resource_id="ver_42", data={"status": "VERIFIED", "reference": "ref_1"}
    )
    [message] = await eventually(receiver.accepted)
    assert message.problem is None and message.status == 200
    assert message.headers["webhook-id"] == event_id
    assert message.headers["content-type"] == "application/json"
    body = message.json
    assert list(body) == ["id", "type", "occurred_at", "sequence", "resource_id", "data"]
    assert body["id"] == event_id and body["type"] == "verification.completed"
    assert body["sequence"] == 1 and body["resource_id"] == "ver_42"
    assert body["data"] == {"status": "VERIFIED", "reference": "ref_1"}
    assert body["occurred_at"].endswith("Z")

    async def delivered() -> list[dict[str, object]]:
        found = await deliveries(client, account, event_id=event_id)
        return found if found and found[0]["status"] == "delivered" else []

    [delivery] = await eventually(delivered)
    assert delivery["endpoint_id"] == endpoint["id"]
    assert delivery["event_type"] == "verification.completed"
    assert delivery["attempt_count"] == 1 and delivery["delivered_at"] is not None
    [attempt] = delivery["attempts"]
    assert attempt["status_code"] == 200 and attempt["error"] is None
    assert attempt["latency_ms"] >= 0


async def test_sequence_counts_per_resource(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    for resource in ("ver_a", "ver_a", "ver_b", "ver_a"):
        await emit_now(db, account, resource_id=resource)
    await emit_now(db, account, event_type="wallet.low_balance", resource_id=None, data={})
    messages = await eventually(lambda: len(receiver.accepted()) == 5 and receiver.accepted())
    seen = sorted((m.json.get("resource_id", "-"), m.json["sequence"]) for m in messages)
    assert seen == [("-", 1), ("ver_a", 1), ("ver_a", 2), ("ver_a", 3), ("ver_b", 1)]
    assert "resource_id" not in next(
        m.json for m in messages if m.json["type"] == "wallet.low_balance"
    )
    # Another organisation's resource of the same id counts on its own.
    other = await make_account("sandbox")
    async with transaction(db) as conn:
        other_event = await emit(
            conn,
            org_id=other.org_id,
            environment="sandbox",
            event_type="verification.failed",
            resource_id="ver_a",
            data={},
        )
    async with read(db) as conn:
        sequence = (
            await conn.execute(
                select(webhook_events.c.sequence).where(webhook_events.c.id == other_event)
            )
        ).scalar_one()
    assert sequence == 1


async def test_an_event_of_a_rolled_back_transaction_never_exists(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    with pytest.raises(RuntimeError):
        async with transaction(db) as conn:
            lost = await emit(
                conn,
                org_id=account.org_id,
                environment="sandbox",
                event_type="verification.completed",
                resource_id="ver_x",
                data={},
            )
            raise RuntimeError("the business write failed")
    kept = await emit_now(db, account, resource_id="ver_x")
    [message] = await eventually(receiver.accepted)
    assert message.json["id"] == kept
    async with read(db) as conn:
        for table, column in ((webhook_events, "id"), (webhook_deliveries, "event_id")):
            query = select(func.count()).where(table.c[column] == lost)
            assert (await conn.execute(query)).scalar_one() == 0
    # The rolled-back event did not use up a sequence number either.
    assert message.json["resource_id"] == "ver_x" and message.json["sequence"] == 1


async def test_only_subscribed_endpoints_of_the_same_environment_get_an_event(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    everything = await create_endpoint(client, account, receiver.url)
    await create_endpoint(client, account, receiver.url, events=["bulk_scan.completed"])
    receiver.secrets = [everything["secret"]]
    live = await make_account("live")  # another environment (and organisation)
    await create_endpoint(client, live, receiver.url.replace("http://", "https://"))
    event_id = await emit_now(db, account)
    found = await deliveries(client, account, event_id=event_id)
    assert [d["endpoint_id"] for d in found] == [everything["id"]]
    assert await deliveries(client, live) == []


async def test_unknown_event_types_are_refused(db: Database, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    with pytest.raises(ValueError, match="unknown event type"):
        await emit_now(db, account, event_type="verification.maybe")

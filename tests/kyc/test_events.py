"""A pending verification that ends emits verification.completed or verification.failed once,
in the transaction that finalises it, and it reaches a subscribed endpoint."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyc.helpers import events_for, post, wait_final
from tests.webhooks.conftest import create_endpoint, eventually
from tests.webhooks.receiver import run_receiver


async def test_sandbox_pending_completion_is_delivered_as_a_webhook(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    with run_receiver() as receiver:
        endpoint = await create_endpoint(
            client, account, receiver.url, events=["verification.completed"]
        )
        receiver.secrets = [endpoint["secret"]]
        body = (
            await post(client, "national-id", account.headers, country_code="KE", number="20000007")
        ).json()
        assert body["status"] == "PENDING"
        final = await wait_final(client, account.headers, body["reference"])
        assert final["status"] == "VERIFIED"
        [message] = await eventually(receiver.accepted)
    assert message.problem is None
    event = message.json
    assert event["type"] == "verification.completed"
    assert event["resource_id"] == body["reference"] and event["sequence"] == 1
    assert event["data"] == {
        "reference": body["reference"],
        "status": "VERIFIED",
        "response_code": "00",
        "state": "completed",
        "found": True,
        "document": {"type": "national_id", "country": "KE", "channel": "national_id"},
        "request_id": body["request_id"],
    }
    assert "identity" not in event["data"]  # personal data stays behind the API
    [stored] = await events_for(db, account.org_id, body["reference"])
    assert stored["type"] == "verification.completed"


async def test_a_verification_final_at_once_emits_no_event(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    body = (
        await post(client, "national-id", account.headers, country_code="KE", number="20000000")
    ).json()
    assert body["status"] == "VERIFIED"
    assert await events_for(db, account.org_id, body["reference"]) == []

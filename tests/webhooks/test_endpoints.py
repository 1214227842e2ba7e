"""The endpoints API over HTTP: create, list, get, rotate, delete; URL and field validation;
sandbox and live endpoints kept apart."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta

import httpx
import pytest

from hakiki.account import service as accounts
from hakiki.core.clock import utcnow
from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import Account, AccountFactory
from tests.webhooks.conftest import create_endpoint

PATH = "/v3/account/webhooks"


async def test_create_list_get_rotate_delete(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    created = await create_endpoint(
        client,
        account,
        "https://hooks.example.com/hakiki",
        events=["verification.completed", "verification.failed", "verification.completed"],
        description="Onboarding",
    )
    assert created["id"].startswith("whe_")
    assert created["events"] == ["verification.completed", "verification.failed"]
    assert created["description"] == "Onboarding"
    secret = created["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32
    everything = await create_endpoint(client, account, "http://hooks.example.com/all")
    assert everything["events"] is None

    listed = await client.get(PATH, params={"page_size": 1}, headers=account.headers)
    assert listed.status_code == 200
    body = listed.json()
    assert body["pagination"] == {"page": 1, "page_size": 1, "total_pages": 2, "total_items": 2}
    assert [e["id"] for e in body["data"]] == [everything["id"]]
    assert "secret" not in body["data"][0]

    one = await client.get(f"{PATH}/{created['id']}", headers=account.headers)
    assert one.status_code == 200 and "secret" not in one.json()
    assert one.json()["url"] == "https://hooks.example.com/hakiki"

    rotated = await client.post(f"{PATH}/{created['id']}/rotate-secret", headers=account.headers)
    assert rotated.status_code == 200
    assert rotated.json()["secret"].startswith("whsec_") and rotated.json()["secret"] != secret
    expires = datetime.fromisoformat(rotated.json()["previous_secret_expires_at"])
    assert abs(expires - (utcnow() + timedelta(hours=24))) < timedelta(minutes=1)

    deleted = await client.delete(f"{PATH}/{created['id']}", headers=account.headers)
    assert deleted.status_code == 204
    for method, path in (
        ("GET", f"{PATH}/{created['id']}"),
        ("DELETE", f"{PATH}/{created['id']}"),
        ("POST", f"{PATH}/{created['id']}/rotate-secret"),
    ):
        gone = await client.request(method, path, headers=account.headers)
        assert gone.status_code == 404 and gone.json()["error"] == "not_found"
    remaining = (await client.get(PATH, headers=account.headers)).json()["data"]
    assert [e["id"] for e in remaining] == [everything["id"]]


async def test_sandbox_and_live_endpoints_are_apart(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory
) -> None:
    sandbox = await make_account("sandbox")
    key = await accounts.create_key(db, sandbox.org_name, "live", None)
    live = Account(sandbox.org_id, sandbox.org_name, key.client_id, key.secret, "live")
    mine = await create_endpoint(client, sandbox, "https://hooks.example.com/sandbox")
    assert (await client.get(PATH, headers=live.headers)).json()["data"] == []
    other = await client.get(f"{PATH}/{mine['id']}", headers=live.headers)
    assert other.status_code == 404
    assert (await client.get(PATH)).status_code == 401


def _problem(response: httpx.Response, field: str) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    [detail] = [d for d in body["details"] if d["field"] == field]
    problem: str = detail["problem"]
    return problem


async def test_bad_requests_name_their_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    live = await make_account("live")
    post = lambda account, body: client.post(PATH, json=body, headers=account.headers)  # noqa: E731
    assert "https" in _problem(await post(live, {"url": "http://hooks.example.com/x"}), "url")
    sandbox = await make_account("sandbox")
    for url in ("ftp://hooks.example.com/x", "hooks.example.com/x", "https:///x", "http://a:b@h/"):
        _problem(await post(sandbox, {"url": url}), "url")
    _problem(await post(sandbox, {"url": "https://h.example/x", "events": ["nope"]}), "events.0")
    _problem(await post(sandbox, {"url": "https://h.example/x", "events": []}), "events")
    _problem(await post(sandbox, {"url": "https://h.example/x", "secret": "mine"}), "secret")
    _problem(await post(sandbox, {}), "url")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.1.10/hook",
        "http://172.16.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/hook",
        "http://[::1]/hook",
        "http://[fe80::1]/hook",
        "http://[::ffff:10.0.0.1]/hook",
        "http://0.0.0.0/hook",
        # IPv6 forms that embed a private IPv4 address (tests/webhooks/test_urls.py).
        "http://[::127.0.0.1]/hook",
        "http://[::ffff:0:7f00:1]/hook",
        "http://[64:ff9b::7f00:1]/hook",
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
        "http://[2002:7f00:1::]/hook",
        "http://[2002:a00:1::1]/hook",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
        "http://[64:ff9b:1::808:808]/hook",
    ],
)
async def test_private_addresses_are_refused_unless_allowed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
) -> None:
    account = await make_account("sandbox")
    strict = runtime.settings.model_copy(update={"webhooks_allow_private": False})
    monkeypatch.setattr(runtime, "settings", strict)
    refused = await client.post(PATH, json={"url": url}, headers=account.headers)
    assert "HAKIKI_WEBHOOKS_ALLOW_PRIVATE" in _problem(refused, "url")
    public = await client.post(
        PATH, json={"url": "http://93.184.215.14/hook"}, headers=account.headers
    )
    assert public.status_code == 201
    monkeypatch.undo()
    assert (await client.post(PATH, json={"url": url}, headers=account.headers)).status_code == 201


async def test_the_posts_take_an_idempotency_key(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """A retried create, rotation or resend with the same key answers as the first did and
    does nothing twice; the same key with another body is a 409."""
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": "create-1"}
    body = {"url": "https://hooks.example.com/once"}
    first = await client.post(PATH, json=body, headers=headers)
    again = await client.post(PATH, json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    listed = await client.get(PATH, headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 1
    other = await client.post(PATH, json={"url": "https://hooks.example.com/x"}, headers=headers)
    assert other.status_code == 409

    rotate = f"{PATH}/{first.json()['id']}/rotate-secret"
    rotate_headers = {**account.headers, "Idempotency-Key": "rotate-1"}
    rotated = await client.post(rotate, headers=rotate_headers)
    replayed = await client.post(rotate, headers=rotate_headers)
    assert rotated.status_code == replayed.status_code == 200
    assert replayed.json()["secret"] == rotated.json()["secret"] != first.json()["secret"]

    missing = await client.post(
        f"{PATH}/whe_missing/rotate-secret", headers={**account.headers, "Idempotency-Key": "r2"}
    )
    assert missing.status_code == 404
    missing_again = await client.post(
        f"{PATH}/whe_missing/rotate-secret", headers={**account.headers, "Idempotency-Key": "r2"}
    )
    assert missing_again.status_code == 404 and "idempotent-replayed" not in missing_again.headers

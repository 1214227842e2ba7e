"""Live requests: the package's price reserved per candidate (402 before anything is created
or sent), each automated check charged once when it runs (manual checks are free: your own
analyst works them), the reservation closed at completion, released when an invitation
expires unused."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.background.conftest import Sink
from tests.background.helpers import (
    PDF,
    candidate,
    events,
    invite,
    open_form,
    post_form,
    request_of,
    run_due_now,
    shift_clock,
    status_becomes,
    until,
    wallet_of,
)
from tests.conftest import AccountFactory, debit_count
from tests.support.consent import CONSENT

BASE = "/v3/background"
PACKAGE = {
    "name": "Agents",
    "country_code": "KE",
    "check_types": ["fraud_database", "criminal_record"],
}


async def _package(client: httpx.AsyncClient, headers: dict[str, str]) -> str:
    made = await client.post(f"{BASE}/packages", json=PACKAGE, headers=headers)
    assert made.status_code == 201, made.text
    assert made.json()["price"] == 500
    package_id: str = made.json()["id"]
    return package_id


async def test_402_before_anything_is_created_or_sent(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    smtp: Sink,
) -> None:
    account = await make_account("live", balance=750)
    package_id = await _package(client, account.headers)
    refused = await invite(
        client, account.headers, package_id, candidate("a@example.com"), candidate("b@example.com")
    )
    assert refused.status_code == 402 and refused.json()["error"] == "insufficient_funds"
    listed = await client.get(f"{BASE}/candidates", headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 0
    assert smtp.to("a@example.com") == []
    # the first candidate's reservation fitted, the second's did not: neither stands
    assert (await wallet_of(db, account.org_id))["reserved"] == 0


async def test_checks_charged_once_and_reservation_closed(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
) -> None:
    account = await make_account("live", balance=1_000)
    package_id = await _package(client, account.headers)
    made = await invite(client, account.headers, package_id, candidate("m@example.com"))
    assert made.status_code == 201
    request = made.json()["data"]["requests"][0]
    assert request["live"] is True and request["price"] == 500
    assert (await wallet_of(db, account.org_id))["available"] == 500
    url = request["invitation_url"]
    _page, csrf = await open_form(visitor, url)
    form = {"id_number": "20000000", "consent": "yes"}
    files = {"police_clearance": ("p.pdf", PDF, "application/pdf")}
    assert (await post_form(visitor, url, csrf, form, files)).status_code == 200

    async def fraud_checked() -> bool:
        got = await client.get(f"{BASE}/candidates/{request['reference']}", headers=account.headers)
        fraud = next(c for c in got.json()["data"]["checks"] if c["code"] == "fraud_database")
        return bool(fraud["status"] == "completed")

    await until(fraud_checked, what="the fraud database check")
    assert await debit_count(db, account.org_id) == 1
    recorded = await client.post(
        f"{BASE}/candidates/{request['reference']}/checks/criminal_record/result",
        json={"result": "clear", "evidence": {"certificate": "DCI-9"}},
        headers=account.headers,
    )
    assert recorded.status_code == 200
    done = request_of(recorded.json())
    assert done["state"] == "completed" and done["charged_amount"] == 500
    fraud = next(c for c in done["checks"] if c["code"] == "fraud_database")
    assert fraud["charged"] is True and fraud["result"] == "clear"
    assert await debit_count(db, account.org_id) == 1  # the manual check is free
    wallet = await wallet_of(db, account.org_id)
    assert wallet["balance"] == 500 and wallet["reserved"] == 0
    assert (await events(db, account.org_id, request["reference"]))[-1]["type"] == (
        "background_check.completed"
    )


async def test_an_unused_invitation_releases_its_reservation(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account("live", balance=1_000)
    package_id = await _package(client, account.headers)
    made = await invite(client, account.headers, package_id, candidate("x@example.com"))
    reference = made.json()["data"]["requests"][0]["reference"]
    assert (await wallet_of(db, account.org_id))["reserved"] == 500
    shift_clock(monkeypatch, timedelta(days=7, seconds=1))
    await run_due_now(db, "background.expire", reference)
    await status_becomes(client, account.headers, reference, "expired")
    wallet = await wallet_of(db, account.org_id)
    assert wallet == wallet | {"balance": 1_000, "reserved": 0}
    assert await debit_count(db, account.org_id) == 0
    # reinitiate reserves again for the checks still to run
    again = await client.post(f"{BASE}/candidates/{reference}/reinitiate", headers=account.headers)
    assert again.status_code == 200
    assert (await wallet_of(db, account.org_id))["reserved"] == 500


async def test_sandbox_never_reserves_or_charges(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    account = await make_account("sandbox")
    made = await invite(
        client, account.headers, "spk_ke_basic_identity", candidate("s+complete@example.com")
    )
    request = made.json()["data"]["requests"][0]
    assert request["price"] == 0
    await status_becomes(client, account.headers, request["reference"], "completed")
    assert await debit_count(db, account.org_id) == 0


async def test_an_idempotent_retry_creates_and_reserves_once(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    account = await make_account("live", balance=1_000)
    package_id = await _package(client, account.headers)
    body = {
        "package_id": package_id,
        "consent": CONSENT,
        "candidates": [candidate("i@example.com")],
    }
    headers = account.headers | {"Idempotency-Key": "invite-i-1"}
    first = await client.post(f"{BASE}/candidates", json=body, headers=headers)
    second = await client.post(f"{BASE}/candidates", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.headers.get("idempotent-replayed") == "true"
    assert first.json() == second.json()
    listed = await client.get(f"{BASE}/candidates", headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 1
    assert (await wallet_of(db, account.org_id))["reserved"] == 500
    other = await client.post(
        f"{BASE}/candidates",
        json=body | {"candidates": [candidate("j@example.com")]},
        headers=headers,
    )
    assert other.status_code == 409 and other.json()["error"] == "idempotency_conflict"

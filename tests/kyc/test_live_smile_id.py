"""The KYC endpoints with live keys for Kenya, Uganda and Tanzania, against the fake Smile ID:
found, not found, outages, refused credentials, the PENDING flow with its webhook event,
refunds and idempotency; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_smile_id import (
    KE_AUTHORITY_DOWN,
    KE_NATIONAL_ID,
    KE_NOT_FOUND,
    KE_PASSPORT,
    TZ_NIDA,
    UG_NIN,
    FakeSmileId,
    FaultMode,
)
from tests.kyc.helpers import (
    completion_job,
    events_for,
    ledger_kinds,
    post,
    run_job_now,
    status,
    wait_final,
)

PRICE = 2000
KE_ID = {"country_code": "KE", "number": KE_NATIONAL_ID}


@pytest.mark.parametrize(
    ("country", "number", "id_type", "first_name", "channel"),
    [
        ("KE", KE_NATIONAL_ID, "NATIONAL_ID", "John", "national_id"),
        ("UG", UG_NIN, "NATIONAL_ID_NO_PHOTO", "Amina", "nin"),
        ("TZ", TZ_NIDA, "NATIONAL_ID", "Neema", "nida"),
    ],
)
async def test_live_national_id_found_in_each_country_charged_once_and_pollable(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
    country: str,
    number: str,
    id_type: str,
    first_name: str,
    channel: str,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(
        client, "national-id", account.headers, country_code=country, number=number
    )
    body = response.json()
    assert response.status_code == 200, body
    assert (body["status"], body["response_code"], body["live"]) == ("VERIFIED", "00", True)
    assert body["provider"] == "smile_id" and body["reference"].startswith("ref_")
    assert body["data"]["document"] == {
        "type": "national_id",
        "country": country,
        "channel": channel,
    }
    identity = body["data"]["identity"]
    assert (identity["first_name"], identity["nationality"]) == (first_name, country)
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == PRICE
    assert await debit_count(db, account.org_id) == 1
    sent = fake_smile_id.last_request.json
    assert (sent["country"], sent["id_type"], sent["id_number"]) == (country, id_type, number)
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["data"] == body["data"]
    assert polled["billing"]["transaction_id"] == body["billing"]["transaction_id"]


async def test_live_passport_with_compare_mismatch_is_charged(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_smile_id: FakeSmileId
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await post(
            client,
            "passport",
            account.headers,
            country_code="KE",
            number=KE_PASSPORT,
            compare=True,
            first_name="Amina",
            last_name="Odhiambo",
        )
    ).json()
    assert (body["status"], body["data"]["comparison"]["match"]) == ("VERIFIED", True)
    other = (
        await post(
            client,
            "passport",
            account.headers,
            country_code="KE",
            number=KE_PASSPORT,
            compare=True,
            first_name="Grace",
            last_name="Chebet",
        )
    ).json()
    assert (other["status"], other["response_code"]) == ("MISMATCH", "04")
    assert other["billing"]["charged"] is True


async def test_live_not_found_is_billed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await post(client, "national-id", account.headers, country_code="KE", number=KE_NOT_FOUND)
    ).json()
    assert (body["status"], body["response_code"], body["found"]) == ("NOT_FOUND", "01", False)
    assert body["provider"] == "smile_id" and body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize(
    ("mode", "number"),
    [
        (FaultMode.HTTP_503, KE_NATIONAL_ID),
        (FaultMode.NORMAL, KE_AUTHORITY_DOWN),  # ResultCode 1015
        (FaultMode.GARBAGE, KE_NATIONAL_ID),
        (FaultMode.FORGED, KE_NATIONAL_ID),
    ],
)
async def test_live_outage_is_a_free_soft_error(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
    mode: FaultMode,
    number: str,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_smile_id.set_mode(mode)
    body = (
        await post(client, "national-id", account.headers, country_code="KE", number=number)
    ).json()
    assert (body["response_code"], body["status"], body["soft_error"], body["ok"]) == (
        "02", "SOURCE_UNAVAILABLE", True, False,
    )  # fmt: skip
    assert body["billing"]["charged"] is False and body["data"]["state"] == "failed"
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["available"]) == (10_000, 10_000)


async def test_live_refused_credentials_are_failed_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_smile_id.set_mode(FaultMode.UNAUTHORIZED)
    body = (await post(client, "national-id", account.headers, **KE_ID)).json()
    assert (body["status"], body["response_code"], body["ok"]) == ("FAILED", "09", False)
    assert body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 0


async def test_slow_smile_id_answers_pending_then_completes_with_a_webhook_event(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_smile_id: FakeSmileId,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_smile_id.set_mode(FaultMode.SLOW, slow_seconds=0.5)  # within the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    started = (
        await post(client, "national-id", account.headers, country_code="UG", number=UG_NIN)
    ).json()
    assert (started["status"], started["response_code"], started["async_pending"]) == (
        "PENDING", "05", True,
    )  # fmt: skip
    assert started["provider"] == "smile_id" and started["billing"]["charged"] is True
    final = await wait_final(client, account.headers, started["reference"])
    assert (final["status"], final["data"]["identity"]["last_name"]) == ("VERIFIED", "Nakato")
    assert final["billing"]["transaction_id"] == started["billing"]["transaction_id"]
    # The job, due anyway, finds it final: no second Smile ID job, nothing changes.
    job = await completion_job(db, account.org_id, started["reference"])
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"
    assert len(fake_smile_id.requests) == 1
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}
    [event] = await events_for(db, account.org_id, started["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.completed", "VERIFIED")
    assert UG_NIN not in str(event["data"]) and "Nakato" not in str(event["data"])


async def test_the_job_asks_smile_id_again_until_the_authority_answers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_smile_id: FakeSmileId,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_smile_id.set_mode(FaultMode.SLOW, slow_seconds=1.5)  # beyond the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    body = (
        await post(client, "national-id", account.headers, country_code="TZ", number=TZ_NIDA)
    ).json()
    assert body["status"] == "PENDING"
    job = await completion_job(db, account.org_id, body["reference"])
    fake_smile_id.set_mode(FaultMode.AUTHORITY_DOWN)  # 1015: retried later, still pending
    assert (await run_job_now(db, job["id"]))["status"] == "queued"
    assert (await status(client, account.headers, body["reference"])).json()["status"] == "PENDING"
    fake_smile_id.set_mode(FaultMode.NORMAL)
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["data"]["identity"]["first_name"]) == ("VERIFIED", "Neema")
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed"


async def test_pending_that_ends_unavailable_is_refunded_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_smile_id: FakeSmileId,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_smile_id.set_mode(FaultMode.SLOW, slow_seconds=1.5)
    account = await make_account("live", balance=10_000)
    body = (await post(client, "national-id", account.headers, **KE_ID)).json()
    assert body["status"] == "PENDING" and body["billing"]["charged"] is True
    fake_smile_id.set_mode(FaultMode.HTTP_503)
    job = await completion_job(db, account.org_id, body["reference"])
    assert (await run_job_now(db, job["id"], last_attempt=True))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert final["billing"]["reversal_transaction_id"] is not None
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.failed", "SOURCE_UNAVAILABLE")
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["available"]) == (10_000, 10_000)


async def test_live_idempotent_replay_is_not_charged_again_nor_asked_again(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "live-smile-kyc-1"}
    first = await client.post("/v3/kyc/national-id", json=KE_ID, headers=headers)
    second = await client.post("/v3/kyc/national-id", json=KE_ID, headers=headers)
    assert first.json()["status"] == "VERIFIED"
    assert second.content == first.content
    assert second.headers.get("idempotent-replayed") == "true"
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_smile_id.requests) == 1

"""The KYC endpoints with live keys against the fake Prembly: found, not found, outages, the
PENDING flow, refunds; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database, transaction
from hakiki.core.envelope import Outcome
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.core.wallet import service as wallet
from hakiki.identity.verify import Verified
from hakiki.kyc import repository
from hakiki.kyc.completion import COMPLETE_TASK, finalise
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_prembly import (
    DL_FOUND,
    DL_NAMES,
    NIN_FOUND,
    PASSPORT_FOUND,
    PASSPORT_LAST_NAME,
    FakePrembly,
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
NIN = {"country_code": "NG", "number": NIN_FOUND}


async def test_live_found_is_charged_once_and_pollable(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, "national-id", account.headers, **NIN)
    body = response.json()
    assert (body["status"], body["response_code"], body["live"]) == ("VERIFIED", "00", True)
    assert body["provider"] == "prembly" and body["reference"].startswith("ref_")
    assert body["data"]["identity"]["first_name"] == "Emeka"
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == PRICE
    assert await debit_count(db, account.org_id) == 1
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["billing"]["transaction_id"] == body["billing"]["transaction_id"]
    assert polled["data"] == body["data"]


async def test_live_drivers_license_and_passport(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=10_000)
    first, last = DL_NAMES
    licence = await post(
        client,
        "drivers-license",
        account.headers,
        country_code="NG",
        number=DL_FOUND,
        first_name=first,
        last_name=last,
        compare=True,
    )
    assert licence.json()["status"] == "VERIFIED", licence.text
    assert licence.json()["data"]["comparison"]["match"] is True
    passport = await post(
        client,
        "passport",
        account.headers,
        country_code="NG",
        number=PASSPORT_FOUND,
        last_name=PASSPORT_LAST_NAME,
    )
    assert passport.json()["data"]["identity"]["first_name"] == "Aisha"


async def test_live_not_found_is_billed(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await post(client, "national-id", account.headers, country_code="NG", number="70999999999")
    ).json()
    assert (body["status"], body["response_code"], body["found"]) == ("NOT_FOUND", "01", False)
    assert body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize("mode", [FaultMode.HTTP_503, FaultMode.SERVICE_DOWN, FaultMode.GARBAGE])
async def test_live_outage_is_a_free_soft_error(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    mode: FaultMode,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_prembly.set_mode(mode)
    body = (await post(client, "national-id", account.headers, **NIN)).json()
    assert (body["response_code"], body["status"], body["soft_error"], body["ok"]) == (
        "02", "SOURCE_UNAVAILABLE", True, False,
    )  # fmt: skip
    assert body["billing"]["charged"] is False and body["data"]["state"] == "failed"
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}
    summary = await client.get("/v3/account/wallet", headers=account.headers)
    assert summary.json()["available"] == 10_000


async def test_live_country_without_provider_is_503_and_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=10_000)
    # Neither Prembly nor Smile ID covers Tanzanian driving licences here.
    response = await post(
        client, "drivers-license", account.headers, country_code="TZ", number="4001234560"
    )
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    short = await make_account("live", balance=100)
    assert (await post(client, "national-id", short.headers, **NIN)).status_code == 402
    assert await debit_count(db, account.org_id) == 0


async def test_slow_upstream_answers_pending_then_completes_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_prembly: FakePrembly,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_prembly.set_mode(FaultMode.SLOW, slow_seconds=0.5)  # within the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    started = await post(client, "national-id", account.headers, **NIN)
    body = started.json()
    assert (body["status"], body["response_code"], body["async_pending"]) == ("PENDING", "05", True)
    assert body["data"]["state"] == "pending" and body["billing"]["charged"] is True
    # The look-up under way finishes it; the job, run anyway, finds it final and changes nothing.
    final = await wait_final(client, account.headers, body["reference"])
    assert (final["status"], final["data"]["identity"]["first_name"]) == ("VERIFIED", "Emeka")
    assert final["data"]["state"] == "completed"
    assert final["billing"]["transaction_id"] == body["billing"]["transaction_id"]
    job = await completion_job(db, account.org_id, body["reference"])
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"
    assert (await status(client, account.headers, body["reference"])).json()["data"] == final[
        "data"
    ]
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.completed", "VERIFIED")


async def test_the_job_finishes_what_the_timed_out_lookup_could_not(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_prembly: FakePrembly,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_prembly.set_mode(FaultMode.SLOW, slow_seconds=1.5)  # beyond the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    body = (await post(client, "national-id", account.headers, **NIN)).json()
    assert body["status"] == "PENDING"
    job = await completion_job(db, account.org_id, body["reference"])
    fake_prembly.set_mode(FaultMode.HTTP_503)
    retried = await run_job_now(db, job["id"])  # still down: retried later, still pending
    assert retried["status"] == "queued"
    assert (await status(client, account.headers, body["reference"])).json()["status"] == "PENDING"
    fake_prembly.set_mode(FaultMode.NORMAL)
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["data"]["state"]) == ("VERIFIED", "completed")
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}


async def test_pending_that_ends_unavailable_is_refunded_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_prembly: FakePrembly,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sync_seconds", 0.1)
    fake_prembly.set_mode(FaultMode.SLOW, slow_seconds=1.5)
    account = await make_account("live", balance=10_000)
    body = (await post(client, "national-id", account.headers, **NIN)).json()
    assert body["status"] == "PENDING" and body["billing"]["charged"] is True
    fake_prembly.set_mode(FaultMode.HTTP_503)
    job = await completion_job(db, account.org_id, body["reference"])
    assert (await run_job_now(db, job["id"], last_attempt=True))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["response_code"], final["soft_error"]) == (
        "SOURCE_UNAVAILABLE", "02", True,
    )  # fmt: skip
    assert final["data"]["state"] == "failed"
    assert final["billing"]["reversal_transaction_id"] is not None
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert event["type"] == "verification.failed"
    assert event["data"]["status"] == "SOURCE_UNAVAILABLE"
    summary = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (summary["balance"], summary["available"]) == (10_000, 10_000)

    # The job delivered again, finalising again, reversing again: nothing changes.
    fake_prembly.set_mode(FaultMode.NORMAL)
    async with transaction(db) as conn:
        row = await repository.find(conn, account.org_id, "live", body["reference"])
        assert row is not None
        again = await enqueue(conn, COMPLETE_TASK, {"verification_id": row["id"]})
    assert (await run_job_now(db, again))["status"] == "succeeded"
    async with transaction(db) as conn:
        charge = await wallet.debit_of(conn, account.org_id, row["request_id"])
        assert charge is not None
        reversal = final["billing"]["reversal_transaction_id"]
        assert await wallet.reverse(conn, charge.transaction_id, "again") == reversal
    verified = Verified(Outcome.VERIFIED, "prembly", body["reference"], None)
    assert await finalise(runtime, row, verified, None) is False
    unchanged = (await status(client, account.headers, body["reference"])).json()
    assert {**unchanged, "request_id": None} == {**final, "request_id": None}
    assert len(await events_for(db, account.org_id, body["reference"])) == 1
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}


async def test_live_idempotent_replay_is_not_charged_again(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "live-kyc-1"}
    first = await client.post("/v3/kyc/national-id", json=NIN, headers=headers)
    second = await client.post("/v3/kyc/national-id", json=NIN, headers=headers)
    assert second.content == first.content
    assert second.headers.get("idempotent-replayed") == "true"
    assert await debit_count(db, account.org_id) == 1

"""POST /v3/vehicle/verify with live keys against the fake aggregator: found and not found
(charged once), outages and garbage (02, not charged), refused credentials (09, not
charged), slow (PENDING, then the look-up finishes it with a webhook), idempotency, 503
without a registry, and no personal data in the request log."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.core.runtime import Runtime
from hakiki.core.tables import request_logs as request_log
from hakiki.vehicle.registry import VehicleRegistries
from tests.conftest import AccountFactory, debit_count
from tests.kyc.helpers import ledger_kinds, run_job_now
from tests.support.registry_checks import check_row, completion_job, wait_event
from tests.vehicle import fake_aggregator
from tests.vehicle.fake_aggregator import FakeAggregator, Mode
from tests.vehicle.helpers import verify

PRICE = 1500
FOUND = {"registration_number": fake_aggregator.PLATE_FOUND}


async def test_found_is_charged_once_and_compared(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    response = await verify(client, account.headers, **FOUND, owner_name="John Kamau")
    body = response.json()
    assert (body["status"], body["response_code"], body["live"]) == ("VERIFIED", "00", True)
    assert body["provider"] == "prembly" and body["billing"]["amount"] == PRICE
    vehicle = body["data"]["vehicle"]
    assert vehicle["make"] == "TOYOTA" and vehicle["logbook_number"] == "A1234567"
    assert vehicle["owners"] == [{"name": fake_aggregator.OWNER, "id_number_masked": "*****789"}]
    assert body["data"]["owner_comparison"]["match"] is True
    assert body["data"]["decoded"]["plate"]["category"] == "civilian"
    assert await debit_count(db, account.org_id) == 1


async def test_another_owner_is_a_billed_mismatch(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, **FOUND, owner_name="Peter Ochieng")).json()
    assert (body["status"], body["response_code"]) == ("MISMATCH", "04")
    assert await debit_count(db, account.org_id) == 1


async def test_joint_owner_matches_and_caveat_warns(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_vehicle: FakeAggregator
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await verify(client, account.headers, registration_number="kda 001b",
                     owner_name="Grace Njoroge")
    ).json()  # fmt: skip
    assert body["status"] == "VERIFIED"
    assert body["data"]["owner_comparison"]["on_record"] == "GRACE WANJIKU NJOROGE"
    assert any("caveat" in w for w in body["data"]["warnings"])


async def test_chassis_lookup_flags_a_make_that_differs(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_vehicle: FakeAggregator
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await verify(client, account.headers, chassis_number=fake_aggregator.CHASSIS_FOUND)
    ).json()
    assert body["status"] == "VERIFIED"
    assert fake_vehicle.requests[-1]["json"] == {"chassis_number": "NZE121-1234567"}
    assert any("make (NISSAN)" in w for w in body["data"]["warnings"])  # a Toyota code


async def test_not_found_is_billed(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, registration_number="KZZ 999Z")).json()
    assert (body["status"], body["found"]) == ("NOT_FOUND", False)
    assert body["billing"]["charged"] is True and await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize(
    ("mode", "status"),
    [
        (Mode.HTTP_503, "SOURCE_UNAVAILABLE"),
        (Mode.SERVICE_DOWN, "SOURCE_UNAVAILABLE"),
        (Mode.GARBAGE, "SOURCE_UNAVAILABLE"),
        (Mode.UNEXPECTED_JSON, "SOURCE_UNAVAILABLE"),
        (Mode.UNAUTHORIZED, "FAILED"),
        (Mode.INSUFFICIENT_BALANCE, "FAILED"),
    ],
)
async def test_failures_are_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator, mode: Mode, status: str,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    fake_vehicle.set_mode(mode)
    body = (await verify(client, account.headers, **FOUND)).json()
    assert (body["status"], body["ok"], body["soft_error"]) == (status, False, True)
    assert body["billing"]["charged"] is False
    assert body["data"]["decoded"]["plate"]["registration_number"] == "KCB 234C"
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["available"] == 10_000


async def test_slow_registry_answers_pending_then_finishes_with_a_webhook(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator, runtime: Runtime, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.2)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=0.6)  # within the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, **FOUND, owner_name="John Kamau")).json()
    assert (body["status"], body["response_code"], body["async_pending"]) == ("PENDING", "05", True)
    assert body["billing"]["charged"] is True  # 05 is billable
    event = await wait_event(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed"
    assert (event["data"]["status"], event["data"]["owner_match"]) == ("VERIFIED", True)
    assert "KAMAU" not in str(event["data"]) and "A1234567" not in str(event["data"])
    row = await check_row(db, account.org_id, body["reference"])
    assert row is not None and row["state"] == "completed"
    assert len(fake_vehicle.requests) == 1  # finished by the look-up under way, not a second
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}


async def test_the_job_finishes_a_check_the_registry_left_hanging(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator, runtime: Runtime, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """The look-up times out (unavailable), so the durable job finishes: first while the
    registry is down (retried), then on its last attempt still down: failed, refunded."""
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.1)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=1.5)  # past the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, **FOUND)).json()
    assert body["status"] == "PENDING"
    await asyncio.sleep(1.2)  # the look-up under way gives up: left to the job
    row = await check_row(db, account.org_id, body["reference"])
    assert row is not None and row["state"] == "pending"
    job = await completion_job(db, row["id"])
    fake_vehicle.set_mode(Mode.HTTP_503)
    retried = await run_job_now(db, job["id"])
    assert retried["status"] == "queued"  # retried later
    finished = await run_job_now(db, job["id"], last_attempt=True)
    assert finished["status"] == "succeeded", finished
    event = await wait_event(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.failed", "SOURCE_UNAVAILABLE")
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["available"] == 10_000


async def test_the_job_completes_when_the_registry_is_back(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator, runtime: Runtime, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.1)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=1.5)
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, **FOUND)).json()
    await asyncio.sleep(1.2)
    row = await check_row(db, account.org_id, body["reference"])
    assert row is not None
    fake_vehicle.set_mode(Mode.NORMAL)
    await run_job_now(db, (await completion_job(db, row["id"]))["id"])
    event = await wait_event(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.completed", "VERIFIED")
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}


async def test_an_idempotent_retry_never_charges_twice(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "vehicle-retry-1"}
    first = await client.post("/v3/vehicle/verify", json=FOUND, headers=headers)
    second = await client.post("/v3/vehicle/verify", json=FOUND, headers=headers)
    assert second.headers.get("idempotent-replayed") == "true"
    assert second.json() == first.json()
    assert await debit_count(db, account.org_id) == 1 and len(fake_vehicle.requests) == 1
    other = await client.post(
        "/v3/vehicle/verify", json={"registration_number": "KZZ 999Z"}, headers=headers
    )
    assert other.status_code == 409


async def test_without_a_registry_live_calls_are_503_and_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(runtime.part(VehicleRegistries), "items", [])
    account = await make_account("live", balance=10_000)
    response = await verify(client, account.headers, **FOUND)
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}
    bad = await verify(client, account.headers, registration_number="KCI 123A")
    assert bad.status_code == 400  # the local check still runs first


async def test_short_wallet_is_402_before_the_registry(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_vehicle: FakeAggregator
) -> None:
    account = await make_account("live", balance=PRICE - 1)
    response = await verify(client, account.headers, **FOUND)
    assert response.status_code == 402 and fake_vehicle.requests == []


async def test_the_request_log_keeps_no_identifier_or_owner(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    body = (await verify(client, account.headers, **FOUND, owner_name="John Kamau")).json()
    async with read(db) as conn:
        row = (
            await conn.execute(select(request_log).where(request_log.c.id == body["request_id"]))
        ).one()
    text = str(dict(row._mapping))
    for secret in ("John", "Kamau", "KCB", "234C", fake_aggregator.OWNER):
        assert secret not in text


async def test_a_nigerian_plate_is_looked_up_without_separators_and_decoded(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    body = (
        await verify(client, account.headers, country_code="NG", registration_number="kja 123 ab")
    ).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "prembly")
    assert fake_vehicle.requests[-1]["json"] == {"vehicle_number": fake_aggregator.NG_PLATE_FOUND}
    plate = body["data"]["decoded"]["plate"]
    assert (plate["registration_number"], plate["lga"], plate["state"]) == (
        "KJA-123AB", "Ikeja", "Lagos",
    )  # fmt: skip
    vehicle = body["data"]["vehicle"]
    assert (vehicle["make"], vehicle["colour"], vehicle["owners"]) == ("TOYOTA CAMRY", "BLACK", [])
    assert await debit_count(db, account.org_id) == 1
    unknown = (
        await verify(client, account.headers, country_code="NG", registration_number="KJA-999ZZ")
    ).json()
    assert unknown["status"] == "NOT_FOUND"
    assert await debit_count(db, account.org_id) == 2


async def test_a_nigerian_check_outage_is_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database,
    fake_vehicle: FakeAggregator,
) -> None:  # fmt: skip
    account = await make_account("live", balance=10_000)
    fake_vehicle.set_mode(Mode.SERVICE_DOWN)
    body = (
        await verify(client, account.headers, country_code="NG", registration_number="KJA-123AB")
    ).json()
    assert body["status"] == "SOURCE_UNAVAILABLE"
    assert await debit_count(db, account.org_id) == 0

"""GET /v3/vehicle/status/{reference}: the vehicle check a reference names, as it stands
(sandbox and live, a PENDING one until it is final, with what the webhook leaves out: the
owners and the logbook), 404 for any other organisation's, environment's or category's
reference, and odd references refused; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyc.helpers import ledger_kinds, run_job_now
from tests.support.registry_checks import (
    check_row,
    completion_job,
    get_status,
    wait_event,
    wait_final,
)
from tests.vehicle import fake_aggregator
from tests.vehicle.fake_aggregator import FakeAggregator, Mode
from tests.vehicle.helpers import verify

FOUND = {"registration_number": fake_aggregator.PLATE_FOUND}


async def test_a_sandbox_answer_is_served_again_as_it_was(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    for plate in ("KCA 100A", "KCA 105A", "KCA 108A"):
        answer = (await verify(client, account.headers, registration_number=plate)).json()
        response = await get_status(client, "vehicle", account.headers, answer["reference"])
        assert response.status_code == 200, response.text
        fetched = response.json()
        assert fetched["request_id"] != answer["request_id"]  # the status call's own
        assert {**fetched, "request_id": ""} == {**answer, "request_id": ""}, plate


async def test_a_sandbox_pending_check_is_fetched_completed_with_its_owner(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "vehicle_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    sent = {"registration_number": "KCA 107A", "owner_name": "Achieng Otieno"}
    first = (await verify(client, account.headers, **sent)).json()
    assert (first["status"], first["data"]["state"]) == ("PENDING", "pending")
    assert "/v3/vehicle/status/" in first["message"]
    final = await wait_final(client, "vehicle", account.headers, first["reference"])
    assert (final["status"], final["response_code"], final["data"]["state"]) == (
        "VERIFIED", "00", "completed",
    )  # fmt: skip
    assert final["message"] == "Vehicle record found."
    vehicle = final["data"]["vehicle"]
    assert vehicle["owners"][0]["name"] == "Achieng Otieno" and vehicle["logbook_number"]
    assert final["data"]["owner_comparison"]["match"] is True
    event = await wait_event(db, account.org_id, first["reference"])
    assert "Achieng" not in str(event["data"]) and "logbook" not in str(event["data"])
    assert final["billing"]["reversal_transaction_id"] is None


async def test_a_live_pending_check_is_fetched_when_the_registry_answers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.2)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=0.6)  # within the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    first = (await verify(client, account.headers, **FOUND, owner_name="John Kamau")).json()
    assert first["status"] == "PENDING" and first["billing"]["charged"] is True
    final = await wait_final(client, "vehicle", account.headers, first["reference"])
    assert (final["status"], final["live"], final["provider"]) == ("VERIFIED", True, "prembly")
    vehicle = final["data"]["vehicle"]
    assert vehicle["owners"] == [{"name": fake_aggregator.OWNER, "id_number_masked": "*****789"}]
    assert vehicle["logbook_number"] == "A1234567"
    assert final["billing"]["transaction_id"] == first["billing"]["transaction_id"]
    assert final["billing"]["reversal_transaction_id"] is None
    assert len(fake_vehicle.requests) == 1
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}  # status: free


async def test_a_live_check_the_job_fails_shows_its_refund(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.1)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=1.5)  # past the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    first = (await verify(client, account.headers, **FOUND)).json()
    await asyncio.sleep(1.2)  # the look-up under way gives up: left to the job
    pending = (await get_status(client, "vehicle", account.headers, first["reference"])).json()
    assert (pending["status"], pending["data"]["state"]) == ("PENDING", "pending")
    fake_vehicle.set_mode(Mode.HTTP_503)
    row = await check_row(db, account.org_id, first["reference"])
    assert row is not None
    await run_job_now(db, (await completion_job(db, row["id"]))["id"], last_attempt=True)
    final = await wait_final(client, "vehicle", account.headers, first["reference"])
    assert (final["status"], final["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert final["billing"]["reversal_transaction_id"] is not None
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}


async def test_another_organisation_environment_or_category_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (await verify(client, account.headers, registration_number="KCA 100A")).json()
    stranger = await make_account("sandbox")
    live = await make_account("live")
    for headers in (stranger.headers, live.headers):
        missing = await get_status(client, "vehicle", headers, body["reference"])
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
        assert "vehicle check" in missing.json()["message"]
    for category in ("kyb", "tax"):
        other = await get_status(client, category, account.headers, body["reference"])
        assert other.status_code == 404, category


@pytest.mark.parametrize(
    ("reference", "status"),
    [
        ("ref%00x", 400),
        ("ref_%ED%A0%80", 404),  # an encoded surrogate: read as U+FFFD, so unknown
        ("r" * 5000, 404),
        ("%27%20OR%201%3D1--", 404),
        ("KCA%20100A", 404),
    ],
)
async def test_odd_references_are_clear_4xxs(
    client: httpx.AsyncClient, make_account: AccountFactory, reference: str, status: int
) -> None:
    account = await make_account("sandbox")
    response = await client.get(f"/v3/vehicle/status/{reference}", headers=account.headers)
    assert response.status_code == status, response.text
    if status == 400:
        assert response.json()["details"][0]["field"] == "reference"


async def test_the_scope_is_vehicle_read(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    assert (await client.get("/v3/vehicle/status/ref_x")).status_code == 401
    account = await make_account("sandbox", scopes=["business:read"])
    response = await get_status(client, "vehicle", account.headers, "ref_x")
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"


async def test_a_nigerian_check_the_job_finishes_is_decoded_and_asked_as_nigerian(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "vehicle_sync_seconds", 0.1)
    fake_vehicle.set_mode(Mode.SLOW, slow_seconds=1.5)  # past the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    sent = {"country_code": "NG", "registration_number": "KJA 123 AB"}
    first = (await verify(client, account.headers, **sent)).json()
    assert first["status"] == "PENDING"
    await asyncio.sleep(1.2)  # the look-up under way gives up: left to the job
    fake_vehicle.set_mode(Mode.NORMAL)
    row = await check_row(db, account.org_id, first["reference"])
    assert row is not None
    await run_job_now(db, (await completion_job(db, row["id"]))["id"])
    final = await wait_final(client, "vehicle", account.headers, first["reference"])
    assert final["status"] == "VERIFIED" and final["data"]["vehicle"]["make"] == "TOYOTA CAMRY"
    assert final["data"]["decoded"]["plate"]["lga"] == "Ikeja"
    assert fake_vehicle.requests[-1]["json"] == {"vehicle_number": fake_aggregator.NG_PLATE_FOUND}

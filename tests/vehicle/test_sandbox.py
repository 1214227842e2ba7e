"""POST /v3/vehicle/verify with sandbox keys through HTTP: every outcome, the local decode,
the PENDING completion and its webhook, and the 400s an attacker's inputs get."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.vehicle.sandbox import BAD_CHECK_DIGIT_VIN, FINANCIER, GOLDEN_VIN
from tests.conftest import AccountFactory
from tests.support.registry_checks import check_row, events_for, wait_event
from tests.vehicle.helpers import PATH, verify


async def test_a_plate_is_found_decoded_and_free(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (await verify(client, account.headers, registration_number="kca100a")).json()
    assert (body["status"], body["response_code"], body["live"]) == ("VERIFIED", "00", False)
    assert body["billing"]["charged"] is False and body["provider"] == "hakiki-sandbox"
    data = body["data"]
    assert data["identifier"] == {
        "field": "registration_number", "kind": "registration_number", "value": "KCA 100A",
    }  # fmt: skip
    assert data["decoded"]["plate"]["category"] == "civilian"
    assert data["vehicle"]["registration_number"] == "KCA 100A"
    assert data["vehicle"]["owners"][0]["id_number_masked"].startswith("*****")
    again = (await verify(client, account.headers, registration_number="KCA 100A")).json()
    assert again["data"] == data and again["reference"] == body["reference"]  # deterministic


@pytest.mark.parametrize(
    ("plate", "status", "code", "state"),
    [
        ("KCA 105A", "NOT_FOUND", "01", "completed"),
        ("KCA 108A", "SOURCE_UNAVAILABLE", "02", "failed"),
        ("KCA 109A", "FAILED", "09", "failed"),
    ],
)
async def test_last_digit_outcomes(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    plate: str,
    status: str,
    code: str,
    state: str,
) -> None:
    account = await make_account("sandbox")
    body = (await verify(client, account.headers, registration_number=plate)).json()
    assert (body["status"], body["response_code"], body["data"]["state"]) == (status, code, state)
    assert body["data"]["vehicle"] is None
    assert body["data"]["decoded"]["plate"]["registration_number"] == plate  # local, always


async def test_owner_name_matches_or_mismatches(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    same = (
        await verify(client, account.headers, registration_number="KCA 100A",
                     owner_name="wanjiru  kamau")
    ).json()  # fmt: skip
    assert same["status"] == "VERIFIED" and same["data"]["owner_comparison"]["match"] is True
    other = (
        await verify(client, account.headers, registration_number="KCA 106A",
                     owner_name="Wanjiru Kamau")
    ).json()  # fmt: skip
    assert (other["status"], other["response_code"]) == ("MISMATCH", "04")
    comparison = other["data"]["owner_comparison"]
    assert comparison["match"] is False and comparison["on_record"] != "Wanjiru Kamau"
    assert "differs" in comparison["reason"]
    without = (await verify(client, account.headers, registration_number="KCA 106A")).json()
    assert without["status"] == "VERIFIED" and without["data"]["owner_comparison"] is None


async def test_a_caveat_is_reported(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    data = (await verify(client, account.headers, registration_number="KCA 110A")).json()["data"]
    assert data["vehicle"]["caveats"][0]["holder"] == FINANCIER
    assert any("caveat" in w for w in data["warnings"])


async def test_vins_and_chassis_numbers(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    good = (await verify(client, account.headers, vin=GOLDEN_VIN)).json()["data"]
    assert good["decoded"]["vin"]["check_digit"] == "valid" and good["warnings"] == []
    bad = (await verify(client, account.headers, vin=BAD_CHECK_DIGIT_VIN)).json()
    assert bad["status"] == "VERIFIED"
    assert bad["data"]["decoded"]["vin"]["check_digit"] == "invalid"
    assert "check digit" in bad["data"]["warnings"][0]
    jdm = (await verify(client, account.headers, chassis_number="nze121 1234560")).json()["data"]
    assert jdm["identifier"]["kind"] == "jdm_chassis_number"
    assert jdm["identifier"]["value"] == "NZE121-1234560"
    assert (jdm["decoded"]["chassis"]["maker"], jdm["vehicle"]["make"]) == ("Toyota", "Toyota")
    as_vin = (await verify(client, account.headers, chassis_number=GOLDEN_VIN)).json()["data"]
    assert as_vin["identifier"]["kind"] == "vin"


async def test_pending_completes_with_a_webhook_event(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "vehicle_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    body = (
        await verify(client, account.headers, registration_number="KCA 107A",
                     owner_name="Achieng Otieno")
    ).json()  # fmt: skip
    assert (body["status"], body["async_pending"], body["data"]["state"]) == (
        "PENDING", True, "pending",
    )  # fmt: skip
    event = await wait_event(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed"
    data = event["data"]
    assert data["reference"] == body["reference"] and data["status"] == "VERIFIED"
    assert data["owner_match"] is True and data["vehicle"]["make"]
    assert "Achieng" not in str(data) and "owners" not in str(data)  # no personal data
    row = await check_row(db, account.org_id, body["reference"])
    assert row is not None and row["state"] == "completed"
    assert "Achieng" not in row["request_encrypted"] + row["data_encrypted"]


async def test_final_answers_are_kept_for_the_status_call_and_emit_nothing(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    sent = {"registration_number": "KCA 100A", "owner_name": "Wanjiru Kamau"}
    body = (await verify(client, account.headers, **sent)).json()
    row = await check_row(db, account.org_id, body["reference"])
    assert row is not None and (row["state"], row["category"]) == ("completed", "vehicle")
    assert "Wanjiru" not in row["request_encrypted"] + row["data_encrypted"]
    assert "KCA" not in row["request_encrypted"] + row["data_encrypted"]
    assert await events_for(db, account.org_id, body["reference"]) == []


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, ["vin", "chassis_number", "registration_number"]),
        ({"owner_name": "Wanjiru Kamau"}, ["vin", "chassis_number", "registration_number"]),
        ({"vin": GOLDEN_VIN, "registration_number": "KCA 100A"}, ["vin", "registration_number"]),
        (
            {"vin": GOLDEN_VIN, "chassis_number": "NZE121-1", "registration_number": "KCA 1"},
            ["vin", "chassis_number", "registration_number"],
        ),
        ({"registration_number": "KCI 123A"}, ["registration_number"]),
        ({"registration_number": "48 CG 123A"}, ["registration_number"]),
        ({"vin": "1HGCM82633AOO4352"}, ["vin"]),
        ({"vin": "1HGCM82633A00435"}, ["vin"]),
        ({"chassis_number": "NZE1211234567"}, ["chassis_number"]),
        ({"chassis_number": "<script>"}, ["chassis_number"]),
        ({"registration_number": "KCA 100A", "owner_name": "Kamau"}, ["owner_name"]),
        ({"registration_number": 12345}, ["registration_number"]),
        ({"vin": ["1HGCM82633A004352"]}, ["vin"]),
        ({"registration_number": ""}, ["registration_number"]),
        ({"registration_number": "K" * 21}, ["registration_number"]),
        ({"registration_number": "KCA 100A", "owner_name": "x" * 201}, ["owner_name"]),
        ({"registration_number": "KCA 100A", "colour": "red"}, ["colour"]),
        ({"registration_number": "KCA\u0000100A"}, ["registration_number"]),
    ],
)
async def test_bad_requests_are_400s_naming_the_fields(
    client: httpx.AsyncClient, make_account: AccountFactory, body: dict[str, object],
    fields: list[str],
) -> None:  # fmt: skip
    account = await make_account("sandbox")
    response = await client.post(PATH, json=body, headers=account.headers)
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["error"] == "invalid_request"
    named = [d["field"].split(".")[-1] for d in problem.get("details", [])]
    assert named == fields or set(fields) <= set(named), problem


async def test_garbled_bodies(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "content-type": "application/json"}
    surrogate = b'{"registration_number": "\\ud800KCA"}'
    for raw in (b"{", b"[]", b'"KCA 100A"', b"null", surrogate):
        response = await client.post(PATH, content=raw, headers=headers)
        assert response.status_code == 400, (raw, response.text)
    huge = b'{"registration_number": "' + b"K" * 20_000 + b'"}'
    assert (await client.post(PATH, content=huge, headers=headers)).status_code == 413


async def test_scope_and_credentials(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    assert (await client.post(PATH, json={"vin": GOLDEN_VIN})).status_code == 401
    account = await make_account("sandbox", scopes=["identity:read"])
    response = await verify(client, account.headers, vin=GOLDEN_VIN)
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"

"""The KYB endpoints with sandbox keys over HTTP: the fictional register's outcomes, the owners'
screening on the sandbox lists, PENDING completed by the job with its webhook, determinism, and
what an attacker might send; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyb.helpers import ledger_kinds, post
from tests.support.registry_checks import wait_event


async def test_the_same_request_gives_the_same_answer(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {"country_code": "UG", "registration_number": "80020001234560"}
    first = (await post(client, "ownership", account.headers, **body)).json()
    again = (await post(client, "ownership", account.headers, **body)).json()
    other = (
        await post(client, "ownership", (await make_account("sandbox")).headers, **body)
    ).json()
    for answer in (again, other):
        assert {**answer, "request_id": ""} == {**first, "request_id": ""}
    assert first["data"]["query"]["registration_format"] == "UG-URSB-BRN"
    assert first["billing"]["charged"] is False


async def test_a_pending_number_completes_with_a_webhook(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sandbox_pending_seconds", 0.0)
    account = await make_account("sandbox")
    body = (
        await post(
            client, "ownership", account.headers, country_code="TZ", registration_number="150000027"
        )
    ).json()
    assert (body["status"], body["data"]["state"]) == ("PENDING", "pending")
    event = await wait_event(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed" and event["environment"] == "sandbox"
    data: dict[str, Any] = event["data"]
    assert data["company"]["name"] == "Kilimanjaro Coffee Growers Limited"
    assert data["screening"]["status"] == "POTENTIAL_MATCH"
    assert "Sandbox Sanction Person" not in str(data)
    assert await ledger_kinds(db, account.org_id) == {}


async def test_a_key_without_business_read_is_403(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["identity:read"])
    response = await post(
        client, "business", account.headers, country_code="KE", registration_number="PVT-KYB00000"
    )
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"registration_number": "PVT-KYB00000"}, "country_code"),
        ({"country_code": "KEN", "registration_number": "PVT-KYB00000"}, "country_code"),
        ({"country_code": 254, "registration_number": "PVT-KYB00000"}, "country_code"),
        ({"country_code": "KE"}, "registration_number"),
        ({"country_code": "KE", "registration_number": 12345}, "registration_number"),
        ({"country_code": "KE", "registration_number": "PVT-\u0000ABCDEF"}, "registration_number"),
        ({"country_code": "KE", "registration_number": "X" * 65}, "registration_number"),
        ({"country_code": "KE", "registration_number": "ABC-1234567"}, "registration_number"),
        ({"country_code": "KE", "registration_number": "CPR/1850/1"}, "registration_number"),
        ({"country_code": "UG", "registration_number": "8002000123456"}, "registration_number"),
        ({"country_code": "TZ", "registration_number": "1234567890"}, "registration_number"),
        ({"country_code": "KE", "name": "Mlima Fresh Produce"}, "name"),
        ({"country_code": "GB", "lei": "5493001KJTIIGC8Y1R1"}, "lei"),
        ({"country_code": "GB", "lei": "5493001KJTIIGC8Y1R12",
          "registration_number": "1"}, "lei"),
        ({"country_code": "KE", "registration_number": "PVT-KYB00000", "screen": True}, "screen"),
        ({"country_code": "KE", "registration_number": "PVT-KYB00000", "screen_owners": "yes"},
         "screen_owners"),
        ({"country_code": "KE", "registration_number": "PVT-KYB00000", "threshold": True},
         "threshold"),
        ({"country_code": "KE", "registration_number": "PVT-KYB00000", "checks": ["adverse"]},
         "checks.0"),
    ],
)  # fmt: skip
async def test_bad_input_is_a_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, body: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    response = await post(client, "ownership", account.headers, **body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "invalid_request"
    assert error["details"][0]["field"] == field, error


async def test_a_lone_surrogate_and_an_oversized_body_are_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    surrogate = b'{"country_code": "KE", "registration_number": "PVT-\\ud800ABCDEF"}'
    response = await client.post("/v3/kyb/business", content=surrogate, headers=headers)
    assert response.status_code == 400
    assert response.json()["details"][0]["field"] == "registration_number"
    huge = b'{"country_code": "KE", "name": "' + b"A" * (1 << 20) + b'"}'
    assert (await client.post("/v3/kyb/business", content=huge, headers=headers)).status_code == 413


async def test_the_error_message_says_what_is_wrong(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await post(
        client, "business", account.headers, country_code="KE", registration_number="XYZ-1234567"
    )
    problem = response.json()["details"][0]["problem"]
    assert "prefix XYZ" in problem and "PVT" in problem
